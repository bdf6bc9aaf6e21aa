import { openDatabase, type Database } from '../../db/database.ts';
import { copyDatabase, type CopiedTable, type TableProgress } from './copyDatabase.ts';

/** A PostgreSQL URL as it may be printed: without its password. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the --to URL';
  }
}

export interface CopyCommandResult {
  text: string;
  json: { to: string; tables: CopiedTable[]; rows: number };
}

/** `copy-database --to URL`: the copy, then a summary and what to do next. */
export async function runCopyDatabase(
  source: Database,
  sourceName: string,
  to: string,
  progress?: TableProgress,
): Promise<CopyCommandResult> {
  if (!/^postgres(ql)?:\/\//.test(to)) {
    const { CopyRefusal } = await import('./copyDatabase.ts');
    throw new CopyRefusal('--to takes a postgres:// URL (an empty database, made with createdb).');
  }
  const target = openDatabase({ kind: 'postgres', url: to, poolMax: 2 });
  try {
    const tables = await copyDatabase(source, target, progress);
    const rows = tables.reduce((sum, table) => sum + table.rows, 0);
    const shown = withoutPassword(to);
    const width = Math.max(...tables.map((table) => table.name.length));
    const text = [
      `Copied ${tables.length} tables (${rows.toLocaleString('en')} rows) from ${sourceName} to ${shown}.`,
      'Row counts and checksums match on both sides:',
      ...tables.map(
        (table) =>
          `  ${table.name.padEnd(width)}  ${String(table.rows).padStart(8)} rows  ${table.checksum.split(':')[1]}`,
      ),
      '',
      'Next:',
      '  1. Stop the server (writes made after the copy began are not in it).',
      `  2. Set DATABASE_URL=${shown} (with its real password) where the server reads its configuration.`,
      '  3. Start it: npm start. Keep the SQLite file as a backup until you are content.',
    ].join('\n');
    return { text, json: { to: shown, tables, rows } };
  } finally {
    await target.close();
  }
}

/** A table's progress line on a terminal: "Copying users: 1,200 / 5,000". */
export function copyProgress(
  report: ((what: string) => (done: number, total: number) => void) | undefined,
): TableProgress {
  return (table) => (report ? report(`Copying ${table}`) : () => {});
}
