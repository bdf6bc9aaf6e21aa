import fs from 'node:fs';
import os from 'node:os';
import type BetterSqlite3 from 'better-sqlite3';

// The wal-index ("-shm" file) starts with a 48-byte header that every committed write
// transaction rewrites, whichever connection or process made it: iChange counts
// transactions, mxFrame and the checksums move with the log (https://sqlite.org/walformat.html,
// §2.1). iVersion names the layout; it has been 3007000 since SQLite 3.7.0.
const WAL_INDEX_VERSION = 3007000;
const WAL_INDEX_HEADER_BYTES = 48;
const IS_INIT_OFFSET = 12;

/** Database.changeStamp for SQLite; close() with the connection. */
export interface ChangeStamp {
  read(): string | null;
  close(): void;
}

/**
 * A change stamp for one SQLite connection (see Database.changeStamp): a string that differs
 * whenever a write transaction has committed since the last call, by this connection or any
 * other process sharing the file.
 *
 * It runs on every cached read, so it reads the wal-index header with one pread(2) instead
 * of asking SQLite: a statement such as `PRAGMA data_version` opens a read transaction
 * (two fcntl locks and an fstat on every call), 11 µs of the 50 µs CPU a cached list page
 * cost (bench/README.md). The header's first copy is written last on commit, and before the
 * committing statement returns, so a read that starts after a commit always sees it; a read
 * torn by a commit in progress differs from the last one seen and only costs a cache miss.
 * Where the header cannot be read (not in WAL mode, an unknown layout) it falls back to
 * `data_version` (changes by other connections) and `total_changes()` (this one's).
 */
export function sqliteChangeStamp(connection: BetterSqlite3.Database, file: string): ChangeStamp {
  return walIndexStamp(connection, file) ?? dataVersionStamp(connection);
}

function walIndexStamp(connection: BetterSqlite3.Database, file: string): ChangeStamp | undefined {
  if (connection.pragma('journal_mode', { simple: true }) !== 'wal') return undefined;
  // A read makes sure the connection has mapped (and so initialised) the wal-index.
  connection.prepare('select count(*) from sqlite_schema').get();
  let fd: number;
  try {
    fd = fs.openSync(`${file}-shm`, 'r');
  } catch {
    return undefined;
  }
  const header = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  const readHeader = () => fs.readSync(fd, header, 0, WAL_INDEX_HEADER_BYTES, 0) === WAL_INDEX_HEADER_BYTES;
  const version = () => (os.endianness() === 'LE' ? header.readUInt32LE(0) : header.readUInt32BE(0));
  if (!readHeader() || version() !== WAL_INDEX_VERSION || header[IS_INIT_OFFSET] !== 1) {
    fs.closeSync(fd);
    return undefined;
  }
  const seen = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  let generation = 0;
  let stamp = '0';
  return {
    read() {
      readHeader();
      if (!header.equals(seen)) {
        header.copy(seen);
        generation += 1;
        stamp = String(generation);
      }
      return stamp;
    },
    close: () => fs.closeSync(fd),
  };
}

function dataVersionStamp(connection: BetterSqlite3.Database): ChangeStamp {
  // data_version moves when another connection commits; total_changes counts this connection's
  // own inserts, updates and deletes, which data_version ignores (and keeps counting through
  // a rollback, which only costs a cache miss).
  const query = connection.prepare("select data_version || '.' || total_changes() from pragma_data_version").pluck();
  return {
    read() {
      try {
        return query.get() as string;
      } catch {
        return null; // the connection is busy (a streamed read is open): do not use the cache
      }
    },
    close() {},
  };
}
