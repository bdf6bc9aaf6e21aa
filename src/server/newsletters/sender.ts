import type { ArticleDetail } from '../../shared/articleSchema.ts';
import type { Database } from '../db/database.ts';
import { MailDeliveryError, type Mailer, type MailerLog } from '../mail/mailer.ts';
import type { RateLimiter } from '../rateLimit/rateLimiter.ts';
import type { Unsubscribe } from '../unsubscribe/createUnsubscribe.ts';
import { prepareNewsletter, type NewsletterSite, type PreparedNewsletter } from './newsletterMail.ts';
import type { ClaimedDelivery, Sends } from './sends.ts';
import { NEWSLETTER_LIST } from './subscribers.ts';

/** How long a claim is this process's alone; a killed process's claims are taken again after it. */
export const LEASE_MS = 30_000;
/** How often an idle process looks for due messages (a send made elsewhere, a retry come due). */
export const POLL_MS = 1_000;
/** Temporary failures (4xx, network) are retried this many times in all, with back-off. */
export const MAX_ATTEMPTS = 8;
/** The first retry's wait; each next one doubles, up to RETRY_MAX_MS. */
export const RETRY_BASE_MS = 60_000;
const RETRY_MAX_MS = 6 * 60 * 60 * 1000;
/** Messages one lane claims at a time (one when a rate limit spaces them out). */
const BATCH = 10;

export interface SenderDeps {
  database: Database;
  sends: Sends;
  unsubscribe: Unsubscribe;
  /** The pooled newsletter mailer (MAIL_POOL_SIZE connections, DKIM when configured). */
  mailer: Mailer;
  rateLimiter: RateLimiter;
  site: NewsletterSite;
  /** `SITE_TITLE <MAIL_FROM's address>` */
  from: string;
  /** List-Id: `SITE_TITLE <newsletter.HOST>` (RFC 2919). */
  listId: string;
  poolSize: number;
  ratePerSecond: number;
  /** The article as its reader sees it now (published only): a send of an article since hidden or deleted sends nothing. */
  findArticle: (id: string) => Promise<ArticleDetail | undefined>;
  log: MailerLog;
  now: () => number;
}

/**
 * The outbox's worker in every server process: lanes (twice MAIL_POOL_SIZE, so the pool never
 * waits on the database) each claim a few due messages, check that the subscriber still wants
 * them (an unsubscribe counts for the next message of a send in flight), and hand them to the
 * pooled mailer. A 5xx refusal marks the subscriber bounced; anything else is retried with
 * back-off. Stops taking new work on stop() and waits for the lanes.
 */
