import type { FastifyPluginAsync } from 'fastify';
import type { Transaction } from 'kysely';
import type { AuthorProfile } from '../../shared/authorProfile.ts';
import type { Database } from '../db/database.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import { createAuthorsRepository, type AccountName } from './authorsRepository.ts';
import { authorsRoutes } from './authorsRoutes.ts';

/** An author page's address resolved: whose it is, and whether it is the current one (else redirect). */
export interface ResolvedAuthor {
  profile: AuthorProfile;
  /** False for an old slug or a uid: the page answers 301 to `/author/{profile.slug}`. */
  current: boolean;
}

/** Author profiles (decision 0420): readable URLs, bios, and the picture identity keeps. */
export interface Authors {
  /** Register with { prefix: '/api' }. */
  routes: FastifyPluginAsync;
  /** The account's current slug, made anew when its name changed; undefined when there is no account. */
  ensureSlug(uid: string, trx?: Transaction<DatabaseSchema>): Promise<string | undefined>;
  /** What `/author/{key}` shows: `key` a current slug, an old one or a uid; undefined for none. */
  resolve(key: string): Promise<ResolvedAuthor | undefined>;
  /** The current slugs of these accounts (sitemaps); an account without one is left out. */
  slugsOf(uids: readonly string[]): Promise<Map<string, string>>;
  /** These accounts' names as of now and their slugs (the staff screens); a deleted account is left out. */
  namesOf(uids: readonly string[]): Promise<Map<string, AccountName>>;
}

export interface AuthorsDeps {
  database: Database;
  /** How many articles each account has (the articles feature's count). */
  countArticles(uids: readonly string[]): Promise<Map<string, number>>;
  /** A stored photo URL as it is answered (origin-free uploads made absolute). */
  servedPhotoUrl(url: string): string;
  clock?: (() => number) | undefined;
}

export function createAuthors(deps: AuthorsDeps): Authors {
  const repository = createAuthorsRepository(deps.database.db, deps.clock ?? Date.now);

  async function profileOf(uid: string): Promise<AuthorProfile | undefined> {
    if ((await repository.ensureSlug(uid)) === undefined) return undefined;
    const stored = await repository.find(uid);
    if (!stored) return undefined;
    const counts = await deps.countArticles([uid]);
    return {
      ...stored,
      photoUrl: stored.photoUrl === null ? null : deps.servedPhotoUrl(stored.photoUrl),
      articleCount: counts.get(uid) ?? 0,
    };
  }

  async function resolve(key: string): Promise<ResolvedAuthor | undefined> {
    // A slug first: slugs are never made equal to another account's id (authorsRepository.ts).
    const uid = (await repository.uidOfSlug(key)) ?? ((await repository.accountExists(key)) ? key : undefined);
    if (uid === undefined) return undefined;
    const profile = await profileOf(uid);
    return profile && { profile, current: profile.slug === key };
  }

  return {
    routes: authorsRoutes({
      profile: async (key) => (await resolve(key))?.profile,
      profileOfUid: profileOf,
      setBio: (uid, bio) => repository.setBio(uid, bio),
    }),
    ensureSlug: (uid, trx) => repository.ensureSlug(uid, trx),
    resolve,
    slugsOf: (uids) => repository.slugsOf(uids),
    namesOf: (uids) => repository.namesOf([...new Set(uids)]),
  };
}
