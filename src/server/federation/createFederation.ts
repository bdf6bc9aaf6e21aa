import type { Federation as FedifyFederation } from '@fedify/fedify';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { ArticleStatus } from '../../shared/articleSchema.ts';
import type { Database } from '../db/database.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import type { RateLimiter } from '../rateLimit/rateLimiter.ts';
import { federationAdminRoutes, type FederationEvent } from './federationAdminRoutes.ts';
import { registerFederationRequests } from './federationRequests.ts';
import { createFederationStore } from './federationStore.ts';
import { domainOf } from './domainOf.ts';
// Types only: the module itself is imported when federation is on (load below).
import type { articleActivities as ArticleActivities, PublishedArticles, RemoteComments } from './fedifySetup.ts';
import { kyselyKvStore, sweepExpiredKv } from './kyselyKvStore.ts';
import { kyselyMessageQueue } from './kyselyMessageQueue.ts';

export interface FederationLog {
  warn(object: object, message: string): void;
  info(object: object, message: string): void;
}

/** An article's status before and after a write (null: it did not exist, or no longer does). */
export interface ArticleChange {
  id: string;
  before: ArticleStatus | null;
  after: ArticleStatus | null;
  /** Its fields were written (an edit). */
  edited: boolean;
}

export interface FederationDeps extends PublishedArticles {
  database: Database;
  enabled: boolean;
  handle: string;
  publicUrl: string;
  site: { title: string; description: string };
  /** Tests only: remote servers on loopback. Never from configuration (decision 0700). */
  allowPrivateAddress?: boolean | undefined;
  /** Activities one remote server may POST to the inbox per minute; then 429. */
  inboxPerServerPerMinute?: number | undefined;
  rateLimiter: RateLimiter;
  clock?: (() => number) | undefined;
  comments: RemoteComments & {
    removeByRemoteAuthor(trx: Transaction<DatabaseSchema>, actorId: string): Promise<void>;
    removeByRemoteDomain(trx: Transaction<DatabaseSchema>, domain: string): Promise<void>;
  };
  recordEvent(trx: Kysely<DatabaseSchema>, event: FederationEvent): Promise<void>;
}

/** Inkwell's own queued work, beside Fedify's messages in the same queue. */
interface ArticleMessage {
  inkwell: 'article';
  id: string;
  verb: 'create' | 'update' | 'delete';
}
const isArticleMessage = (message: unknown): message is ArticleMessage =>
  typeof message === 'object' && message !== null && (message as { inkwell?: unknown }).inkwell === 'article';

const SEVEN_DAYS_MS = 7 * 24 * 60 * 60 * 1000;

type Loaded = {
  federation: FedifyFederation<void>;
  activities: ReturnType<typeof ArticleActivities>;
};

/** What a change of an article tells its followers: nothing, a Create, an Update or a Delete. */
export function deliveryFor(change: ArticleChange): ArticleMessage['verb'] | undefined {
  const was = change.before === 'published';
  const is = change.after === 'published';
  if (!was && is) return 'create';
  if (was && is) return change.edited ? 'update' : undefined;
  if (was && !is) return 'delete';
  return undefined;
}

/**
 * Following from the fediverse (DESIGN.md §9.4, decision 0700): the blog as one ActivityPub
 * actor built on Fedify. Off (FEDERATION=off): nothing routed, nothing queued, no worker.
 */