export function createSender(deps: SenderDeps) {
  const lanes = Math.max(1, deps.poolSize * 2);
  const batch = deps.ratePerSecond > 0 ? 1 : BATCH;
  const rateRule = { name: 'newsletter:send', limit: deps.ratePerSecond, windowMs: 1000 };
  const prepared = new Map<string, { at: number; newsletter: PreparedNewsletter | undefined }>();
  let running = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const active = new Set<Promise<void>>();
  const { db } = deps.database;

  const newsletterOf = async (sendId: string): Promise<PreparedNewsletter | undefined> => {
    const cached = prepared.get(sendId);
    if (cached && deps.now() - cached.at < 60_000) return cached.newsletter;
    const articleId = await deps.sends.articleOf(sendId);
    const article = articleId === undefined ? undefined : await deps.findArticle(articleId);
    const newsletter = article && prepareNewsletter(deps.site, article);
    prepared.set(sendId, { at: deps.now(), newsletter });
    return newsletter;
  };

  const waitForRate = async () => {
    if (deps.ratePerSecond <= 0) return;
    for (;;) {
      const decision = await deps.rateLimiter.consume(rateRule, 'all');
      if (decision.allowed) return;
      await new Promise((resolve) => setTimeout(resolve, 1000 - (deps.now() % 1000) + 5));
    }
  };

  async function deliverBatch(claims: ClaimedDelivery[]) {
    const started = deps.now();
    const subscribers = await db
      .selectFrom('newsletter_subscribers')
      .select(['id', 'email', 'status'])
      .where(
        'id',
        'in',
        claims.map((claim) => claim.subscriberId),
      )
      .execute();
    const byId = new Map(subscribers.map((row) => [row.id, row]));
    const optedOut = await deps.unsubscribe.optedOutAmong(
      NEWSLETTER_LIST,
      subscribers.map((row) => row.id),
    );
    const wanted: ClaimedDelivery[] = [];
    for (const claim of claims) {
      const subscriber = byId.get(claim.subscriberId);
      if (subscriber?.status === 'confirmed' && !optedOut.has(claim.subscriberId)) wanted.push(claim);
      else await deps.sends.finish(claim, { status: 'skipped' });
    }
    const links = await deps.unsubscribe.linksFor(
      NEWSLETTER_LIST,
      wanted.map((claim) => claim.subscriberId),
    );
    for (const [index, claim] of wanted.entries()) {
      if (stopped) return; // the lease ends and another process (or this one after restart) takes them
      if (deps.now() - started > LEASE_MS / 2) await deps.sends.extend(wanted.slice(index), LEASE_MS);
      const newsletter = await newsletterOf(claim.sendId);
      if (!newsletter) {
        await deps.sends.finish(claim, { status: 'skipped', error: 'the article is no longer published' });
        continue;
      }
      // Checked again right before its message: an unsubscribe while this batch was sending counts.
      if (!(await deps.unsubscribe.wants(NEWSLETTER_LIST, claim.subscriberId))) {
        await deps.sends.finish(claim, { status: 'skipped' });
        continue;
      }
      const link = links.get(claim.subscriberId)!;
      await waitForRate();
      try {
        await deps.mailer.send({
          from: deps.from,
          to: byId.get(claim.subscriberId)!.email,
          ...newsletter.forRecipient(link.url),
          headers: { ...link.headers, 'List-Id': deps.listId },
        });
        await deps.sends.finish(claim, { status: 'sent' });
      } catch (error) {
        const code = error instanceof MailDeliveryError ? error.responseCode : undefined;
        const reason = error instanceof Error ? error.message.slice(0, 500) : String(error);
        if (code !== undefined && code >= 500) {
          // A permanent refusal: this address gets no more mail until it subscribes again.
          await deps.sends.finish(claim, { status: 'failed', error: reason });
          await db
            .updateTable('newsletter_subscribers')
            .set({ status: 'bounced' })
            .where('id', '=', claim.subscriberId)
            .execute();
        } else if (claim.attempts >= MAX_ATTEMPTS) {
          await deps.sends.finish(claim, { status: 'failed', error: reason });
        } else {
          const wait = Math.min(RETRY_BASE_MS * 2 ** (claim.attempts - 1), RETRY_MAX_MS);
          await deps.sends.finish(claim, { status: 'queued', retryAt: deps.now() + wait, error: reason });
        }
      }
    }
  }

  async function lane() {
    try {
      while (!stopped) {
        const claims = await deps.sends.claim(batch, LEASE_MS);
        if (claims.length === 0) return;
        // Work found: the other lanes join (an idle process polls with one lane only).
        while (running < lanes && !stopped) spawn();
        await deliverBatch(claims);
      }
    } catch (error) {
      deps.log.error({ reason: error instanceof Error ? error.message : String(error) }, 'newsletter lane stopped');
    } finally {
      running -= 1;
    }
  }

  function spawn() {
    running += 1;
    const run = lane();
    active.add(run);
    void run.finally(() => active.delete(run));
  }

  return {
    /** Looks for due messages now (a send was just made) unless lanes are already at work. */
    kick() {
      if (!stopped && running === 0) spawn();
    },
    start() {
      timer = setInterval(() => {
        if (!stopped && running === 0) spawn();
      }, POLL_MS);
      timer.unref();
      if (running === 0) spawn();
    },
    /** Takes no new message; waits for the ones being handed over. */
    async stop() {
      stopped = true;
      clearInterval(timer);
      await Promise.all([...active]);
    },
  };
}

export type Sender = ReturnType<typeof createSender>;
