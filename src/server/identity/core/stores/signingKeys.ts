import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { Kysely, Selectable } from 'kysely';
import type { DatabaseSchema } from '../../../db/schema.ts';
import { ID_TOKEN_LIFETIME_SECONDS } from '../lifetimes.ts';
import type { IdentitySigningKeysTable } from '../identityTables.ts';
import { newId } from '../opaqueSecrets.ts';
import { isUniqueViolation } from '../uniqueViolation.ts';

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
  createdAt: number;
}

/**
 * How a process learns of a rotation made elsewhere (`npm run admin -- keys rotate`): it
 * re-reads the key set at most this long after its last read, so new tokens are signed with
 * the new key within 30 s; and a token whose kid it does not know yet makes it re-read at once
 * (at most once per KID_MISS_REFRESH_MS, so forged kids cannot hammer the database).
 */
export const KEY_REFRESH_MS = 30_000;
export const KID_MISS_REFRESH_MS = 1_000;
/** A replaced key still verifies (and stays in the JWKS) as long as a token it signed can live, plus clock skew. */
export const RETIRED_KEY_GRACE_MS = (ID_TOKEN_LIFETIME_SECONDS + 300) * 1000;

type KeyRow = Selectable<IdentitySigningKeysTable>;

interface KeySet {
  current: SigningKey;
  byKid: Map<string, SigningKey>;
  loadedAt: number;
}

export class ConcurrentRotationError extends Error {
  override name = 'ConcurrentRotationError';
}

async function newKeyRow(now: number): Promise<KeyRow> {
  const kid = newId(12);
  const pair = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const privateJwk = { ...(await exportJWK(pair.privateKey)), kid, alg: 'RS256' };
  const publicJwk = { ...(await exportJWK(pair.publicKey)), kid, alg: 'RS256', use: 'sig' };
  return {
    id: kid,
    kid,
    private_jwk: JSON.stringify(privateJwk),
    public_jwk: JSON.stringify(publicJwk),
    created_at: now,
    is_current: 1,
    retired_at: null,
  };
}

/**
 * The shared signing keys: created in the database on first use, exactly once however many
 * processes start together (the unique index on is_current lets one insert win), then cached
 * and re-read as described at KEY_REFRESH_MS.
 */
export function createSigningKeys(db: Kysely<DatabaseSchema>, now: () => number) {
  const imported = new Map<string, SigningKey>();
  let cached: KeySet | undefined;
  let loading: Promise<KeySet> | undefined;

  async function toKey(row: KeyRow): Promise<SigningKey> {
    const known = imported.get(row.kid);
    if (known) return known;
    const publicJwk = JSON.parse(row.public_jwk) as JWK;
    const key: SigningKey = {
      kid: row.kid,
      privateKey: (await importJWK(JSON.parse(row.private_jwk) as JWK, 'RS256')) as CryptoKey,
      publicKey: (await importJWK(publicJwk, 'RS256')) as CryptoKey,
      publicJwk,
      createdAt: row.created_at,
    };
    imported.set(row.kid, key);
    return key;
  }

  const liveRows = (at: number) =>
    db
      .selectFrom('identity_signing_keys')
      .selectAll()
      .where((eb) => eb.or([eb('is_current', '=', 1), eb('retired_at', '>', at - RETIRED_KEY_GRACE_MS)]))
      .orderBy('created_at', 'desc')
      .execute();

  async function read(): Promise<KeySet> {
    const at = now();
    let rows = await liveRows(at);
    if (!rows.some((row) => row.is_current === 1)) {
      await db
        .insertInto('identity_signing_keys')
        .values(await newKeyRow(at))
        .onConflict((conflict) => conflict.doNothing())
        .execute();
      rows = await liveRows(at);
    }
    const currentRow = rows.find((row) => row.is_current === 1);
    if (!currentRow) throw new Error('No current signing key in the database');
    const byKid = new Map<string, SigningKey>();
    for (const row of rows) byKid.set(row.kid, await toKey(row));
    return { current: byKid.get(currentRow.kid)!, byKid, loadedAt: at };
  }

  function reload(): Promise<KeySet> {
    loading ??= read()
      .then((set) => {
        cached = set;
        return set;
      })
      .finally(() => {
        loading = undefined; // a database hiccup must not poison the cache
      });
    return loading;
  }

  async function keySet(): Promise<KeySet> {
    if (cached && now() - cached.loadedAt < KEY_REFRESH_MS) return cached;
    return reload();
  }

  return {
    /** The key new tokens are signed with. */
    current: async (): Promise<SigningKey> => (await keySet()).current,

    /** The key a token's `kid` names, if it may still verify. */
    async forKid(kid: string): Promise<SigningKey | undefined> {
      let set = await keySet();
      if (!set.byKid.has(kid) && now() - set.loadedAt >= KID_MISS_REFRESH_MS) set = await reload();
      return set.byKid.get(kid);
    },

    async jwks(): Promise<{ keys: JWK[] }> {
      return { keys: [...(await keySet()).byKid.values()].map((key) => key.publicJwk) };
    },

    /** Makes a new key current; the replaced one keeps verifying for RETIRED_KEY_GRACE_MS. */
    async rotate(): Promise<{ kid: string; previousKid: string | undefined }> {
      const at = now();
      const row = await newKeyRow(at);
      let previousKid: string | undefined;
      try {
        await db.transaction().execute(async (trx) => {
          const previous = await trx
            .updateTable('identity_signing_keys')
            .set({ is_current: null, retired_at: at })
            .where('is_current', '=', 1)
            .returning('kid')
            .executeTakeFirst();
          previousKid = previous?.kid;
          await trx.insertInto('identity_signing_keys').values(row).execute();
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new ConcurrentRotationError('Another key rotation ran at the same time');
        throw error;
      }
      await reload();
      return { kid: row.kid, previousKid };
    },
  };
}

export type SigningKeys = ReturnType<typeof createSigningKeys>;
