import {
  createExponentialBackoffPolicy,
  createFederation,
  getAuthenticatedDocumentLoader,
  kvCache,
  type Context,
  type generateCryptoKeyPair,
  type Federation,
  type KvStore,
  type MessageQueue,
} from '@fedify/fedify';
import {
  Accept,
  Announce,
  Article,
  Create,
  Delete,
  Endpoints,
  Follow,
  Hashtag,
  Image,
  Like,
  Note,
  PUBLIC_COLLECTION,
  Service,
  Tombstone,
  Undo,
  Update,
  isActor,
  type Actor,
} from '@fedify/vocab';
import { Temporal } from '@js-temporal/polyfill';
import type { ArticleDetail } from '../../shared/articleSchema.ts';
import { tagSlug } from '../../shared/tags.ts';
import { domainOf } from './domainOf.ts';
import type { FederationStore } from './federationStore.ts';
import { remoteHtmlToText } from './remoteText.ts';
import { REMOTE_FETCH_TIMEOUT_MS, safeDocumentLoader } from './remoteDocuments.ts';

/** What the fediverse side needs of the rest of Inkwell (createFederation passes it in). */

/** The published articles federation shows (the articles feature's reader). */
export interface PublishedArticles {
  /** A published article, else undefined. */
  findArticle(id: string): Promise<ArticleDetail | undefined>;
  newestArticles(limit: number): Promise<ArticleDetail[]>;
  countArticles(): Promise<number>;
}

/** What federation asks of the comments feature for fediverse replies. */
export interface RemoteComments {
  createRemote(input: {
    articleId: string;
    objectId: string;
    author: { id: string; name: string; url: string | null; photoUrl: string | null };
    text: string;
  }): Promise<unknown>;
  editRemote(objectId: string, actorId: string, text: string): Promise<unknown>;
  removeRemote(objectId: string, actorId: string): Promise<unknown>;
}

export interface FedifyDeps extends PublishedArticles {
  kv: KvStore;
  queue: MessageQueue;
  publicUrl: string;
  handle: string;
  site: { title: string; description: string };
  /** Tests only: remote servers on loopback (never in production: decision 0700). */
  allowPrivateAddress: boolean;
  store: FederationStore;
  keys: () => Promise<CryptoKeyPairLike[]>;
  comments: RemoteComments;
  /** A remote actor's Delete of itself: its follow, reactions and comments. */
  forgetActor(actorId: string): Promise<void>;
  /** Followers dropped: a 410 for them, or deliveries failing for 7 days. */
  dropFollowers(actorIds: readonly string[], inbox: string): Promise<void>;
  log: { warn(object: object, message: string): void; info(object: object, message: string): void };
}

export type CryptoKeyPairLike = Awaited<ReturnType<typeof generateCryptoKeyPair>>;

/** The polyfill's instant (what Fedify uses at run time) as the type Fedify's declarations name. */
const instant = (text?: string) =>
  (text === undefined ? Temporal.Now.instant() : Temporal.Instant.from(text)) as unknown as globalThis.Temporal.Instant;

const FOLLOWERS_PAGE = 100;
const USER_AGENT = 'Inkwell (+ActivityPub)';

/**
 * Fedify's federation for the blog's one actor (DESIGN.md §9.4): discovery, the actor and its
 * collections, articles as `Article` objects, and the inbox's listeners. Signatures, JSON-LD,
 * WebFinger, NodeInfo, retries and shared-inbox fan-out are Fedify's (decision 0700).
 */
