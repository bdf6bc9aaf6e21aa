import fs from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';

/**
 * A consistent copy of a live SQLite database through SQLite's online backup API. All pages
 * are copied in one step, under one read transaction: the copy is the database as of one
 * instant, and in WAL mode the server's writers are not blocked meanwhile.
 */
export async function backupSqlite(sourceFile: string, destinationFile: string): Promise<{ bytes: number }> {
  if (!fs.existsSync(sourceFile)) throw new Error(`No database at ${sourceFile}`);
  if (fs.existsSync(destinationFile)) throw new Error(`${destinationFile} already exists; choose a new file`);
  const source = new BetterSqlite3(sourceFile, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    await source.backup(destinationFile, { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
  return { bytes: fs.statSync(destinationFile).size };
}

/** How to back up a PostgreSQL database, without the password (pg_dump reads PGPASSWORD or ~/.pgpass). */
export function pgDumpCommand(databaseUrl: string, destinationFile: string): string {
  const url = new URL(databaseUrl);
  url.password = '';
  return `pg_dump --format=custom --file=${shellQuote(destinationFile)} --dbname=${shellQuote(url.toString())}`;
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
