import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { migrateToLatest, pendingMigrations } from '../../db/migrate.ts';
import { searchIndexCopy } from './searchIndexCopy.ts';
import { dependencyOrder, readSourceTables, type SourceTable } from './sourceSchema.ts';
import { TableChecksum } from './tableChecksum.ts';
import { readTargetTables, toTarget, type TargetTable } from './targetSchema.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the copy works below the typed schema, on whatever tables exist
type AnyDb = Kysely<any>;

/** A reason not to copy that the operator can act on (the target is left as it was, or empty). */
export class CopyRefusal extends Error {
  override name = 'CopyRefusal';
}

export interface CopiedTable {
  name: string;
  rows: number;
  checksum: string;
}

/** Progress of one table: rows done of its total. */
export type TableProgress = (table: string) => (done: number, total: number) => void;

/**
 * Rows a migration itself writes into a new database (the read version's one row). They are
 * not a sign that the target is in use; they are replaced by the source's, last, so that the
 * triggers the copied rows fire do not move the copied value afterwards.
 */
const MIGRATION_SEEDED = new Set(['read_version']);

/** Rows per insert: PostgreSQL takes at most 65,535 parameters a statement. */
const rowsPerBatch = (columns: number, hasBlobs: boolean) =>
  hasBlobs ? 8 : Math.max(1, Math.min(500, Math.floor(20_000 / columns)));

/**
 * Copies every table of a SQLite database into an empty PostgreSQL one: the target is migrated
 * first, the tables are read from the source's own schema and written in foreign-key order,
 * a batch at a time, all in one target transaction that commits only once every table's row
 * count and checksum read back from PostgreSQL match the source's. Whatever goes wrong, the
 * target is left migrated and empty. The source is read in one transaction (one snapshot).
 */
export async function copyDatabase(
  source: Database,
  target: Database,
  progress: TableProgress = () => () => {},
): Promise<CopiedTable[]> {
  if (source.dialect !== 'sqlite') {
    throw new CopyRefusal('copy-database copies from SQLite; between PostgreSQL databases use pg_dump (see "backup").');
  }
  if (target.dialect !== 'postgres') throw new CopyRefusal('--to takes a postgres:// URL.');
  const pending = await pendingMigrations(source);
  if (pending.length > 0) {
    throw new CopyRefusal(
      `The source database needs migrations (${pending.join(', ')}): run "npm run admin -- migrate" first.`,
    );
  }
  await migrateToLatest(target);

  const sourceTables = dependencyOrder(await readSourceTables(source.db));
  const targetTables = await readTargetTables(target.db);
  const search = (await searchIndexCopy.applies(source.db, new Set(targetTables.keys()))) ? searchIndexCopy : null;
  const generic = sourceTables.filter((table) => !search?.sourceTables.includes(table.name));
  for (const table of generic) checkCounterpart(table, targetTables.get(table.name));
  await refuseNonEmpty(target.db, [...generic.map((table) => table.name), ...(search ? [search.targetTable] : [])]);

  return source.db.transaction().execute((from) =>
    target.db.transaction().execute(async (to) => {
      const copied: CopiedTable[] = [];
      const seeded = generic.filter((table) => MIGRATION_SEEDED.has(table.name));
      for (const table of seeded) await sql`delete from ${sql.table(table.name)}`.execute(to);
      const ordered = [...generic.filter((table) => !MIGRATION_SEEDED.has(table.name)), ...seeded];
      for (const table of ordered) {
        const shape = targetTables.get(table.name)!;
        const checksum = await copyTable(from, to, table, shape, progress(table.name));
        const readBack = await targetChecksum(to, table.columns, shape);
        if (readBack !== checksum) throw mismatch(table.name, checksum, readBack);
        copied.push({ name: table.name, rows: rowCount(checksum), checksum });
      }
      if (search) {
        const total = await search.count(from);
        const report = progress('search index');
        const checksum = await search.copy(from, to, (done) => report(done, total));
        const readBack = await search.targetChecksum(to);
        if (readBack !== checksum) throw mismatch('search index', checksum, readBack);
        copied.push({ name: 'search index', rows: rowCount(checksum), checksum });
      }
      for (const shape of targetTables.values()) {
        for (const column of shape.sequenced) {
          await sql`select setval(pg_get_serial_sequence(${shape.name}, ${column}),
                                  coalesce((select max(${sql.ref(column)}) from ${sql.table(shape.name)}), 0) + 1, false)`.execute(
            to,
          );
        }
      }
      return copied;
    }),
  );
}

const rowCount = (checksum: string) => Number(checksum.split(':')[0]);

function mismatch(table: string, source: string, target: string): Error {
  return new Error(
    `${table}: the copy does not match the source (rows:checksum ${source} here, ${target} there); nothing was kept.`,
  );
}

