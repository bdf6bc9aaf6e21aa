import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { messages } from '../../shared/messages.ts';
import { isTagSlug } from '../../shared/tags.ts';
import { paths, type ServedScreenName } from '../../shared/routes.ts';
import type { SiteIdentity } from '../../shared/siteIdentity.ts';
import type { CommentPage } from '../../shared/comments.ts';
import type { ArticleDetail } from '../../shared/articleSchema.ts';
import type { Caller } from '../http/callerAuth.ts';
import { sendJsonResource, toResource, type JsonResource } from '../http/cachedResource.ts';
import type { ArticleReader } from '../articles/createArticles.ts';
import type { Authors } from '../authors/createAuthors.ts';
import type { ScreenPage } from '../web/webPlugin.ts';
import { atomFeed } from './atomFeed.ts';
import { articleHeadTags, authorHeadTags, defaultHeadTags, homeHeadTags, siteShellTags } from './pageHeadTags.ts';
import { robotsTxt } from './robotsTxt.ts';
import {
  SITEMAP_MAX_URLS,
  articleSitemap,
  authorSitemap,
  planSitemap,
  singleSitemap,
  sitemapIndex,
  tagSitemap,
  type SitemapSource,
} from './sitemaps.ts';

export interface Publishing {
  /** /feed.xml, /sitemap.xml, /sitemaps/articles.xml, /sitemaps/authors.xml and /robots.txt; register without a prefix. */
  routes: FastifyPluginAsync;
  /**
   * The pages of the screens the server renders (home, article, author): head tags, 404 for an
   * unknown article or author, 301 from an author's uid or old slug, and the data to render.
   */
  screenPages: Record<Exclude<ServedScreenName, 'search'>, ScreenPage>;
  /** Tags every HTML shell carries (og:site_name, the site identity for the web app), as the site is now. */
  shellTags(): string;
  /** The title and description of a screen with none of its own; `status` 404 names the 404 page. */
  fallbackHead(status: number): string;
}

export interface PublishingDeps {
  reader: ArticleReader;
  /** Origin without a trailing slash (config.publicUrl). */
  publicUrl: string;
  /** SITE_TITLE and SITE_DESCRIPTION. */
  site: SiteIdentity;
  /** URLs per sitemap file; defaults to the protocol's 50,000. */
  sitemapPageSize?: number;
  /** Author pages by slug (decision 0420): whose a path is, and the slugs sitemaps link. */
  authors: Pick<Authors, 'resolve' | 'slugsOf'>;
  /** The article's first page of comments as everyone sees it; undefined when COMMENTS=off. */
  comments?: ((article: ArticleDetail) => Promise<CommentPage | undefined>) | undefined;
  /**
   * Who is loading a page (the viewer cookie, http/viewerCookie.ts), or null: an article that
   * is not published is shown to its author and editors, and is a 404 to anyone else.
   */
  viewer?: (request: FastifyRequest) => Promise<Caller | null>;
  /** How to name the site's first owner while it has none (identity/firstOwner.ts): said on the empty home page. */
  ownerHint?: () => Promise<string | undefined>;
}

export const FEED_SIZE = 50;
const ATOM = 'application/atom+xml; charset=utf-8';
const XML = 'application/xml; charset=utf-8';
// Crawlers may keep these a few minutes: a new article shows up soon enough.
const CRAWL_CACHE = 'public, max-age=300';

