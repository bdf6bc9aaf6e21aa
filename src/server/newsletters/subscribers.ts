import { createHash, randomBytes } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import type { Unsubscribe } from '../unsubscribe/createUnsubscribe.ts';
import type { SubscriberStatus } from './newslettersTables.ts';
import { keysetPage } from '../http/keysetPage.ts';

/** The unsubscribe feature's list of the newsletter; its recipients are subscriber ids. */
export const NEWSLETTER_LIST = 'newsletter';

/** A confirmation link works this long (the subscriber asks again after). */
const CONFIRM_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export const emailSchema = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email())
  .transform((value) => value.toLowerCase());

const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');
const newId = () => randomBytes(16).toString('base64url');
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface SubscriberJson {
  id: string;
  email: string;
  /** `unsubscribed`: confirmed once, then opted out through an unsubscribe link. */
  status: SubscriberStatus | 'unsubscribed';
  /** Whether an account subscribed it from its profile. */
  account: boolean;
  createdAt: string;
  confirmedAt: string | null;
}

export const SUBSCRIBERS_PAGE_SIZE = 50;

/**
 * The subscribers of DESIGN.md §9.3: addresses, with or without an account. An anonymous
 * subscription waits for its confirmation (double opt-in); an account with a verified address
 * and an import are confirmed at once. Leaving is the unsubscribe feature's opt-out.
 */