function checkCounterpart(table: SourceTable, target: TargetTable | undefined): void {
  if (!target) {
    throw new CopyRefusal(`The table ${table.name} has no counterpart in the PostgreSQL schema; nothing was copied.`);
  }
  const missing = table.columns.filter((column) => !target.kinds.has(column));
  if (missing.length > 0) {
    throw new CopyRefusal(
      `The PostgreSQL table ${table.name} has no column ${missing.join(', ')}; nothing was copied.`,
    );
  }
  const required = table.selfReferences.find((reference) => reference.notNull);
  if (required) {
    throw new CopyRefusal(
      `${table.name}.${required.column} references its own table and may not be empty; cannot copy it.`,
    );
  }
}

async function refuseNonEmpty(target: AnyDb, tables: string[]): Promise<void> {
  for (const table of tables) {
    if (MIGRATION_SEEDED.has(table)) continue;
    const { rows } = await sql<{ found: number }>`select 1 as found from ${sql.table(table)} limit 1`.execute(target);
    if (rows.length > 0) {
      throw new CopyRefusal(
        `The target database is not empty (${table} has rows): copy only into a new, empty database.`,
      );
    }
  }
}

/** Copies one table, a batch at a time in rowid order; returns the source side's checksum. */
async function copyTable(
  from: AnyDb,
  to: AnyDb,
  table: SourceTable,
  shape: TargetTable,
  progress: (done: number, total: number) => void,
): Promise<string> {
  const { rows: counted } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table.name)}`.execute(from);
  const total = Number(counted[0]?.n ?? 0);
  const hasBlobs = table.columns.some((column) => shape.kinds.get(column) === 'bytes');
  const batch = rowsPerBatch(table.columns.length, hasBlobs);
  const later = new Set(table.selfReferences.map((reference) => reference.column));
  const checksum = new TableChecksum(table.columns, shape.kinds);
  const columns = sql.join(table.columns.map((column) => sql.ref(column)));
  let after: number | bigint = Number.MIN_SAFE_INTEGER;
  progress(0, total);
  for (;;) {
    const { rows } = await sql<Record<string, unknown>>`
      select rowid as "__rowid", ${columns} from ${sql.table(table.name)}
       where rowid > ${after} order by rowid limit ${batch}`.execute(from);
    if (rows.length === 0) break;
    const values = rows.map((row) => {
      checksum.add(row);
      const value: Record<string, unknown> = {};
      for (const column of table.columns) {
        value[column] = later.has(column) ? null : toTarget(row[column], shape.kinds.get(column)!);
      }
      return value;
    });
    await to.insertInto(table.name).values(values).execute();
    after = rows.at(-1)!.__rowid as number;
    progress(checksum.rows, total);
  }
  // A row that references another of its table (a reply's parent) gets the reference once all are in.
  for (const column of later) await fillSelfReference(from, to, table, shape, column);
  return checksum.value;
}

async function fillSelfReference(from: AnyDb, to: AnyDb, table: SourceTable, shape: TargetTable, column: string) {
  if (shape.primaryKey.length === 0) throw new CopyRefusal(`${table.name} has no primary key to fill ${column} by.`);
  let after: number = Number.MIN_SAFE_INTEGER;
  const keys = sql.join(shape.primaryKey.map((key) => sql.ref(key)));
  for (;;) {
    const { rows } = await sql<Record<string, unknown>>`
      select rowid as "__rowid", ${sql.ref(column)} as "__value", ${keys} from ${sql.table(table.name)}
       where rowid > ${after} and ${sql.ref(column)} is not null order by rowid limit 500`.execute(from);
    if (rows.length === 0) break;
    for (const row of rows) {
      let update = to.updateTable(table.name).set({ [column]: toTarget(row.__value, shape.kinds.get(column)!) });
      for (const key of shape.primaryKey) update = update.where(key, '=', toTarget(row[key], shape.kinds.get(key)!));
      await update.execute();
    }
    after = rows.at(-1)!.__rowid as number;
  }
}

/** The checksum of a table as PostgreSQL holds it, read in physical (ctid) order a batch at a time. */
async function targetChecksum(to: AnyDb, columnNames: string[], shape: TargetTable): Promise<string> {
  const checksum = new TableChecksum(columnNames, shape.kinds);
  const columns = sql.join(columnNames.map((column) => sql.ref(column)));
  const hasBlobs = columnNames.some((column) => shape.kinds.get(column) === 'bytes');
  const batch = rowsPerBatch(columnNames.length, hasBlobs);
  let after = '(0,0)';
  for (;;) {
    const { rows } = await sql<Record<string, unknown>>`
      select ctid::text as "__ctid", ${columns} from ${sql.table(shape.name)}
       where ctid > ${after}::tid order by ctid limit ${batch}`.execute(to);
    if (rows.length === 0) break;
    for (const row of rows) checksum.add(row);
    after = rows.at(-1)!.__ctid as string;
  }
  return checksum.value;
}
