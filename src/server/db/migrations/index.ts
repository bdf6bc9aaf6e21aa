import type { Migration } from 'kysely/migration';

/**
 * Every migration, in order. Names sort by their number; a migration never changes once
 * released, a new one is added instead. Each must run on both SQLite and PostgreSQL.
 */
export const migrations: Record<string, Migration> = {};
