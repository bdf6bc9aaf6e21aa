import type { Kysely, Transaction } from 'kysely';
import { authorSlug } from '../../shared/authorProfile.ts';
import type { DatabaseSchema } from '../db/schema.ts';

type Db = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

/** The two columns of identity's users table this feature reads (name and picture as stored). */
type UserColumns = { users: { id: string; display_name: string | null; photo_url: string | null } };

/** An account as other screens name it: its display name, and its author page's slug when it has one. */
export interface AccountName {
  name: string | null;
  slug: string | null;
}

/** An author's profile as stored: the photo URL may be origin-free (an upload here). */
export interface StoredAuthor {
  uid: string;
  name: string | null;
  photoUrl: string | null;
  slug: string;
  bio: string;
}

// More accounts than this with one name is not people sharing a name: the uid makes it unique.
const NUMBERED_SLUGS_TRIED = 100;

/** All SQL of the authors feature. */
export function createAuthorsRepository(db: Kysely<DatabaseSchema>, now: () => number) {
  const users = (trx: Db) => trx.withTables<UserColumns>();

  /**
   * Claims `slug` for `uid` unless another account holds it; true when it is uid's. Whether it is
   * someone's account id was read with the other candidates (heldByOthers).
   */
  async function claim(trx: Db, slug: string, uid: string): Promise<boolean> {
    // Two requests may claim the same slug at once: the primary key lets one in, and the
    // other sees the holder (no error, so a PostgreSQL transaction goes on).
    await trx
      .insertInto('author_slugs')
      .values({ slug, author_id: uid, created_at: now() })
      .onConflict((conflict) => conflict.column('slug').doNothing())
      .execute();
    const holder = await trx.selectFrom('author_slugs').select('author_id').where('slug', '=', slug).executeTakeFirst();
    return holder?.author_id === uid;
  }

  /** Those of `slugs` another account holds, as a slug or as its id. */
  async function heldByOthers(trx: Db, slugs: string[], uid: string): Promise<Set<string>> {
    const slugRows = await trx
      .selectFrom('author_slugs')
      .select('slug')
      .where('slug', 'in', slugs)
      .where('author_id', '<>', uid)
      .execute();
    const idRows = await users(trx)
      .selectFrom('users')
      .select('id')
      .where('id', 'in', slugs)
      .where('id', '<>', uid)
      .execute();
    return new Set([...slugRows.map((row) => row.slug), ...idRows.map((row) => row.id)]);
  }

  /**
   * The current slug of `uid`, made from its display name when it has none or the name
   * changed (old slugs stay, and redirect); undefined when there is no such account.
   */
  async function ensureSlug(trx: Db, uid: string): Promise<string | undefined> {
    const user = await users(trx)
      .selectFrom('users')
      .select(['users.display_name as name'])
      .where('users.id', '=', uid)
      .executeTakeFirst();
    if (!user) return undefined;
    const name = user.name ?? '';
    const profile = await trx
      .selectFrom('author_profiles')
      .select(['slug', 'slug_name'])
      .where('author_id', '=', uid)
      .executeTakeFirst();
    if (profile && profile.slug_name === name) return profile.slug;
    const base = authorSlug(name);
    const candidates = Array.from({ length: NUMBERED_SLUGS_TRIED }, (_, index) =>
      index === 0 ? base : `${base}-${index + 1}`,
    );
    // Which candidates others hold, read at once: claiming them one by one cost three queries
    // each, so with many accounts of one name (or none) every sign-up walked the whole list.
    const held = await heldByOthers(trx, candidates, uid);
    let slug: string | undefined;
    for (const candidate of candidates) {
      if (held.has(candidate)) continue;
      // Free a moment ago; a request claiming it meanwhile makes this one try the next.
      if (await claim(trx, candidate, uid)) {
        slug = candidate;
        break;
      }
    }
    if (slug === undefined) {
      slug = `${base}-${uid.toLowerCase()}`;
      await trx.insertInto('author_slugs').values({ slug, author_id: uid, created_at: now() }).execute();
    }
    await trx
      .insertInto('author_profiles')
      .values({ author_id: uid, slug, slug_name: name, bio: '' })
      .onConflict((conflict) => conflict.column('author_id').doUpdateSet({ slug, slug_name: name }))
      .execute();
    return slug;
  }

  return {
    /** See ensureSlug above; in its own transaction unless given one. */
    async ensureSlug(uid: string, trx?: Transaction<DatabaseSchema>): Promise<string | undefined> {
      if (trx) return ensureSlug(trx, uid);
      // Nearly always the slug is there and current: one read, no transaction (every author page asks).
      const current = await users(db)
        .selectFrom('users')
        .innerJoin('author_profiles', 'author_profiles.author_id', 'users.id')
        .select(['author_profiles.slug', 'author_profiles.slug_name', 'users.display_name'])
        .where('users.id', '=', uid)
        .executeTakeFirst();
      if (current && current.slug_name === (current.display_name ?? '')) return current.slug;
      return db.transaction().execute((own) => ensureSlug(own, uid));
    },

    /** The account a slug (current or old) names, or undefined. */
    async uidOfSlug(slug: string): Promise<string | undefined> {
      const row = await db.selectFrom('author_slugs').select('author_id').where('slug', '=', slug).executeTakeFirst();
      return row?.author_id;
    },

    /** The current slugs of these accounts (those that have one). */
    async slugsOf(uids: readonly string[]): Promise<Map<string, string>> {
      if (uids.length === 0) return new Map();
      const rows = await db
        .selectFrom('author_profiles')
        .select(['author_id', 'slug'])
        .where('author_id', 'in', uids)
        .execute();
      return new Map(rows.map((row) => [row.author_id, row.slug]));
    },

    /** These accounts' names as of now, with their slugs (those that have one); a deleted one is left out. */
    async namesOf(uids: readonly string[]): Promise<Map<string, AccountName>> {
      if (uids.length === 0) return new Map();
      const rows = await users(db)
        .selectFrom('users')
        .leftJoin('author_profiles', 'author_profiles.author_id', 'users.id')
        .select(['users.id', 'users.display_name as name', 'author_profiles.slug'])
        .where('users.id', 'in', uids)
        .execute();
      return new Map(rows.map((row) => [row.id, { name: row.name, slug: row.slug }]));
    },

    /** True when an account has this id. */
    async accountExists(uid: string): Promise<boolean> {
      return (await users(db).selectFrom('users').select('id').where('id', '=', uid).executeTakeFirst()) !== undefined;
    },

    /** The profile of an account whose slug is current (after ensureSlug), or undefined. */
    async find(uid: string): Promise<StoredAuthor | undefined> {
      return users(db)
        .selectFrom('users')
        .innerJoin('author_profiles', 'author_profiles.author_id', 'users.id')
        .select([
          'users.id as uid',
          'users.display_name as name',
          'users.photo_url as photoUrl',
          'author_profiles.slug',
          'author_profiles.bio',
        ])
        .where('users.id', '=', uid)
        .executeTakeFirst();
    },

    /** Sets the bio of an account whose profile exists (after ensureSlug); false when it has gone. */
    async setBio(uid: string, bio: string): Promise<boolean> {
      const result = await db
        .updateTable('author_profiles')
        .set({ bio })
        .where('author_id', '=', uid)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}

export type AuthorsRepository = ReturnType<typeof createAuthorsRepository>;
