import type { Database } from './database.ts';

export interface StampedCache<T> {
  /**
   * The cached value for `key`, or `load()`'s. A loaded value is remembered while the database
   * is unchanged only when `admit` is true: callers keep out what anyone could ask for in
   * unbounded variety (a made-up cursor), so the cache holds only what the server handed out.
   */
  get(key: string, load: () => Promise<T>, options?: { admit?: boolean }): Promise<T>;
}

export interface StampedCacheOptions<T> {
  /** The most bytes the remembered values may take, by `sizeOf`'s count. */
  maxBytes: number;
  /** An upper bound of the memory one value holds, in bytes. */
  sizeOf: (value: T) => number;
}

/**
 * An in-memory read cache that can never serve data older than the database: every get
 * first reads the database's read version (one one-row query, moved by triggers on every
 * change: migration 0011), and any change, by this process or another one sharing the
 * database, empties the cache. When the version cannot be read nothing is kept. Least
 * recently used values go once the total passes `maxBytes`; a value larger than that is
 * never kept.
 */
export function createStampedCache<T>(
  database: Pick<Database, 'changeStamp'>,
  options: StampedCacheOptions<T>,
): StampedCache<T> {
  let stamp: string | null = null;
  const entries = new Map<string, { value: T; bytes: number }>();
  let totalBytes = 0;
  const clear = () => {
    entries.clear();
    totalBytes = 0;
  };
  return {
    async get(key, load, { admit = true } = {}) {
      // The stamp is read before the data: a change that lands in between makes the value
      // newer than its stamp, never older, and the next get sees a new stamp and drops it.
      const current = await database.changeStamp();
      if (current === null) return load();
      if (current !== stamp) {
        clear();
        stamp = current;
      }
      const found = entries.get(key);
      if (found) {
        entries.delete(key);
        entries.set(key, found);
        return found.value;
      }
      const value = await load();
      // Another get may have seen a newer stamp meanwhile: then this value is not kept.
      if (!admit || stamp !== current || entries.has(key)) return value;
      const bytes = options.sizeOf(value);
      if (bytes > options.maxBytes) return value;
      for (const [oldest, entry] of entries) {
        if (totalBytes + bytes <= options.maxBytes) break;
        entries.delete(oldest);
        totalBytes -= entry.bytes;
      }
      entries.set(key, { value, bytes });
      totalBytes += bytes;
      return value;
    },
  };
}
