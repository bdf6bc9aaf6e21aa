import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.ts';
import { requires } from '../../http/apiScope.ts';
import { siteExport } from './siteExport.ts';

/** `GET /api/export` for owners: the site as a zip, streamed (siteExport.ts), in the `/api` scope. */
export function exportRoutes(deps: { db: Kysely<DatabaseSchema> }): FastifyPluginAsync {
  return async (app) => {
    app.get(
      '/export',
      { ...requires('site:export', 'Only owners may export the site.'), compress: false },
      async (_request, reply) => {
        const day = new Date().toISOString().slice(0, 10);
        return reply
          .header('content-type', 'application/zip')
          .header('content-disposition', `attachment; filename="inkwell-export-${day}.zip"`)
          .header('cache-control', 'private, no-store')
          .send(siteExport(deps.db));
      },
    );
  };
}
