import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqliteChangeStamp, type ChangeStamp } from './sqliteChangeStamp.ts';

// The stamp decides whether the read cache may answer from memory (stampedCache.ts): a commit
// anywhere must change it, and nothing else should.
describe.each(['wal', 'delete'] as const)('the SQLite change stamp in %s journal mode', (journalMode) => {
  let folder: string;
  let file: string;
  let connection: BetterSqlite3.Database;
  let stamp: ChangeStamp;

  beforeEach(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-stamp-'));
    file = path.join(folder, 'stamp.db');
    connection = new BetterSqlite3(file);
    connection.pragma(`journal_mode = ${journalMode}`);
    connection.exec('create table notes (body text)');
    stamp = sqliteChangeStamp(connection, file);
  });
  afterEach(() => {
    stamp.close();
    connection.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('stays the same while nothing is written, reads included', () => {
    const before = stamp.read();
    connection.prepare('select * from notes').all();
    expect(stamp.read()).toBe(before);
    expect(stamp.read()).toBe(before);
  });

  it("changes after this connection's own write", () => {
    const before = stamp.read();
    connection.prepare('insert into notes values (?)').run('mine');
    expect(stamp.read()).not.toBe(before);
  });

  it('changes after a write by another connection', () => {
    const other = new BetterSqlite3(file);
    try {
      const before = stamp.read();
      other.prepare('insert into notes values (?)').run('theirs');
      const after = stamp.read();
      expect(after).not.toBe(before);
      expect(stamp.read()).toBe(after);
    } finally {
      other.close();
    }
  });

  it('changes after a write by another process, also after the log was checkpointed and restarted', () => {
    const writeFromAnotherProcess = () =>
      execFileSync(process.execPath, [
        '--input-type=module',
        '-e',
        `import Database from 'better-sqlite3';
         const db = new Database(${JSON.stringify(file)});
         db.prepare('insert into notes values (?)').run('from a process');
         db.close();`,
      ]);
    let before = stamp.read();
    writeFromAnotherProcess();
    expect(stamp.read()).not.toBe(before);

    connection.pragma('wal_checkpoint(TRUNCATE)');
    before = stamp.read();
    writeFromAnotherProcess();
    expect(stamp.read()).not.toBe(before);
    expect(connection.prepare('select count(*) from notes').pluck().get()).toBe(2);
  });

  it('does not change for a transaction that rolled back elsewhere', () => {
    const other = new BetterSqlite3(file);
    try {
      const before = stamp.read();
      expect(() =>
        other.transaction(() => {
          other.prepare('insert into notes values (?)').run('never');
          throw new Error('roll back');
        })(),
      ).toThrow('roll back');
      expect(stamp.read()).toBe(before);
    } finally {
      other.close();
    }
  });
});
