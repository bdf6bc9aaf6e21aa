import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from '@fedify/fedify';
import type { Database } from '../db/database.ts';

// A key's parts never hold U+001F (they are URLs and Fedify's own names); joined they sort by prefix.
const SEPARATOR = '\u001f';
const joinKey = (key: KvKey) => key.join(SEPARATOR);
const splitKey = (key: string) => key.split(SEPARATOR) as unknown as KvKey;

/**
 * Fedify's key–value store (cached remote keys and documents, inbox idempotence) in our own
 * database, either engine (decision 0700): @fedify/sqlite and @fedify/postgres are a major
 * version behind @fedify/fedify and bring their own database drivers.
 */
export function kyselyKvStore(database: Database, now: () => number = Date.now): KvStore {
  const { db } = database;
  const expiry = (options?: KvStoreSetOptions) =>
    options?.ttl === undefined ? null : now() + Math.ceil(options.ttl.total({ unit: 'millisecond' }));
  const live = (expiresAt: number | string | null) => expiresAt === null || Number(expiresAt) > now();
  const write = async (key: string, value: unknown, options?: KvStoreSetOptions) => {
    const row = { key, value: JSON.stringify(value), expires_at: expiry(options) };
    await db
      .insertInto('federation_kv')
      .values(row)
      .onConflict((conflict) => conflict.column('key').doUpdateSet({ value: row.value, expires_at: row.expires_at }))
      .execute();
  };

  return {
    async get<T = unknown>(key: KvKey): Promise<T | undefined> {
      const row = await db
        .selectFrom('federation_kv')
        .select(['value', 'expires_at'])
        .where('key', '=', joinKey(key))
        .executeTakeFirst();
      return row && live(row.expires_at) ? (JSON.parse(row.value) as T) : undefined;
    },
    set: (key, value, options) => write(joinKey(key), value, options),
    async delete(key) {
      await db.deleteFrom('federation_kv').where('key', '=', joinKey(key)).execute();
    },
    async cas(key, expectedValue, newValue, options) {
      return db.transaction().execute(async (trx) => {
        let query = trx.selectFrom('federation_kv').select(['value', 'expires_at']).where('key', '=', joinKey(key));
        if (database.dialect === 'postgres') query = query.forUpdate();
        const row = await query.executeTakeFirst();
        const current = row && live(row.expires_at) ? (JSON.parse(row.value) as unknown) : undefined;
        if (JSON.stringify(current) !== JSON.stringify(expectedValue)) return false;
        const value = { key: joinKey(key), value: JSON.stringify(newValue), expires_at: expiry(options) };
        await trx
          .insertInto('federation_kv')
          .values(value)
          .onConflict((conflict) =>
            conflict.column('key').doUpdateSet({ value: value.value, expires_at: value.expires_at }),
          )
          .execute();
        return true;
      });
    },
    async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
      let query = db.selectFrom('federation_kv').select(['key', 'value', 'expires_at']);
      if (prefix) {
        const start = joinKey(prefix);
        query = query.where((eb) =>
          eb.or([
            eb('key', '=', start),
            eb.and([eb('key', '>', start + SEPARATOR), eb('key', '<', start + SEPARATOR + '\uffff')]),
          ]),
        );
      }
      for (const row of await query.orderBy('key').execute()) {
        if (live(row.expires_at)) yield { key: splitKey(row.key), value: JSON.parse(row.value) as unknown };
      }
    },
  };
}

/** Removes entries past their time to live (called by the queue's worker now and then). */
export async function sweepExpiredKv(database: Database, now: number): Promise<void> {
  await database.db.deleteFrom('federation_kv').where('expires_at', '<', now).execute();
}