export function setUpFedify(deps: FedifyDeps): Federation<void> {
  const { store, handle } = deps;
  const federation = createFederation<void>({
    kv: deps.kv,
    queue: deps.queue,
    manuallyStartQueue: true,
    origin: deps.publicUrl,
    // Keep retrying past 7 days, when the follower is dropped instead (createFederation's queue).
    outboxRetryPolicy: createExponentialBackoffPolicy({ maxAttempts: 100, maxDelay: { hours: 12 } }),
    permanentFailureStatusCodes: [410],
    ...(deps.allowPrivateAddress
      ? { allowPrivateAddress: true, userAgent: USER_AGENT }
      : {
          documentLoaderFactory: () => kvCache({ loader: safeDocumentLoader(USER_AGENT), kv: deps.kv }),
          contextLoaderFactory: () => safeDocumentLoader(USER_AGENT),
          authenticatedDocumentLoaderFactory: (identity) => {
            const loader = getAuthenticatedDocumentLoader(identity, { userAgent: USER_AGENT });
            return (url, options) =>
              loader(url, {
                signal: AbortSignal.any([
                  AbortSignal.timeout(REMOTE_FETCH_TIMEOUT_MS),
                  ...(options?.signal ? [options.signal] : []),
                ]),
              });
          },
        }),
  });

  const articleUrl = (id: string) => new URL(`/article/${encodeURIComponent(id)}`, deps.publicUrl);
  const actorUri = (ctx: Context<void>) => ctx.getActorUri(handle);

  const articleObject = (ctx: Context<void>, article: ArticleDetail) => articleAsObject(ctx, article, deps);

  federation
    .setActorDispatcher('/ap/actor/{identifier}', async (ctx, identifier) => {
      if (identifier !== handle) return null;
      const keys = await ctx.getActorKeyPairs(identifier);
      return new Service({
        id: ctx.getActorUri(identifier),
        preferredUsername: identifier,
        name: deps.site.title,
        summary: deps.site.description,
        url: new URL(deps.publicUrl),
        inbox: ctx.getInboxUri(identifier),
        outbox: ctx.getOutboxUri(identifier),
        followers: ctx.getFollowersUri(identifier),
        following: ctx.getFollowingUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        manuallyApprovesFollowers: false,
        discoverable: true,
        publicKey: keys[0]?.cryptographicKey ?? null,
        assertionMethods: keys.map((key) => key.multikey),
      });
    })
    .setKeyPairsDispatcher(async (_ctx, identifier) => (identifier === handle ? deps.keys() : []));

  federation
    .setFollowersDispatcher('/ap/actor/{identifier}/followers', async (_ctx, identifier, cursor) => {
      if (identifier !== handle) return null;
      const recipient = (follower: Awaited<ReturnType<FederationStore['followers']>>[number]) => ({
        id: new URL(follower.actorId),
        inboxId: new URL(follower.inbox),
        endpoints: follower.sharedInbox ? { sharedInbox: new URL(follower.sharedInbox) } : null,
      });
      // No cursor: the whole collection (what a delivery to the followers walks); else one page.
      if (cursor === null) {
        const all = [];
        let after: { at: number; id: string } | undefined;
        for (;;) {
          const page = await store.followers(1000, after);
          all.push(...page.map(recipient));
          const last = page.at(-1);
          if (page.length < 1000 || !last) break;
          after = { at: last.createdAt, id: last.actorId };
        }
        return { items: all };
      }
      const after = decodeCursor(cursor);
      if (cursor !== '' && !after) return null;
      const page = await store.followers(FOLLOWERS_PAGE, after);
      const last = page.at(-1);
      return {
        items: page.map(recipient),
        nextCursor: page.length === FOLLOWERS_PAGE && last ? encodeCursor(last.createdAt, last.actorId) : null,
      };
    })
    .setFirstCursor(() => '')
    .setCounter((_ctx, identifier) => (identifier === handle ? store.countFollowers() : null));

  federation
    .setFollowingDispatcher('/ap/actor/{identifier}/following', (_ctx, identifier) =>
      identifier === handle ? { items: [] } : null,
    )
    .setCounter(() => 0);

  federation
    .setOutboxDispatcher('/ap/actor/{identifier}/outbox', async (ctx, identifier) => {
      if (identifier !== handle) return null;
      const articles = await deps.newestArticles(20);
      return {
        items: articles.map(
          (article) =>
            new Create({
              id: new URL(`${articleUrl(article.id).href}#create`),
              actor: actorUri(ctx),
              object: articleObject(ctx, article),
              to: PUBLIC_COLLECTION,
              cc: ctx.getFollowersUri(handle),
              published: instant(article.date),
            }),
        ),
      };
    })
    .setCounter((_ctx, identifier) => (identifier === handle ? deps.countArticles() : null));

  // Articles on their own URLs (content negotiation): only while published.
  federation.setObjectDispatcher(Article, '/article/{id}', async (ctx, values) => {
    const article = await deps.findArticle(values.id);
    return article ? articleObject(ctx, article) : null;
  });

  federation.setNodeInfoDispatcher('/nodeinfo/2.1', async () => ({
    software: { name: 'inkwell', version: '0.1.0' },
    protocols: ['activitypub'],
    openRegistrations: false,
    usage: { users: { total: 1 }, localPosts: await deps.countArticles(), localComments: 0 },
  }));

  /** The local article an object id names (an `Article` URL of this site), else undefined. */
  const localArticleId = (ctx: Context<void>, id: URL | null): string | undefined => {
    if (!id) return undefined;
    const parsed = ctx.parseUri(id);
    return parsed?.type === 'object' && parsed.class === Article ? parsed.values.id : undefined;
  };

  /** The sender, unless it (or its server) is blocked. */
  const allowed = async (actorId: URL | null): Promise<URL | undefined> => {
    if (!actorId) return undefined;
    return (await store.isBlocked(actorId.href, domainOf(actorId))) ? undefined : actorId;
  };

  federation
    .setInboxListeners('/ap/actor/{identifier}/inbox', '/ap/inbox')
    .setSharedKeyDispatcher(() => ({ identifier: handle }))
    .on(Follow, async (ctx, follow) => {
      const actorId = await allowed(follow.actorId);
      if (!actorId || !follow.id || follow.objectId?.href !== actorUri(ctx).href) return;
      const follower = await follow.getActor(ctx);
      if (!follower || !isActor(follower) || follower.id?.href !== actorId.href || !follower.inboxId) return;
      await store.addFollower({
        actorId: actorId.href,
        handle: `@${follower.preferredUsername?.toString() ?? 'unknown'}@${actorId.host}`,
        domain: domainOf(actorId),
        inbox: follower.inboxId.href,
        sharedInbox: follower.endpoints?.sharedInbox?.href ?? null,
        followId: follow.id.href,
      });
      await ctx.sendActivity(
        { identifier: handle },
        follower,
        new Accept({
          id: new URL(`#accepts/${crypto.randomUUID()}`, actorUri(ctx)),
          actor: actorUri(ctx),
          object: follow,
        }),
      );
    })
    .on(Undo, async (ctx, undo) => {
      const actorId = await allowed(undo.actorId);
      if (!actorId) return;
      const object = await undo.getObject(ctx);
      if (object instanceof Follow) {
        if (object.actorId?.href === actorId.href) await store.removeFollower(actorId.href);
      } else if ((object instanceof Like || object instanceof Announce) && object.id) {
        await store.unreact(object.id.href, actorId.href);
      }
    })
    .on(Like, async (ctx, like) => react(ctx, like, 'like'))
    .on(Announce, async (ctx, announce) => react(ctx, announce, 'announce'))
    .on(Create, async (ctx, create) => {
      const actorId = await allowed(create.actorId);
      if (!actorId) return;
      const note = await create.getObject(ctx);
      if (!(note instanceof Note) || !note.id || note.id.origin !== actorId.origin) return;
      if (note.attributionId && note.attributionId.href !== actorId.href) return;
      const articleId = localArticleId(ctx, note.replyTargetId);
      if (!articleId) return;
      const author = await create.getActor(ctx);
      if (!author || author.id?.href !== actorId.href) return;
      await deps.comments.createRemote({
        articleId,
        objectId: note.id.href,
        author: await authorOf(author, actorId),
        text: remoteHtmlToText(note.content?.toString() ?? ''),
      });
    })
    .on(Update, async (ctx, update) => {
      const actorId = await allowed(update.actorId);
      if (!actorId) return;
      const note = await update.getObject(ctx);
      if (!(note instanceof Note) || !note.id || note.id.origin !== actorId.origin) return;
      await deps.comments.editRemote(note.id.href, actorId.href, remoteHtmlToText(note.content?.toString() ?? ''));
    })
    .on(Delete, async (_ctx, del) => {
      const actorId = del.actorId;
      const objectId = del.objectId;
      if (!actorId || !objectId) return;
      // An actor deleting itself: its follow, likes, reposts and replies go.
      if (objectId.href === actorId.href) return deps.forgetActor(actorId.href);
      if (objectId.origin !== actorId.origin) return;
      await deps.comments.removeRemote(objectId.href, actorId.href);
    })
    .onError((_ctx, error) => deps.log.warn({ err: error }, 'a federation inbox activity failed'));

  const react = async (ctx: Context<void>, activity: Like | Announce, kind: 'like' | 'announce') => {
    const actorId = await allowed(activity.actorId);
    if (!actorId || !activity.id) return;
    const articleId = localArticleId(ctx, activity.objectId);
    if (!articleId || !(await deps.findArticle(articleId))) return;
    await store.react({
      activityId: activity.id.href,
      articleId,
      actorId: actorId.href,
      domain: domainOf(actorId),
      kind,
    });
  };

  federation.setOutboxPermanentFailureHandler(async (_ctx, values) => {
    await deps.dropFollowers(
      values.actorIds.map((id) => id.href),
      values.inbox.href,
    );
  });

  return federation;
}

