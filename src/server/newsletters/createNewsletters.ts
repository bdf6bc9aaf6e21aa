import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Transaction } from 'kysely';
import type { ArticleDetail } from '../../shared/articleSchema.ts';
import type { Database } from '../db/database.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import { requires, signedIn } from '../http/apiScope.ts';
import { callerOf } from '../http/callerAuth.ts';
import { sendProblem } from '../http/problem.ts';
import type { Mailer, MailerLog } from '../mail/mailer.ts';
import { escapeHtml } from '../publishing/markupText.ts';
import type { RateLimiter } from '../rateLimit/rateLimiter.ts';
import type { Unsubscribe } from '../unsubscribe/createUnsubscribe.ts';
import { createSender, type Sender } from './sender.ts';
import { createSends } from './sends.ts';
import { createSubscribers, decodeSubscriberCursor, emailSchema } from './subscribers.ts';

/** Subscriptions asked for from one client IP per hour (the API and the forms together). */
export const SUBSCRIBE_PER_IP_PER_HOUR = 20;
/** Confirmation mails to one address per day, however many ask. */
export const CONFIRMATIONS_PER_ADDRESS_PER_DAY = 3;

export interface NewslettersDeps {
  database: Database;
  enabled: boolean;
  site: { title: string; publicUrl: string };
  /** MAIL_FROM as configured, e.g. `Inkwell <no-reply@example.com>`. */
  mailFrom: string;
  /** Account mail (the confirmation). */
  mailer: Mailer;
  /** The pooled newsletter mailer. */
  newsletterMailer: Mailer;
  poolSize: number;
  ratePerSecond: number;
  rateLimiter: RateLimiter;
  unsubscribe: Unsubscribe;
  /** An account's address and whether it is verified. */
  accountAddress: (uid: string) => Promise<{ email: string; verified: boolean } | undefined>;
  findArticle: (id: string) => Promise<ArticleDetail | undefined>;
  clock?: (() => number) | undefined;
}

/** The page a form POST (no script) lands on. */
function page(siteTitle: string, title: string, inner: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)} – ${escapeHtml(siteTitle)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${inner}<p><a href="/">Back to ${escapeHtml(siteTitle)}</a></p></main></body></html>`;
}

/** The sender of a newsletter: the site's title at MAIL_FROM's address. */
export function newsletterFrom(mailFrom: string, siteTitle: string): string {
  const address = /<([^>]+)>\s*$/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  return `"${siteTitle.replace(/["\\]/g, (sign) => `\\${sign}`)}" <${address}>`;
}

/**
 * Newsletters (DESIGN.md §9.3): subscribers, the send made at each first publication, the
 * outbox's worker, and their API and no-script forms.
 */
