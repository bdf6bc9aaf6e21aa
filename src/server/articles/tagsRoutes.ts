import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { TagList } from '../../shared/searchSchema.ts';
import type { ArticleReads } from './articleReads.ts';
import type { TagCount } from './articleTags.ts';
import { sendJsonResource, toJsonResource } from '../http/cachedResource.ts';

/** Tags listed by GET /api/tags at most (DESIGN.md §8.5). */
export const TAGS_LISTED = 100;

/** GET /api/tags: the most used tags, made once per change of the articles (the read cache). */
export function tagsRoutes(deps: {
  reads: ArticleReads;
  mostUsed: (limit: number) => Promise<TagCount[]>;
}): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    app.get('/tags', { compress: false, decompress: false }, async (request, reply) => {
      const resource = await deps.reads.cached('api-tags', async () => {
        const list: TagList = { tags: await deps.mostUsed(TAGS_LISTED) };
        return toJsonResource(list);
      });
      return sendJsonResource(request, reply, resource);
    });
  };
}
