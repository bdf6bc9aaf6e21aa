import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { requires } from '../http/apiScope.ts';
import { auditEntryJson, type AuditLog } from './auditLog.ts';
import { nameAuditEntries, type AuditNameSources } from './auditNames.ts';
import { encodeKeysetCursor, keysetCursorParameter } from '../http/keysetCursor.ts';
import { queryValidation } from '../http/queryValidation.ts';
import { keysetPage } from '../http/keysetPage.ts';

// Audit entry ids are 16 characters (auditLog.ts); the cursor allows more, as it always did.
const AUDIT_ID_MAX_LENGTH = 64;

const auditQuery = z.object({ cursor: keysetCursorParameter(AUDIT_ID_MAX_LENGTH) });

/** Entries per page of GET /api/audit. */
export const AUDIT_PAGE_SIZE = 50;

/** `GET /api/audit?cursor=C` for owners (docs/product.md, Audit log), in the `/api` scope. */
export function auditRoutes(deps: {
  log: AuditLog;
  /** The actors' and targets' names as of now (services.ts wires each feature's batch read). */
  names: AuditNameSources;
}): FastifyPluginAsync {
  return async (app) => {
    app.get(
      '/audit',
      {
        ...requires('audit:read', 'Only owners may read the audit log.'),
        preValidation: queryValidation(auditQuery, () => 'The cursor is not valid.'),
      },
      async (request, reply) => {
        const { cursor: after } = request.query as z.output<typeof auditQuery>;
        const page = await keysetPage(AUDIT_PAGE_SIZE, (rows) => deps.log.newest(rows, after), encodeKeysetCursor);
        const entries = await nameAuditEntries(page.rows.map(auditEntryJson), deps.names);
        return reply.header('cache-control', 'no-store').send({ entries, nextCursor: page.nextCursor });
      },
    );
  };
}
