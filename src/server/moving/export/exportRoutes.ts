import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.ts';
import { callerOf, registerCallerAuthentication, type VerifyIdToken } from '../../http/callerAuth.ts';
import { sendProblem } from '../../http/problem.ts';
import { can } from '../../roles/permissions.ts';
import { siteExport } from './siteExport.ts';

/** `GET /api/export` for owners: the site as a zip, streamed (siteExport.ts). Register with { prefix: '/api' }. */
export function exportRoutes(deps: { db: Kysely<DatabaseSchema>; verifyIdToken: VerifyIdToken }): FastifyPluginAsync {
  return async (app) => {
    const authenticate = registerCallerAuthentication(app, deps.verifyIdToken);
    app.get('/export', { preHandler: authenticate, compress: false }, async (request, reply) => {
      if (!can(callerOf(request).role, 'site:export')) {
        return sendProblem(reply, 403, 'Only owners may export the site.');
      }
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="inkwell-export-${day}.zip"`)
        .header('cache-control', 'private, no-store')
        .send(siteExport(deps.db));
    });
  };
}
