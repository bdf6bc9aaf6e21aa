import { sql, type RawBuilder } from 'kysely';

/**
 * THE visibility rule of everything readers find by topic or by text (search, tag pages,
 * tag counts): only published articles (DESIGN.md §8.2). The lists, feeds and sitemaps say
 * the same with `status = 'published'` on their indexes (articlesRepository.ts).
 *
 * The search index holds published articles only (search/searchIndex.ts indexArticle uses this
 * when writing an entry), so a change of visibility must rewrite the article's entry.
 *
 * `articlesAlias` names the articles table in the caller's query.
 */
export function isPublished(articlesAlias = 'articles'): RawBuilder<boolean> {
  // The alias is checked so a caller cannot pass SQL here.
  if (!/^[a-z_]+$/.test(articlesAlias)) throw new Error('isPublished: not a table alias');
  return sql<boolean>`${sql.ref(`${articlesAlias}.status`)} = 'published'`;
}
