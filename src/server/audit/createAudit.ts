import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../db/database.ts';
import { auditEntryJson, createAuditLog, type AuditEntryJson, type RecordAudit } from './auditLog.ts';
import type { AuditNameSources } from './auditNames.ts';
import { auditRoutes } from './auditRoutes.ts';

export interface Audit {
  /** The seam other features are given (through services.ts): one row inside their transaction. */
  record: RecordAudit;
  /** The newest `limit` entries, newest first (the admin command). */
  newest(limit: number): Promise<AuditEntryJson[]>;
  /** GET /api/audit, in the `/api` scope (http/apiScope.ts), naming actors and targets from `names`. */
  routes(names: AuditNameSources): FastifyPluginAsync;
}

/** The append-only audit log (docs/product.md, Audit log). */
export function createAudit(deps: { database: Database; clock?: (() => number) | undefined }): Audit {
  const log = createAuditLog({ db: deps.database.db, now: deps.clock ?? Date.now });
  return {
    record: log.record,
    newest: async (limit) => (await log.newest(limit)).map(auditEntryJson),
    routes: (names) => auditRoutes({ log, names }),
  };
}
