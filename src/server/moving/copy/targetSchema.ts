import { sql, type Kysely } from 'kysely';

/** How a PostgreSQL column's values are written and compared (from its declared type). */
export type ValueKind = 'boolean' | 'bytes' | 'json' | 'timestamp' | 'number' | 'text';

export interface TargetTable {
  name: string;
  kinds: Map<string, ValueKind>;
  primaryKey: string[];
  /** Columns filled by a sequence (serial or identity), set past the copied values afterwards. */
  sequenced: string[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the copy works below the typed schema
type AnyDb = Kysely<any>;

function kindOf(dataType: string): ValueKind {
  if (dataType === 'boolean') return 'boolean';
  if (dataType === 'bytea') return 'bytes';
  if (dataType === 'json' || dataType === 'jsonb') return 'json';
  if (dataType.startsWith('timestamp') || dataType === 'date') return 'timestamp';
  if (/^(integer|bigint|smallint|real|double precision|numeric)$/.test(dataType)) return 'number';
  return 'text';
}

/** The migrated target's tables in the current schema, with column types as its migrations made them. */
export async function readTargetTables(db: AnyDb): Promise<Map<string, TargetTable>> {
  const { rows: columns } = await sql<{
    table_name: string;
    column_name: string;
    data_type: string;
    sequenced: boolean;
  }>`select table_name, column_name, data_type,
            (column_default like 'nextval(%' or is_identity = 'YES') as sequenced
       from information_schema.columns
      where table_schema = current_schema()
      order by table_name, ordinal_position`.execute(db);
  const { rows: keys } = await sql<{ table_name: string; column_name: string }>`
    select k.table_name, k.column_name
      from information_schema.table_constraints c
      join information_schema.key_column_usage k
        on k.constraint_name = c.constraint_name and k.table_schema = c.table_schema and k.table_name = c.table_name
     where c.table_schema = current_schema() and c.constraint_type = 'PRIMARY KEY'
     order by k.table_name, k.ordinal_position`.execute(db);
  const tables = new Map<string, TargetTable>();
  for (const column of columns) {
    let table = tables.get(column.table_name);
    if (!table) {
      table = { name: column.table_name, kinds: new Map(), primaryKey: [], sequenced: [] };
      tables.set(column.table_name, table);
    }
    table.kinds.set(column.column_name, kindOf(column.data_type));
    if (column.sequenced) table.sequenced.push(column.column_name);
  }
  for (const key of keys) tables.get(key.table_name)?.primaryKey.push(key.column_name);
  return tables;
}

/** A source (SQLite) value as the PostgreSQL column of that kind takes it. */
export function toTarget(value: unknown, kind: ValueKind): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'boolean':
      return typeof value === 'string' ? value === 'true' || value === '1' : Number(value) !== 0;
    case 'bytes':
      return Buffer.isBuffer(value) ? value : Buffer.from(String(value), 'utf8');
    case 'timestamp':
      return typeof value === 'number' || typeof value === 'bigint' ? new Date(Number(value)) : value;
    case 'json':
      return typeof value === 'string' ? value : JSON.stringify(value);
    case 'number':
      return typeof value === 'bigint' ? value.toString() : value;
    case 'text':
      return Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
  }
}
