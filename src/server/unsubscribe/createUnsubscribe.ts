import { createHash, randomBytes } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/database.ts';
import type { DatabaseSchema } from '../db/schema.ts';

/**
 * One-click unsubscribe (RFC 8058, DESIGN.md §9.3; decision 0600), generic by list: a list is a
 * kind of mail (`comment-on-article`, `comment-reply`; newsletters later) and a recipient is
 * whatever the list addresses (an account's uid for notifications). Each mail carries a fresh
 * random token (stored as its SHA-256 only; it never expires and says nothing of its recipient)
 * in its List-Unsubscribe header and footer link. `POST /unsubscribe?token=T` opts the recipient
 * out of the list, with no cookie or sign-in; `GET /unsubscribe?token=T` shows a page with one
 * button (a GET never unsubscribes: mail scanners follow links).
 */
export interface UnsubscribeDeps {
  database: Database;
  publicUrl: string;
  /** The site's name, read at each page (a setting, decision 0840). */
  site: { readonly title: string };
  clock?: (() => number) | undefined;
  /** What each list is called on the unsubscribe page ("replies to your comments"). */
  listNames: Record<string, string>;
  /**
   * How a recipient of each list gets its mail again, said once they unsubscribed: account
   * notifications come back from the profile; a newsletter subscriber may have no account.
   */
  resubscribeHints?: Record<string, string> | undefined;
}

export interface UnsubscribeLink {
  /** $PUBLIC_URL/unsubscribe?token=T, for the mail's footer and its header. */
  url: string;
  /** List-Unsubscribe and List-Unsubscribe-Post (RFC 8058). */
  headers: Record<string, string>;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function createUnsubscribe(deps: UnsubscribeDeps) {
  const { db } = deps.database;
  const now = deps.clock ?? Date.now;
  const optOut = async (list: string, recipient: string, trx: Kysely<DatabaseSchema> = db) => {
    await trx
      .insertInto('mail_opt_outs')
      .values({ list, recipient, created_at: now() })
      .onConflict((conflict) => conflict.columns(['list', 'recipient']).doNothing())
      .execute();
  };
  const findToken = async (token: unknown) => {
    if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) return undefined;
    return db
      .selectFrom('unsubscribe_tokens')
      .select(['list', 'recipient'])
      .where('token_hash', '=', hashOf(token))
      .executeTakeFirst();
  };

