import type { Database } from './database.ts';

export interface StampedCache<T> {
  /** The cached value for `key`, or `load()`'s, remembered while the database is unchanged. */
  get(key: string, load: () => Promise<T>): Promise<T>;
}

/**
 * An in-memory read cache that can never serve data older than the database: every get
 * first reads the database's change stamp (one cheap query), and any change, by this
 * process or another one sharing the database, empties the cache. With a database that
 * has no cheap stamp (PostgreSQL) it never stores anything. Least recently used entries
 * go past `maxEntries`.
 */
export function createStampedCache<T>(database: Pick<Database, 'changeStamp'>, maxEntries = 512): StampedCache<T> {
  let stamp: string | null = null;
  const entries = new Map<string, T>();
  return {
    async get(key, load) {
      // The stamp is read before the data: a change that lands in between makes the value
      // newer than its stamp, never older, and the next get sees a new stamp and drops it.
      const current = await database.changeStamp();
      if (current === null) return load();
      if (current !== stamp) {
        entries.clear();
        stamp = current;
      }
      if (entries.has(key)) {
        const value = entries.get(key)!;
        entries.delete(key);
        entries.set(key, value);
        return value;
      }
      const value = await load();
      // Another get may have seen a newer stamp meanwhile: then this value is not kept.
      if (stamp === current) {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
        entries.set(key, value);
      }
      return value;
    },
  };
}