/** A remote author as a comment shows it: name, profile page and picture. */
async function authorOf(actor: Actor, actorId: URL) {
  const icon = await actor.getIcon().catch(() => null);
  const iconUrl = icon?.url instanceof URL ? icon.url.href : (icon?.url?.href?.href ?? null);
  const profile = actor.url instanceof URL ? actor.url.href : (actor.url?.href?.href ?? actorId.href);
  const name = actor.name?.toString() || actor.preferredUsername?.toString() || actorId.host;
  return {
    id: actorId.href,
    name: [...name].slice(0, 100).join(''),
    url: isWebUrl(profile) ? profile : null,
    photoUrl: iconUrl && isWebUrl(iconUrl) ? iconUrl : null,
  };
}

const isWebUrl = (text: string) => /^https?:\/\//i.test(text);

/** An article as the `Article` object servers fetch and followers receive. */
export function articleAsObject(
  ctx: Context<void>,
  article: ArticleDetail,
  deps: Pick<FedifyDeps, 'publicUrl' | 'handle'>,
) {
  const url = new URL(`/article/${encodeURIComponent(article.id)}`, deps.publicUrl);
  return new Article({
    id: url,
    name: article.title,
    content: article.descriptionHtml,
    summary: article.excerpt,
    url,
    published: instant(article.date),
    updated: instant(),
    attribution: ctx.getActorUri(deps.handle),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(deps.handle),
    image: new Image({ url: new URL(article.image) }),
    tags: article.tags.map(
      (tag) => new Hashtag({ name: `#${tag}`, href: new URL(`/tag/${tagSlug(tag)}`, deps.publicUrl) }),
    ),
  });
}

