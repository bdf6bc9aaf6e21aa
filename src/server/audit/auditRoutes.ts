import type { FastifyPluginAsync } from 'fastify';
import { callerOf, registerCallerAuthentication, type VerifyIdToken } from '../http/callerAuth.ts';
import { sendProblem } from '../http/problem.ts';
import { can } from '../roles/permissions.ts';
import { auditEntryJson, type AuditLog } from './auditLog.ts';
import { nameAuditEntries, type AuditNameSources } from './auditNames.ts';
import { decodeKeysetCursor, encodeKeysetCursor } from '../http/keysetCursor.ts';

// Audit entry ids are 16 characters (auditLog.ts); the cursor allows more, as it always did.
const AUDIT_ID_MAX_LENGTH = 64;

/** Entries per page of GET /api/audit. */
export const AUDIT_PAGE_SIZE = 50;

/** `GET /api/audit?cursor=C` for owners (docs/product.md, Audit log). Register with { prefix: '/api' }. */
export function auditRoutes(deps: {
  log: AuditLog;
  verifyIdToken: VerifyIdToken;
  /** The actors' and targets' names as of now (services.ts); without them the entries carry none. */
  names?: AuditNameSources | undefined;
}): FastifyPluginAsync {
  return async (app) => {
    const authenticate = registerCallerAuthentication(app, deps.verifyIdToken);
    app.get<{ Querystring: Record<string, unknown> }>(
      '/audit',
      { preHandler: authenticate },
      async (request, reply) => {
        if (!can(callerOf(request).role, 'audit:read')) {
          return sendProblem(reply, 403, 'Only owners may read the audit log.');
        }
        const { cursor } = request.query;
        const after = typeof cursor === 'string' ? decodeKeysetCursor(cursor, AUDIT_ID_MAX_LENGTH) : undefined;
        if (cursor !== undefined && after === undefined) {
          return sendProblem(reply, 400, 'The cursor is not valid.', [
            { field: 'cursor', message: 'Use the nextCursor of an earlier page.' },
          ]);
        }
        // One more than a page tells whether another page follows.
        const rows = await deps.log.newest(AUDIT_PAGE_SIZE + 1, after);
        const page = rows.slice(0, AUDIT_PAGE_SIZE);
        const last = page.at(-1);
        const nextCursor = rows.length > AUDIT_PAGE_SIZE && last ? encodeKeysetCursor(last) : null;
        const entries = page.map(auditEntryJson);
        return reply
          .header('cache-control', 'no-store')
          .send({ entries: deps.names ? await nameAuditEntries(entries, deps.names) : entries, nextCursor });
      },
    );
  };
}
