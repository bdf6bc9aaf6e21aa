import { sql, type Kysely } from 'kysely';

/** One table of the SQLite source as its own schema describes it (nothing here is hard-coded). */
export interface SourceTable {
  name: string;
  columns: string[];
  /** Tables this one references through a foreign key (itself excluded). */
  references: string[];
  /** Columns referencing the same table (comments.parent_id): inserted empty, then filled in. */
  selfReferences: { column: string; notNull: boolean }[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the copy works below the typed schema, on whatever tables exist
type AnyDb = Kysely<any>;

/** SQLite's own tables and Kysely's migration bookkeeping (the target is migrated on its own). */
const BOOKKEEPING = /^(sqlite_|kysely_migration)/;

/**
 * Every ordinary table of the source with its columns and foreign keys, read from
 * `sqlite_master` and `pragma table_info` / `pragma foreign_key_list`, so tables added by any
 * migration are copied without this file knowing them. Virtual tables (the FTS5 search index)
 * and their shadow tables are left out: they have no PostgreSQL counterpart of the same shape.
 */
export async function readSourceTables(db: AnyDb): Promise<SourceTable[]> {
  const { rows: master } = await sql<{ name: string; sql: string | null }>`
    select name, sql from sqlite_master where type = 'table' order by name`.execute(db);
  const virtual = master.filter((row) => /^create virtual table/i.test(row.sql ?? '')).map((row) => row.name);
  const shadow = (name: string) => virtual.some((table) => name.startsWith(`${table}_`));
  const tables: SourceTable[] = [];
  for (const { name } of master) {
    if (BOOKKEEPING.test(name) || virtual.includes(name) || shadow(name)) continue;
    const { rows: columns } = await sql<{ name: string; notnull: number }>`
      select name, "notnull" from pragma_table_info(${name}) order by cid`.execute(db);
    const { rows: keys } = await sql<{ table: string; from: string }>`
      select "table", "from" from pragma_foreign_key_list(${name})`.execute(db);
    const notNull = new Set(columns.filter((column) => column.notnull === 1).map((column) => column.name));
    tables.push({
      name,
      columns: columns.map((column) => column.name),
      references: [...new Set(keys.filter((key) => key.table !== name).map((key) => key.table))],
      selfReferences: keys
        .filter((key) => key.table === name)
        .map((key) => ({ column: key.from, notNull: notNull.has(key.from) })),
    });
  }
  return tables;
}

/** Tables ordered so that every table comes after the tables it references. */
export function dependencyOrder(tables: SourceTable[]): SourceTable[] {
  const byName = new Map(tables.map((table) => [table.name, table]));
  const ordered: SourceTable[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (table: SourceTable, path: string[]) => {
    if (state.get(table.name) === 'done') return;
    if (state.get(table.name) === 'visiting') {
      throw new Error(`The tables ${[...path, table.name].join(' → ')} reference each other in a cycle.`);
    }
    state.set(table.name, 'visiting');
    for (const name of table.references) {
      const referenced = byName.get(name);
      if (referenced) visit(referenced, [...path, table.name]);
    }
    state.set(table.name, 'done');
    ordered.push(table);
  };
  for (const table of tables) visit(table, []);
  return ordered;
}
