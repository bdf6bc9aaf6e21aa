import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database.ts';
import { migrateToLatest } from './migrate.ts';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

// SQLite's read version is read once per turn of the event loop (decision 0881). What the
// read caches rely on: a write of this process is seen by the very next read, and another
// process's write by the first read of a later turn.
describe('the read version on SQLite', () => {
  let dir: string;
  let database: Database;
  afterEach(async () => {
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const open = async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-stamp-'));
    const file = path.join(dir, 'inkwell.db');
    database = openDatabase({ kind: 'sqlite', file });
    await migrateToLatest(database);
    return file;
  };

  it('sees a write of this process at once, in the same turn', async () => {
    await open();
    const before = await database.changeStamp();
    await sql`update read_version set version = version + 1 where id = 1`.execute(database.db);
    const after = await database.changeStamp();
    expect(after).not.toBe(before);
    expect(Number(after)).toBe(Number(before) + 1);
  });

  it('sees another connection’s write from the next turn on', async () => {
    const file = await open();
    const before = await database.changeStamp();
    const other = new BetterSqlite3(file);
    try {
      other.prepare('update read_version set version = version + 1 where id = 1').run();
    } finally {
      other.close();
    }
    await nextTurn();
    expect(Number(await database.changeStamp())).toBe(Number(before) + 1);
  });
});