export function createFederation(deps: FederationDeps) {
  const now = deps.clock ?? Date.now;
  const host = new URL(deps.publicUrl).host;
  const handle = `@${deps.handle}@${host}`;
  const store = createFederationStore(deps.database, now);
  if (!deps.enabled) {
    return {
      enabled: false as const,
      handle,
      register: async (_app: FastifyInstance) => {},
      // Off: /api/federation/* is the /api scope's 404 like any other unknown path.
      apiRoutes: (async () => {}) satisfies FastifyPluginAsync,
      onArticleChanged: async (_change: ArticleChange, _trx: Transaction<DatabaseSchema>) => {},
      startWorker: (_log: FederationLog) => async () => {},
      followLine: undefined,
      reactionCounts: async (_articleId: string) => undefined,
      store,
    };
  }

  let log: FederationLog = { warn: () => {}, info: () => {} };
  const queue = kyselyMessageQueue(deps.database, { log: { warn: (object, message) => log.warn(object, message) } });
  const dropFollowers = async (actorIds: readonly string[], inbox: string) => {
    const dropped = actorIds.length > 0 ? await store.removeFollowers(actorIds) : await store.removeFollowersAt(inbox);
    log.info({ dropped, inboxHost: domainOf(inbox) }, 'fediverse followers dropped');
  };
  const forgetActor = (actorId: string) =>
    deps.database.db.transaction().execute(async (trx) => {
      await store.removeActor(trx, actorId);
      await deps.comments.removeByRemoteAuthor(trx, actorId);
    });

  // Fedify's messages pass through to it; ours (an article to deliver) and deliveries failing
  // for 7 days are handled here.
  const fedifyQueue = {
    enqueue: queue.enqueue,
    enqueueMany: queue.enqueueMany,
    listen: (handler: (message: unknown) => Promise<void> | void, options?: { signal?: AbortSignal }) =>
      queue.listen(async (message) => {
        if (isArticleMessage(message)) return deliverArticle(message);
        const outbox = message as { type?: string; started?: string; inbox?: string; actorIds?: string[] };
        if (outbox.type === 'outbox' && outbox.started && outbox.inbox) {
          if (Date.now() - Date.parse(outbox.started) >= SEVEN_DAYS_MS)
            return dropFollowers(outbox.actorIds ?? [], outbox.inbox);
        }
        return handler(message);
      }, options),
  };
  // Fedify is loaded only when federation is on (66 MB and seconds of start-up otherwise spent).
  let loading: Promise<Loaded> | undefined;
  const load = () =>
    (loading ??= (async () => {
      const { articleActivities, setUpFedify } = await import('./fedifySetup.ts');
      const { actorKeys } = await import('./actorKeys.ts');
      const federation = setUpFedify({
        kv: kyselyKvStore(deps.database),
        queue: fedifyQueue,
        publicUrl: deps.publicUrl,
        handle: deps.handle,
        site: deps.site,
        allowPrivateAddress: deps.allowPrivateAddress === true,
        store,
        keys: actorKeys(deps.database, now),
        findArticle: deps.findArticle,
        newestArticles: deps.newestArticles,
        countArticles: deps.countArticles,
        comments: deps.comments,
        forgetActor,
        dropFollowers,
        log: {
          warn: (object, message) => log.warn(object, message),
          info: (object, message) => log.info(object, message),
        },
      });
      return {
        federation,
        activities: articleActivities(federation, { publicUrl: deps.publicUrl, handle: deps.handle }),
      };
    })());

  async function deliverArticle(message: ArticleMessage): Promise<void> {
    const { activities } = await load();
    if (message.verb === 'delete') return activities.sendDelete(message.id);
    const article = await deps.findArticle(message.id);
    // Unpublished again before its turn: the Delete that follows says so.
    if (article) await activities.send(message.verb, article);
  }

  return {
    enabled: true as const,
    handle,
    store,
    /** Staff's API (followers, blocks), for the `/api` scope's features. */
    apiRoutes: federationAdminRoutes({
      database: deps.database,
      store,
      handle,
      recordEvent: deps.recordEvent,
      comments: deps.comments,
    }),
    /** The fediverse's routes: discovery, actor, inbox, articles by content negotiation. */
    async register(app: FastifyInstance) {
      const { federation } = await load();
      registerFederationRequests(app, {
        federation,
        publicUrl: deps.publicUrl,
        store,
        rateLimiter: deps.rateLimiter,
        inboxPerServerPerMinute: deps.inboxPerServerPerMinute ?? 600,
      });
    },
    /** In the transaction of every article write: the delivery it calls for, queued with it. */
    async onArticleChanged(change: ArticleChange, trx: Transaction<DatabaseSchema>): Promise<void> {
      const verb = deliveryFor(change);
      if (!verb) return;
      await queue.enqueueIn(trx, { inkwell: 'article', id: change.id, verb } satisfies ArticleMessage);
      // After the commit; the poll would find it within a second anyway.
      setTimeout(() => queue.kick(), 20).unref();
    },
    /** Runs the queue's worker in this process (the server; not the admin command). */
    startWorker(workerLog: FederationLog): () => Promise<void> {
      log = workerLog;
      const controller = new AbortController();
      const running = load().then(({ federation }) => federation.startQueue(undefined, { signal: controller.signal }));
      const sweep = setInterval(
        () => {
          sweepExpiredKv(deps.database, Date.now()).catch((error: unknown) =>
            log.warn({ err: error }, 'federation kv sweep failed'),
          );
        },
        60 * 60 * 1000,
      );
      sweep.unref();
      return async () => {
        clearInterval(sweep);
        controller.abort();
        await running;
      };
    },
    /** Written into every page's shell by the server (no script): the footer's line. */
    followLine:
      '<aside aria-label="Fediverse" class="mx-auto max-w-5xl px-4 pb-8 text-sm text-slate-600 sm:px-6 dark:text-slate-400">' +
      `<p class="select-all">Follow ${escapeHtml(handle)}</p></aside>`,
    /** Likes and reposts of an article from the fediverse. */
    reactionCounts: (articleId: string) => store.reactionCounts(articleId),
  };
}

export type Federation = ReturnType<typeof createFederation>;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