/** Articles as activities (createFederation's deliveries). */
export function articleActivities(federation: Federation<void>, deps: Pick<FedifyDeps, 'publicUrl' | 'handle'>) {
  const ctx = () => federation.createContext(new URL(deps.publicUrl));
  const articleUrl = (id: string) => new URL(`/article/${encodeURIComponent(id)}`, deps.publicUrl);
  return {
    ctx,
    /** Create on first publication, Update on an edit (each with an id of its own). */
    async send(verb: 'create' | 'update', article: ArticleDetail): Promise<void> {
      const context = ctx();
      const object = articleAsObject(context, article, deps);
      const Activity = verb === 'create' ? Create : Update;
      const activity = new Activity({
        id: new URL(`${articleUrl(article.id).href}#${verb}-${Date.now()}`),
        actor: context.getActorUri(deps.handle),
        object,
        to: PUBLIC_COLLECTION,
        cc: context.getFollowersUri(deps.handle),
        published: instant(),
      });
      await context.sendActivity({ identifier: deps.handle }, 'followers', activity, { preferSharedInbox: true });
    },
    /** Delete of a Tombstone: unpublished, hidden or deleted. */
    async sendDelete(articleId: string): Promise<void> {
      const context = ctx();
      await context.sendActivity(
        { identifier: deps.handle },
        'followers',
        new Delete({
          id: new URL(`${articleUrl(articleId).href}#delete-${Date.now()}`),
          actor: context.getActorUri(deps.handle),
          object: new Tombstone({ id: articleUrl(articleId) }),
          to: PUBLIC_COLLECTION,
          cc: context.getFollowersUri(deps.handle),
        }),
        { preferSharedInbox: true },
      );
    },
  };
}

function encodeCursor(at: number, id: string): string {
  return Buffer.from(JSON.stringify([at, id])).toString('base64url');
}

function decodeCursor(cursor: string): { at: number; id: string } | undefined {
  if (cursor === '') return undefined;
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && typeof value[0] === 'number' && typeof value[1] === 'string') {
      return { at: value[0], id: value[1] };
    }
  } catch {
    // not one of ours
  }
  return undefined;
}