export function createSubscribers(deps: { database: Database; unsubscribe: Unsubscribe; now: () => number }) {
  const { db } = deps.database;
  const { now } = deps;

  return {
    /**
     * An anonymous subscription of `email`: a confirmation token when a mail should go out,
     * undefined when the address is already a subscriber who wants the newsletter.
     */
    async request(email: string): Promise<string | undefined> {
      const existing = await db
        .selectFrom('newsletter_subscribers')
        .select(['id', 'status'])
        .where('email', '=', email)
        .executeTakeFirst();
      if (existing?.status === 'confirmed' && (await deps.unsubscribe.wants(NEWSLETTER_LIST, existing.id))) {
        return undefined;
      }
      const token = randomBytes(32).toString('base64url');
      const at = now();
      const confirm = { confirm_token_hash: hashOf(token), confirm_expires_at: at + CONFIRM_LIFETIME_MS };
      await db
        .insertInto('newsletter_subscribers')
        .values({ id: newId(), email, status: 'pending', uid: null, created_at: at, confirmed_at: null, ...confirm })
        .onConflict((conflict) => conflict.column('email').doUpdateSet(confirm))
        .execute();
      return token;
    },

    /** The confirmation's POST: true when the token is a live one (the address is now confirmed). */
    async confirm(token: unknown): Promise<boolean> {
      if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) return false;
      const row = await db
        .selectFrom('newsletter_subscribers')
        .select(['id', 'confirm_expires_at'])
        .where('confirm_token_hash', '=', hashOf(token))
        .executeTakeFirst();
      if (!row || (row.confirm_expires_at ?? 0) < now()) return false;
      await db
        .updateTable('newsletter_subscribers')
        .set({ status: 'confirmed', confirmed_at: now(), confirm_token_hash: null, confirm_expires_at: null })
        .where('id', '=', row.id)
        .execute();
      await deps.unsubscribe.setWants(NEWSLETTER_LIST, row.id, true);
      return true;
    },

    /** A signed-in account's one click (its address verified): confirmed at once. */
    async subscribeAccount(uid: string, email: string): Promise<void> {
      const at = now();
      await db
        .insertInto('newsletter_subscribers')
        .values({
          id: newId(),
          email,
          status: 'confirmed',
          uid,
          created_at: at,
          confirmed_at: at,
          confirm_token_hash: null,
          confirm_expires_at: null,
        })
        .onConflict((conflict) =>
          conflict.column('email').doUpdateSet({
            status: 'confirmed',
            uid,
            confirmed_at: at,
            confirm_token_hash: null,
            confirm_expires_at: null,
          }),
        )
        .execute();
      const row = await db
        .selectFrom('newsletter_subscribers')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      await deps.unsubscribe.setWants(NEWSLETTER_LIST, row.id, true);
    },

    /** Whether `email` gets the newsletter now. */
    async isSubscribed(email: string): Promise<boolean> {
      const row = await db
        .selectFrom('newsletter_subscribers')
        .select(['id', 'status'])
        .where('email', '=', email)
        .executeTakeFirst();
      return row?.status === 'confirmed' && (await deps.unsubscribe.wants(NEWSLETTER_LIST, row.id));
    },

    async removeByEmail(email: string): Promise<void> {
      await db.deleteFrom('newsletter_subscribers').where('email', '=', email).execute();
    },

    /** An editor's removal; false when there is no such subscriber. */
    async remove(id: string): Promise<boolean> {
      const result = await db.deleteFrom('newsletter_subscribers').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** An account being deleted: the address it subscribed goes with it. */
    async forgetAccount(uid: string, trx: Transaction<DatabaseSchema>): Promise<void> {
      await trx.deleteFrom('newsletter_subscribers').where('uid', '=', uid).execute();
    },

    /** Confirmed subscribers who want the newsletter: what a send now would reach. */
    async countReached(): Promise<number> {
      const row = await db
        .selectFrom('newsletter_subscribers as s')
        .select((eb) => eb.fn.countAll<string | number>().as('count'))
        .where('s.status', '=', 'confirmed')
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('mail_opt_outs as o')
                .select('o.list')
                .where('o.list', '=', NEWSLETTER_LIST)
                .whereRef('o.recipient', '=', 's.id'),
            ),
          ),
        )
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** A page of subscribers in address order, those containing `q` when given. */
    async page(
      q: string,
      after: string | undefined,
    ): Promise<{ subscribers: SubscriberJson[]; nextCursor: string | null }> {
      let query = db
        .selectFrom('newsletter_subscribers as s')
        .leftJoin('mail_opt_outs as o', (join) =>
          join.onRef('o.recipient', '=', 's.id').on('o.list', '=', NEWSLETTER_LIST),
        )
        .select(['s.id', 's.email', 's.status', 's.uid', 's.created_at', 's.confirmed_at', 'o.list as optedOut'])
        .orderBy('s.email');
      if (q !== '') {
        const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        query = query.where(sql<boolean>`${sql.ref('s.email')} like ${pattern} escape '\\'`);
      }
      if (after !== undefined) query = query.where('s.email', '>', after);
      const page = await keysetPage(
        SUBSCRIBERS_PAGE_SIZE,
        (rows) => query.limit(rows).execute(),
        (last) => Buffer.from(last.email).toString('base64url'),
      );
      return {
        subscribers: page.rows.map((row) => ({
          id: row.id,
          email: row.email,
          status: row.status === 'confirmed' && row.optedOut !== null ? 'unsubscribed' : row.status,
          account: row.uid !== null,
          createdAt: new Date(Number(row.created_at)).toISOString(),
          confirmedAt: row.confirmed_at === null ? null : new Date(Number(row.confirmed_at)).toISOString(),
        })),
        nextCursor: page.nextCursor,
      };
    },

    /**
     * Imported addresses are confirmed (they subscribed elsewhere: Ghost, Substack, Mailchimp);
     * one already here keeps its state, and one that unsubscribed stays unsubscribed.
     */
    async importConfirmed(emails: readonly string[]): Promise<{ added: number; known: number }> {
      let added = 0;
      const at = now();
      for (let start = 0; start < emails.length; start += 500) {
        const chunk = emails.slice(start, start + 500);
        const result = await db
          .insertInto('newsletter_subscribers')
          .values(
            chunk.map((email) => ({
              id: newId(),
              email,
              status: 'confirmed' as const,
              uid: null,
              created_at: at,
              confirmed_at: at,
              confirm_token_hash: null,
              confirm_expires_at: null,
            })),
          )
          .onConflict((conflict) => conflict.column('email').doNothing())
          .executeTakeFirst();
        added += Number(result.numInsertedOrUpdatedRows ?? 0);
      }
      return { added, known: emails.length - added };
    },

    /** Every subscriber, in address order, a page at a time (the export). */
    async *all(): AsyncGenerator<SubscriberJson> {
      let after: string | undefined;
      for (;;) {
        const { subscribers, nextCursor } = await this.page('', after);
        yield* subscribers;
        if (nextCursor === null) return;
        after = subscribers.at(-1)!.email;
      }
    },
  };
}

export type Subscribers = ReturnType<typeof createSubscribers>;

/** The address a staff list cursor names, or undefined for one this server did not make. */
export function decodeSubscriberCursor(cursor: string): string | undefined {
  if (cursor.length > 400 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const email = Buffer.from(cursor, 'base64url').toString('utf8');
  return emailSchema.safeParse(email).success ? email : undefined;
}