export function createNewsletters(deps: NewslettersDeps) {
  const now = deps.clock ?? Date.now;
  const subscribers = createSubscribers({ database: deps.database, unsubscribe: deps.unsubscribe, now });
  const sends = createSends({ database: deps.database, now });
  const host = new URL(deps.site.publicUrl).hostname;
  let sender: Sender | undefined;
  const ipRule = { name: 'newsletter:subscribe:ip', limit: SUBSCRIBE_PER_IP_PER_HOUR, windowMs: 60 * 60 * 1000 };
  const addressRule = {
    name: 'newsletter:confirm:email',
    limit: CONFIRMATIONS_PER_ADDRESS_PER_DAY,
    windowMs: 24 * 60 * 60 * 1000,
  };

  const mailConfirmation = async (email: string, token: string) => {
    const link = `${deps.site.publicUrl}/subscribe/confirm?token=${token}`;
    const title = deps.site.title;
    await deps.mailer.send({
      to: email,
      subject: `Confirm your subscription to ${title}`,
      text: `Someone, probably you, asked to get new articles of ${title} by email.\n\nTo confirm, open this link and press Confirm: ${link}\n\nIf it was not you, ignore this mail: nothing will be sent.\n`,
      html: `<p>Someone, probably you, asked to get new articles of ${escapeHtml(title)} by email.</p><p><a href="${escapeHtml(link)}">Open this link and press Confirm</a> to subscribe.</p><p>If it was not you, ignore this mail: nothing will be sent.</p>`,
    });
  };

  /**
   * An anonymous subscription: 'limited' when the IP asked too often, 'invalid' for a bad
   * address, else 'accepted' whatever the address's state (the mail, when one is due, goes in
   * the background, so the answer's time says nothing either).
   */
  const subscribe = async (rawEmail: unknown, ip: string): Promise<'accepted' | 'invalid' | 'limited'> => {
    const parsed = emailSchema.safeParse(rawEmail);
    if (!parsed.success) return 'invalid';
    if (!(await deps.rateLimiter.consume(ipRule, ip)).allowed) return 'limited';
    const email = parsed.data;
    void (async () => {
      const token = await subscribers.request(email);
      if (token === undefined) return;
      if (!(await deps.rateLimiter.consume(addressRule, email)).allowed) return;
      await mailConfirmation(email, token);
    })().catch(() => undefined);
    return 'accepted';
  };

  const htmlReply = (reply: FastifyReply, status: number, title: string, inner: string) =>
    reply
      .code(status)
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .type('text/html; charset=utf-8')
      .send(page(deps.site.title, title, inner));

  const api: FastifyPluginAsync = async (app) => {
    app.post<{ Body: { email?: unknown } | null }>('/subscribers', async (request, reply) => {
      if (!deps.enabled) return sendProblem(reply, 404, 'This site has no newsletter.');
      const outcome = await subscribe(request.body?.email, request.ip);
      if (outcome === 'invalid') {
        return sendProblem(reply, 400, 'Enter a valid email address.', [
          { field: 'email', message: 'Enter a valid email address.' },
        ]);
      }
      if (outcome === 'limited') return sendProblem(reply, 429, 'Too many subscriptions from here. Try again later.');
      return reply
        .code(202)
        .header('cache-control', 'no-store')
        .send({ message: 'Check your inbox: if the address can subscribe, a confirmation link is on its way.' });
    });
    app.post<{ Body: { token?: unknown } | null }>('/subscribers/confirm', async (request, reply) => {
      if (!deps.enabled) return sendProblem(reply, 404, 'This site has no newsletter.');
      if (!(await subscribers.confirm(request.body?.token))) {
        return sendProblem(reply, 400, 'This confirmation link is not valid or has expired. Subscribe again.');
      }
      return reply.header('cache-control', 'no-store').send({ subscribed: true });
    });
    // The signed-in reader's one click (a verified address, no mail).
    app.get('/subscribers/me', signedIn, async (request, reply) => {
      const account = await deps.accountAddress(callerOf(request).uid);
      const subscribed = account ? await subscribers.isSubscribed(account.email.toLowerCase()) : false;
      return reply.header('cache-control', 'no-store').send({ enabled: deps.enabled, subscribed });
    });
    app.put('/subscribers/me', signedIn, async (request, reply) => {
      if (!deps.enabled) return sendProblem(reply, 404, 'This site has no newsletter.');
      const { uid } = callerOf(request);
      const account = await deps.accountAddress(uid);
      if (!account?.verified) {
        return sendProblem(reply, 403, 'Verify your email address first: the newsletter goes to it.');
      }
      await subscribers.subscribeAccount(uid, account.email.toLowerCase());
      return reply.header('cache-control', 'no-store').send({ enabled: true, subscribed: true });
    });
    app.delete('/subscribers/me', signedIn, async (request, reply) => {
      const account = await deps.accountAddress(callerOf(request).uid);
      if (account) await subscribers.removeByEmail(account.email.toLowerCase());
      return reply.header('cache-control', 'no-store').send({ enabled: deps.enabled, subscribed: false });
    });
    // Staff: editors see, search and remove subscribers, and the sends' progress.
    app.get<{ Querystring: { q?: unknown; cursor?: unknown } }>(
      '/subscribers',
      requires('subscribers:manage', 'Only editors may see the subscribers.'),
      async (request, reply) => {
        const q = typeof request.query.q === 'string' ? request.query.q.trim().slice(0, 254) : '';
        const { cursor } = request.query;
        const after = typeof cursor === 'string' ? decodeSubscriberCursor(cursor) : undefined;
        if (cursor !== undefined && after === undefined) return sendProblem(reply, 400, 'The cursor is not valid.');
        const pageOf = await subscribers.page(q, after);
        return reply
          .header('cache-control', 'no-store')
          .send({ ...pageOf, confirmed: await subscribers.countReached() });
      },
    );
    app.delete<{ Params: { id: string } }>(
      '/subscribers/:id',
      requires('subscribers:manage', 'Only editors may remove subscribers.'),
      async (request, reply) => {
        if (!(await subscribers.remove(request.params.id)))
          return sendProblem(reply, 404, 'There is no such subscriber.');
        return reply.code(204).send();
      },
    );
    app.get(
      '/newsletters',
      requires('subscribers:manage', 'Only editors may see the newsletters.'),
      async (_request, reply) => {
        return reply
          .header('cache-control', 'no-store')
          .send({ enabled: deps.enabled, subscribers: await subscribers.countReached(), sends: await sends.list() });
      },
    );
    // What the editor's "Email to N subscribers" says, for anyone who may publish.
    app.get('/newsletters/audience', requires('article:publish', 'Only authors publish.'), async (_request, reply) => {
      return reply
        .header('cache-control', 'no-store')
        .send({ enabled: deps.enabled, subscribers: deps.enabled ? await subscribers.countReached() : 0 });
    });
  };

  // The forms of the home page, the article's end and the footer, and the confirmation page:
  // plain HTML form posts answered with a page, so they work without script.
  const forms: FastifyPluginAsync = async (app) => {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    app.post<{ Body: Record<string, string> | null }>('/subscribe', async (request, reply) => {
      if (!deps.enabled) return htmlReply(reply, 404, 'No newsletter here', '<p>This site sends no newsletter.</p>');
      const outcome = await subscribe(request.body?.email, request.ip);
      if (outcome === 'invalid') {
        return htmlReply(
          reply,
          400,
          'That address does not look right',
          `<form method="post" action="/subscribe"><p><label for="email">Email</label> <input id="email" name="email" type="email" required autocomplete="email"></p><p><button type="submit">Subscribe</button></p></form>`,
        );
      }
      if (outcome === 'limited') {
        return htmlReply(
          reply,
          429,
          'Too many subscriptions',
          '<p>Too many subscriptions came from here. Try again later.</p>',
        );
      }
      return htmlReply(
        reply,
        202,
        'Check your inbox',
        '<p>If the address can subscribe, a confirmation link is on its way. Open it and press Confirm: nothing is sent before.</p>',
      );
    });
    app.get<{ Querystring: { token?: unknown } }>('/subscribe/confirm', async (request, reply) => {
      const token = typeof request.query.token === 'string' ? request.query.token : '';
      // A GET confirms nothing: mail scanners follow links.
      return htmlReply(
        reply,
        200,
        'Confirm your subscription',
        `<p>Get each new article of ${escapeHtml(deps.site.title)} by email?</p><form method="post" action="/subscribe/confirm"><input type="hidden" name="token" value="${escapeHtml(token)}"><button type="submit">Confirm</button></form>`,
      );
    });
    app.post<{ Body: Record<string, string> | null }>('/subscribe/confirm', async (request, reply) => {
      if (!deps.enabled || !(await subscribers.confirm(request.body?.token))) {
        return htmlReply(
          reply,
          400,
          'This link is not valid',
          '<p>This confirmation link is not valid or has expired. Subscribe again to get a new one.</p>',
        );
      }
      return htmlReply(
        reply,
        200,
        'You are subscribed',
        `<p>Each new article of ${escapeHtml(deps.site.title)} will come to your inbox. Every mail has a link to unsubscribe.</p>`,
      );
    });
  };

  return {
    /**
     * The footer's subscribe form, written into every page's shell after the app's root (see
     * webPlugin's bodyEnd): a plain form post, so it costs the pages' script budgets nothing and
     * works without script. Undefined when the site has no newsletter.
     */
    footerForm: deps.enabled
      ? '<aside aria-label="Newsletter" class="mx-auto max-w-5xl px-4 pb-8 text-sm text-slate-600 sm:px-6 dark:text-slate-400">' +
        '<form method="post" action="/subscribe" class="max-w-sm"><label for="subscribe-footer" class="font-semibold">Get new articles by email</label>' +
        '<div class="mt-2 flex gap-2"><input id="subscribe-footer" name="email" type="email" required autocomplete="email" class="min-w-0 flex-1 rounded-md border px-3 dark:bg-slate-900">' +
        '<button class="pill-primary">Subscribe</button></div></form></aside>'
      : undefined,
    subscribers,
    sends,
    apiRoutes: api,
    formRoutes: forms,
    /** In the first publication's transaction (articles.onFirstPublished). */
    async onFirstPublished(
      article: { id: string; title: string; newsletter: boolean },
      trx: Transaction<DatabaseSchema>,
    ): Promise<void> {
      if (!deps.enabled || !article.newsletter) return;
      await sends.create(article, trx);
      // After the commit (the claim must see the rows); the poll would find them within a second anyway.
      setTimeout(() => sender?.kick(), 20).unref();
    },
    /** Runs the outbox's worker in this process (the server; not the admin command). */
    startSending(log: MailerLog): () => Promise<void> {
      if (!deps.enabled) return async () => {};
      sender = createSender({
        database: deps.database,
        sends,
        unsubscribe: deps.unsubscribe,
        mailer: deps.newsletterMailer,
        rateLimiter: deps.rateLimiter,
        site: deps.site,
        // Getters: the site's name is read at each send (a setting, decision 0840).
        get from() {
          return newsletterFrom(deps.mailFrom, deps.site.title);
        },
        get listId() {
          return `${deps.site.title.replace(/[^\x20-\x7e]|["<>\\]/g, '').trim() || 'Newsletter'} <newsletter.${host}>`;
        },
        poolSize: deps.poolSize,
        ratePerSecond: deps.ratePerSecond,
        findArticle: deps.findArticle,
        log,
        now,
      });
      sender.start();
      const running = sender;
      return () => running.stop();
    },
  };
}

export type Newsletters = ReturnType<typeof createNewsletters>;
