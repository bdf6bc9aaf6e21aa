import type { Kysely, Transaction } from 'kysely';
import { createArticlesRepository } from '../articles/articlesRepository.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import { initialValidSince } from '../identity/core/validSince.ts';
import type { ImportedArticle } from './articlesFile.ts';
import type { ImportedProviderLink, ImportedUser, Skip } from './usersFile.ts';

export interface ImportCount {
  imported: number;
  skipped: Skip[];
}

export type Progress = (done: number, total: number) => void;

// 90 rows x 11 values stays under SQLite's historical 999-parameter limit and PostgreSQL's 65535.
const USER_BATCH = 90;
const ARTICLE_BATCH = 150;

function chunks<T>(items: T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

/**
 * Inserts the accounts in one transaction, keeping their uids. A uid already present is
 * skipped (a re-run); an email held by another uid is a conflict, skipped and never merged.
 * No password is hashed here: the Firebase hash is kept until its owner's first sign-in.
 */
export async function importUsers(
  db: Kysely<DatabaseSchema>,
  users: ImportedUser[],
  now: number,
  progress: Progress,
): Promise<ImportCount> {
  const skipped: Skip[] = [];
  let imported = 0;
  await db.transaction().execute(async (trx) => {
    const seenEmails = new Set<string>();
    const seenIds = new Set<string>();
    for (const batch of chunks(users, USER_BATCH)) {
      const [byId, byEmail] = await Promise.all([
        trx
          .selectFrom('users')
          .select('id')
          .where(
            'id',
            'in',
            batch.map((u) => u.uid),
          )
          .execute(),
        trx
          .selectFrom('users')
          .select(['id', 'email'])
          .where(
            'email',
            'in',
            batch.map((u) => u.email),
          )
          .execute(),
      ]);
      const existingIds = new Set(byId.map((row) => row.id));
      const emailOwners = new Map(byEmail.map((row) => [row.email, row.id]));
      const rows: ReturnType<typeof userRow>[] = [];
      for (const user of batch) {
        if (seenIds.has(user.uid)) {
          skipped.push({ id: user.uid, reason: 'this uid appears earlier in the file' });
        } else if (existingIds.has(user.uid)) {
          skipped.push({ id: user.uid, reason: 'already imported (this uid exists)' });
        } else if (emailOwners.has(user.email) || seenEmails.has(user.email)) {
          skipped.push({ id: user.uid, reason: 'its email address belongs to another account' });
        } else {
          seenIds.add(user.uid);
          seenEmails.add(user.email);
          rows.push(userRow(user, now));
        }
      }
      if (rows.length > 0) await trx.insertInto('users').values(rows).execute();
      const links = batch
        .filter((user) => rows.some((row) => row.id === user.uid))
        .flatMap((user) => user.providers.map((link) => linkRow(user.uid, link, now)));
      // An identity another account already holds stays there (a re-run, or a second export).
      if (links.length > 0) {
        await trx
          .insertInto('federated_identities')
          .values(links)
          .onConflict((conflict) => conflict.doNothing())
          .execute();
      }
      imported += rows.length;
      progress(imported + skipped.length, users.length);
    }
  });
  return { imported, skipped };
}

/** A Firebase providerUserInfo link, kept so the provider, once configured, signs in to the old uid. */
function linkRow(uid: string, link: ImportedProviderLink, now: number) {
  return {
    provider_id: link.providerId,
    subject: link.rawId,
    user_id: uid,
    email: link.email,
    display_name: link.displayName,
    photo_url: link.photoUrl,
    created_at: now,
  };
}

function userRow(user: ImportedUser, now: number) {
  return {
    id: user.uid,
    email: user.email,
    password_hash: user.passwordHash,
    display_name: user.displayName,
    photo_url: user.photoUrl,
    email_verified: user.emailVerified ? 1 : 0,
    disabled: user.disabled ? 1 : 0,
    created_at: user.createdAt,
    last_login_at: user.lastLoginAt,
    password_updated_at: user.createdAt,
    valid_since: initialValidSince(now),
  };
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
          rows.push(article);
        }
      }
      await repository.insertBatch(rows);
      imported += rows.length;
      progress(imported + skipped.length, articles.length);
    }
  });
  return { imported, skipped };
}
