import type { FastifyPluginAsync } from 'fastify';
import { requires } from '../http/apiScope.ts';
import { sendProblem } from '../http/problem.ts';
import { auditEntryJson, type AuditLog } from './auditLog.ts';
import { decodeKeysetCursor, encodeKeysetCursor } from '../http/keysetCursor.ts';
import { keysetPage } from '../http/keysetPage.ts';

// Audit entry ids are 16 characters (auditLog.ts); the cursor allows more, as it always did.
const AUDIT_ID_MAX_LENGTH = 64;

/** Entries per page of GET /api/audit. */
export const AUDIT_PAGE_SIZE = 50;

/** `GET /api/audit?cursor=C` for owners (docs/product.md, Audit log), in the `/api` scope. */
export function auditRoutes(deps: { log: AuditLog }): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: Record<string, unknown> }>(
      '/audit',
      requires('audit:read', 'Only owners may read the audit log.'),
      async (request, reply) => {
        const { cursor } = request.query;
        const after = typeof cursor === 'string' ? decodeKeysetCursor(cursor, AUDIT_ID_MAX_LENGTH) : undefined;
        if (cursor !== undefined && after === undefined) {
          return sendProblem(reply, 400, 'The cursor is not valid.', [
            { field: 'cursor', message: 'Use the nextCursor of an earlier page.' },
          ]);
        }
        const page = await keysetPage(AUDIT_PAGE_SIZE, (rows) => deps.log.newest(rows, after), encodeKeysetCursor);
        return reply
          .header('cache-control', 'no-store')
          .send({ entries: page.rows.map(auditEntryJson), nextCursor: page.nextCursor });
      },
    );
  };
}