/** What the outside world reads without running the app: page metadata, the feed, sitemaps, robots.txt. */
export function createPublishing(deps: PublishingDeps): Publishing {
  const { reader, publicUrl, site } = deps;
  const sitemap: SitemapSource = {
    reader,
    publicUrl,
    pageSize: deps.sitemapPageSize ?? SITEMAP_MAX_URLS,
    authorSlugs: (uids) => deps.authors.slugsOf(uids),
  };
  const notFound = (reply: FastifyReply) => reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
  const xml = (reply: FastifyReply) =>
    reply.header('cache-control', CRAWL_CACHE).type('application/xml; charset=utf-8');

  const routes: FastifyPluginAsync = async (app: FastifyInstance) => {
    app.get('/robots.txt', async (_request, reply) =>
      reply
        .header('cache-control', 'public, max-age=3600')
        .type('text/plain; charset=utf-8')
        .send(robotsTxt(publicUrl)),
    );

    // Kept in the articles' read cache, made again after any change (it was ~90 ms and 3.3 MB
    // of work on every request), and compressed once, off the event loop (http/cachedResource.ts).
    const cachedRead = { compress: false } as const;
    const sendCached = (
      request: FastifyRequest,
      reply: FastifyReply,
      key: string,
      build: () => Promise<JsonResource>,
    ) => reader.cached(key, build).then((resource) => sendJsonResource(request, reply, resource, CRAWL_CACHE));

    app.get('/feed.xml', cachedRead, async (request, reply) =>
      sendCached(request, reply, 'feed', async () =>
        toResource(atomFeed(publicUrl, site, await reader.newest(FEED_SIZE)), ATOM),
      ),
    );

    app.get('/sitemap.xml', cachedRead, async (request, reply) =>
      sendCached(request, reply, 'sitemap', async () => {
        const plan = await planSitemap(sitemap);
        const text = plan.kind === 'single' ? await collect(singleSitemap(sitemap)) : sitemapIndex(publicUrl, plan);
        return toResource(text, XML);
      }),
    );

    // Files past the first are only there past 50,000 URLs: made on request, streamed, and not
    // kept, as their ?after= could be any position a client makes up.
    app.get('/sitemaps/articles.xml', cachedRead, async (request, reply) => {
      const { after } = request.query as { after?: unknown };
      if (after === undefined) {
        return sendCached(request, reply, 'sitemap-articles', async () =>
          toResource(await collect(articleSitemap(sitemap, undefined)), XML),
        );
      }
      if (typeof after !== 'string' || !reader.isCursor(after)) return notFound(reply);
      return xml(reply).send(Readable.from(articleSitemap(sitemap, after)));
    });

    app.get('/sitemaps/tags.xml', cachedRead, async (request, reply) => {
      const { after } = request.query as { after?: unknown };
      if (after === undefined) {
        return sendCached(request, reply, 'sitemap-tags', async () =>
          toResource(await tagSitemap(sitemap, undefined), XML),
        );
      }
      if (typeof after !== 'string' || after === '') return notFound(reply);
      return xml(reply).send(await tagSitemap(sitemap, after));
    });

    // A tag's feed, for tags some published article has: so the cache holds only real tags' feeds.
    app.get<{ Params: { slug: string } }>('/tag/:slug/feed.xml', cachedRead, async (request, reply) => {
      const { slug } = request.params;
      if (!isTagSlug(slug) || (await reader.tagName(slug)) === undefined) return notFound(reply);
      return sendCached(request, reply, `tag-feed:${slug}`, async () => {
        const name = (await reader.tagName(slug)) ?? slug;
        const articles = await reader.newestWithTag(slug, FEED_SIZE);
        return toResource(atomFeed(publicUrl, site, articles, { name, slug }), ATOM);
      });
    });

    app.get('/sitemaps/authors.xml', cachedRead, async (request, reply) => {
      const { after } = request.query as { after?: unknown };
      if (after === undefined) {
        return sendCached(request, reply, 'sitemap-authors', async () =>
          toResource(await authorSitemap(sitemap, undefined), XML),
        );
      }
      if (typeof after !== 'string' || after === '') return notFound(reply);
      return xml(reply).send(await authorSitemap(sitemap, after));
    });
  };

  /**
   * A list page's `?cursor=` (its Load more link, without script, DESIGN.md §9.6): undefined
   * without one, null for one this site did not issue (a 400, as the API answers it).
   */
  function listCursor(request: FastifyRequest): string | undefined | null {
    const { cursor } = request.query as { cursor?: unknown };
    if (cursor === undefined) return undefined;
    return typeof cursor === 'string' && reader.isCursor(cursor) ? cursor : null;
  }

  /**
   * A draft, submitted or hidden article, for its author and editors loading its page: theirs
   * alone (never kept or stored by a cache), without comments (they are for published articles).
   * Anyone else is told what an unknown id tells (decision 0830).
   */
  async function unpublishedArticle(id: string, request: FastifyRequest) {
    const viewer = await deps.viewer?.(request);
    const article = viewer ? await reader.findFor(id, viewer) : undefined;
    if (!article) return { status: 404 };
    return {
      private: true as const,
      head: articleHeadTags(publicUrl, site, article),
      screen: async () => ({ kind: 'article' as const, article }),
    };
  }

  return {
    routes,
    shellTags: () => siteShellTags(site),
    fallbackHead: (status) => defaultHeadTags(site, status === 404 ? messages.pageNotFound : undefined),
    // The reading screens also come with their data, for the page the server renders (decision 0301).
    screenPages: {
      home: async (_, request) => {
        const cursor = listCursor(request);
        if (cursor === null) return { status: 400 };
        // A site with no owner says how to name one on its empty home page (DESIGN.md §9.6). Asked
        // before the cache: an ownerless home page is kept apart, and gone once an owner exists.
        const ownerHint = cursor === undefined ? await deps.ownerHint?.() : undefined;
        return {
          head: homeHeadTags(publicUrl, site),
          ...(cursor === undefined ? (ownerHint ? { variant: 'ownerless' } : {}) : { variant: cursor }),
          screen: async () => {
            const page = await reader.firstPage(undefined, cursor);
            return { kind: 'home', page, ...(ownerHint && page.articles.length === 0 ? { ownerHint } : {}) };
          },
        };
      },
      async author(key, request) {
        const cursor = listCursor(request);
        if (cursor === null) return { status: 400 };
        const found = await deps.authors.resolve(key);
        if (!found) return { status: 404 };
        const author = found.profile;
        // A uid or an old slug: the page lives at the current slug now.
        if (!found.current) return { status: 301, location: paths.author(author.slug) };
        return {
          head: authorHeadTags(publicUrl, site, author),
          ...(cursor === undefined ? {} : { variant: cursor }),
          screen: async () => ({
            kind: 'author',
            uid: author.uid,
            author,
            page: await reader.firstPage(author.uid, cursor),
          }),
        };
      },
      // A tag page exists while a published article has the tag.
      async tag(slug, request) {
        const cursor = listCursor(request);
        if (cursor === null) return { status: 400 };
        if ((await reader.tagName(slug)) === undefined) return { status: 404 };
        return {
          // No head of its own (the site's): the slug and the cursor name the page in the shell cache.
          variant: `tag ${slug} ${cursor ?? ''}`,
          screen: async () => ({ kind: 'tag', slug, page: await reader.tagPage(slug, cursor) }),
        };
      },
      async article(id, request) {
        const article = await reader.find(id);
        if (!article) return unpublishedArticle(id, request);
        return {
          head: articleHeadTags(publicUrl, site, article),
          screen: async () => {
            const comments = await deps.comments?.(article);
            return { kind: 'article', article, ...(comments ? { comments } : {}) };
          },
        };
      },
    },
  };
}

async function collect(parts: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const part of parts) text += part;
  return text;
}
