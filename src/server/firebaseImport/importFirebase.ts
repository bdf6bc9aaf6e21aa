import type { Kysely, Transaction } from 'kysely';
import { createArticlesRepository } from '../articles/articlesRepository.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import type { ImportedArticle } from './articlesFile.ts';
import type { Skip } from './usersFile.ts';

export interface ImportCount {
  imported: number;
  skipped: Skip[];
}

export type Progress = (done: number, total: number) => void;

const ARTICLE_BATCH = 150;

function chunks<T>(items: T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

/**
 * Inserts the articles in one transaction with their ids, dates and authors. An id already
 * present is skipped (a re-run); an author with no account is skipped with that reason.
 */
export async function importArticles(
  db: Kysely<DatabaseSchema>,
  articles: ImportedArticle[],
  progress: Progress,
): Promise<ImportCount> {
  const skipped: Skip[] = [];
  let imported = 0;
  await db.transaction().execute(async (trx: Transaction<DatabaseSchema>) => {
    const repository = createArticlesRepository(trx);
    const seenIds = new Set<string>();
    for (const batch of chunks(articles, ARTICLE_BATCH)) {
      const authorIds = [...new Set(batch.map((a) => a.authorId))];
      const [byId, authors] = await Promise.all([
        trx
          .selectFrom('articles')
          .select('id')
          .where(
            'id',
            'in',
            batch.map((a) => a.id),
          )
          .execute(),
        trx.selectFrom('users').select('id').where('id', 'in', authorIds).execute(),
      ]);
      const existingIds = new Set(byId.map((row) => row.id));
      const knownAuthors = new Set(authors.map((row) => row.id));
      const rows = [];
      for (const article of batch) {
        if (seenIds.has(article.id)) {
          skipped.push({ id: article.id, reason: 'this id appears earlier in the file' });
        } else if (existingIds.has(article.id)) {
          skipped.push({ id: article.id, reason: 'already imported (this id exists)' });
        } else if (!knownAuthors.has(article.authorId)) {
          skipped.push({ id: article.id, reason: `unknown author ${article.authorId}` });
        } else {
          seenIds.add(article.id);
          // The old site showed every article: they come in published (DESIGN.md §8.2).
          rows.push({ ...article, status: 'published' as const });
        }
      }
      await repository.insertBatch(rows);
      imported += rows.length;
      progress(imported + skipped.length, articles.length);
    }
  });
  return { imported, skipped };
}
