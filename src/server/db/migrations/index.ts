import type { Migration } from 'kysely/migration';
import * as articles from './0003_articles.ts';

/**
 * Every migration, in order. Names sort by their number; a migration never changes once
 * released, a new one is added instead. Each must run on both SQLite and PostgreSQL.
 */
export const migrations: Record<string, Migration> = {
  '0003_articles': articles,
};
