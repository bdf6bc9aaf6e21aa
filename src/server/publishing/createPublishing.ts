import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { matchArticlePath } from '../../shared/routes.ts';
import type { ArticleReader } from '../articles/createArticles.ts';
import type { PageHead } from '../web/webPlugin.ts';
import { atomFeed } from './atomFeed.ts';
import { articleHeadTags, homeHeadTags } from './pageHeadTags.ts';
import { robotsTxt } from './robotsTxt.ts';
import { SITEMAP_MAX_URLS, sitemapIndex, sitemapPageStarts, sitemapUrlset, type SitemapSource } from './sitemaps.ts';

export interface Publishing {
  /** /feed.xml, /sitemap.xml, /sitemaps/articles.xml and /robots.txt; register without a prefix. */
  routes: FastifyPluginAsync;
  /** Head tags (and 404 for unknown articles) of the home and article screens; no opinion elsewhere. */
  pageHead(request: FastifyRequest, pathname: string): Promise<PageHead | undefined>;
}

export interface PublishingDeps {
  reader: ArticleReader;
  /** Origin without a trailing slash (config.publicUrl). */
  publicUrl: string;
  /** URLs per sitemap file; defaults to the protocol's 50,000. */
  sitemapPageSize?: number;
}

export const FEED_SIZE = 50;
// Crawlers may keep these a few minutes: a new article shows up soon enough.
const CRAWL_CACHE = 'public, max-age=300';

/** What the outside world reads without running the app: page metadata, the feed, sitemaps, robots.txt. */
export function createPublishing(deps: PublishingDeps): Publishing {
  const { reader, publicUrl } = deps;
  const sitemap: SitemapSource = { reader, publicUrl, pageSize: deps.sitemapPageSize ?? SITEMAP_MAX_URLS };

  const routes: FastifyPluginAsync = async (app: FastifyInstance) => {
    app.get('/robots.txt', async (_request, reply) =>
      reply
        .header('cache-control', 'public, max-age=3600')
        .type('text/plain; charset=utf-8')
        .send(robotsTxt(publicUrl)),
    );

    app.get('/feed.xml', async (_request, reply) =>
      reply
        .header('cache-control', CRAWL_CACHE)
        .type('application/atom+xml; charset=utf-8')
        .send(atomFeed(publicUrl, await reader.newest(FEED_SIZE))),
    );

    app.get('/sitemap.xml', async (_request, reply) => {
      reply.header('cache-control', CRAWL_CACHE).type('application/xml; charset=utf-8');
      const starts = await sitemapPageStarts(sitemap);
      // One file holds everything until the protocol's limit; past it, an index of files.
      if (starts.length === 1) return reply.send(Readable.from(sitemapUrlset(sitemap, undefined)));
      return reply.send(sitemapIndex(publicUrl, starts));
    });

    app.get('/sitemaps/articles.xml', async (request, reply) => {
      const { after } = request.query as { after?: unknown };
      if (after !== undefined && (typeof after !== 'string' || !reader.isCursor(after))) {
        return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
      }
      return reply
        .header('cache-control', CRAWL_CACHE)
        .type('application/xml; charset=utf-8')
        .send(Readable.from(sitemapUrlset(sitemap, after)));
    });
  };

  return {
    routes,
    async pageHead(_request, pathname) {
      if (pathname === '/') return { head: homeHeadTags(publicUrl) };
      const id = matchArticlePath(pathname);
      if (id === null) return undefined;
      const article = await reader.find(id);
      return article ? { head: articleHeadTags(publicUrl, article) } : { status: 404 };
    },
  };
}