  const unsubscribe = {
    /** A new link for one mail of `list` to `recipient`. */
    async link(list: string, recipient: string): Promise<UnsubscribeLink> {
      const token = randomBytes(32).toString('base64url');
      await db
        .insertInto('unsubscribe_tokens')
        .values({ token_hash: hashOf(token), list, recipient, created_at: now() })
        .execute();
      const url = `${deps.publicUrl}/unsubscribe?token=${token}`;
      return {
        url,
        headers: { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      };
    },
    /**
     * link() for many recipients of one list in one statement (a newsletter's batch of
     * messages), by recipient.
     */
    async linksFor(list: string, recipients: readonly string[]): Promise<Map<string, UnsubscribeLink>> {
      const links = new Map<string, UnsubscribeLink>();
      if (recipients.length === 0) return links;
      const rows = recipients.map((recipient) => {
        const token = randomBytes(32).toString('base64url');
        const url = `${deps.publicUrl}/unsubscribe?token=${token}`;
        links.set(recipient, {
          url,
          headers: { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
        });
        return { token_hash: hashOf(token), list, recipient, created_at: now() };
      });
      await db.insertInto('unsubscribe_tokens').values(rows).execute();
      return links;
    },
    /** The recipients among `recipients` who opted out of `list`. */
    async optedOutAmong(list: string, recipients: readonly string[]): Promise<Set<string>> {
      if (recipients.length === 0) return new Set();
      const rows = await db
        .selectFrom('mail_opt_outs')
        .select('recipient')
        .where('list', '=', list)
        .where('recipient', 'in', recipients)
        .execute();
      return new Set(rows.map((row) => row.recipient));
    },
    /** Whether `recipient` wants mail of `list` (nobody is opted out until they say so). */
    async wants(list: string, recipient: string): Promise<boolean> {
      const row = await db
        .selectFrom('mail_opt_outs')
        .select('list')
        .where('list', '=', list)
        .where('recipient', '=', recipient)
        .executeTakeFirst();
      return row === undefined;
    },
    /** The lists among `lists` that `recipient` opted out of. */
    async optedOut(recipient: string, lists: readonly string[]): Promise<Set<string>> {
      if (lists.length === 0) return new Set();
      const rows = await db
        .selectFrom('mail_opt_outs')
        .select('list')
        .where('recipient', '=', recipient)
        .where('list', 'in', lists)
        .execute();
      return new Set(rows.map((row) => row.list));
    },
    /** The profile's switch: on (wants the mail) or off. */
    async setWants(list: string, recipient: string, wants: boolean): Promise<void> {
      if (!wants) return optOut(list, recipient);
      await db.deleteFrom('mail_opt_outs').where('list', '=', list).where('recipient', '=', recipient).execute();
    },
    /** Everything kept for `recipient` (an account being deleted). */
    async forget(recipient: string, trx: Transaction<DatabaseSchema>): Promise<void> {
      await trx.deleteFrom('unsubscribe_tokens').where('recipient', '=', recipient).execute();
      await trx.deleteFrom('mail_opt_outs').where('recipient', '=', recipient).execute();
    },
    routes: (async (app) => {
      // One-click posts come as form data (RFC 8058 §3.1) or anything a mail client sends: the
      // token in the URL is the whole request, the body is not read for anything.
      app.removeAllContentTypeParsers();
      app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 4096 }, (_request, _body, done) => done(null));
      const page = (title: string, inner: string) =>
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)} – ${escapeHtml(deps.site.title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${inner}<p><a href="/">${escapeHtml(deps.site.title)}</a></p></main></body></html>`;
      const invalid = page(
        'This link is not valid',
        '<p>This unsubscribe link is not one we sent. Use the link in the mail itself, or change your mail settings on your profile.</p>',
      );
      // The pages carry the token in their address: never cached, never sent on as a referrer.
      const htmlPage = (reply: FastifyReply) =>
        reply
          .header('cache-control', 'no-store')
          .header('referrer-policy', 'no-referrer')
          .type('text/html; charset=utf-8');
      const listName = (list: string) => deps.listNames[list] ?? 'these mails';
      const resubscribeHint = (list: string) => deps.resubscribeHints?.[list] ?? 'Your profile can turn it back on.';
      app.get<{ Querystring: { token?: unknown } }>('/unsubscribe', async (request, reply) => {
        htmlPage(reply);
        const found = await findToken(request.query.token);
        if (!found) return reply.code(404).send(invalid);
        const token = request.query.token as string;
        return reply.send(
          page(
            'Unsubscribe',
            `<p>Stop mail about ${escapeHtml(listName(found.list))} from ${escapeHtml(deps.site.title)}?</p>` +
              `<form method="post" action="/unsubscribe?token=${token}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
          ),
        );
      });
      app.post<{ Querystring: { token?: unknown } }>('/unsubscribe', async (request, reply) => {
        htmlPage(reply);
        const found = await findToken(request.query.token);
        if (!found) return reply.code(404).send(invalid);
        await optOut(found.list, found.recipient);
        return reply.send(
          page(
            'You are unsubscribed',
            `<p>You will get no more mail about ${escapeHtml(listName(found.list))}. ${escapeHtml(resubscribeHint(found.list))}</p>`,
          ),
        );
      });
    }) satisfies FastifyPluginAsync,
  };
  return unsubscribe;
}

export type Unsubscribe = ReturnType<typeof createUnsubscribe>;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
