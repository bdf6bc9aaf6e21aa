import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import { newId } from './opaqueSecrets.ts';

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
}

// One fixed row: processes starting together on an empty database all try to insert it,
// exactly one wins, and everyone reads back the winner.
const CURRENT_KEY_ID = 'current';

async function loadOrCreate(db: Kysely<DatabaseSchema>, now: () => number): Promise<SigningKey> {
  let row = await db
    .selectFrom('identity_signing_keys')
    .selectAll()
    .where('id', '=', CURRENT_KEY_ID)
    .executeTakeFirst();
  if (!row) {
    const kid = newId(12);
    const pair = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
    const privateJwk = { ...(await exportJWK(pair.privateKey)), kid, alg: 'RS256' };
    const publicJwk = { ...(await exportJWK(pair.publicKey)), kid, alg: 'RS256', use: 'sig' };
    await db
      .insertInto('identity_signing_keys')
      .values({
        id: CURRENT_KEY_ID,
        kid,
        private_jwk: JSON.stringify(privateJwk),
        public_jwk: JSON.stringify(publicJwk),
        created_at: now(),
      })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .execute();
    row = await db
      .selectFrom('identity_signing_keys')
      .selectAll()
      .where('id', '=', CURRENT_KEY_ID)
      .executeTakeFirstOrThrow();
  }
  const publicJwk = JSON.parse(row.public_jwk) as JWK;
  return {
    kid: row.kid,
    privateKey: (await importJWK(JSON.parse(row.private_jwk) as JWK, 'RS256')) as CryptoKey,
    publicKey: (await importJWK(publicJwk, 'RS256')) as CryptoKey,
    publicJwk,
  };
}

/** The shared signing key, created in the database on first use and then cached. */
export function createSigningKeys(db: Kysely<DatabaseSchema>, now: () => number) {
  let current: Promise<SigningKey> | undefined;
  const get = (): Promise<SigningKey> => {
    current ??= loadOrCreate(db, now).catch((error: unknown) => {
      current = undefined; // a database hiccup must not poison the cache
      throw error;
    });
    return current;
  };
  return {
    current: get,
    async jwks(): Promise<{ keys: JWK[] }> {
      return { keys: [(await get()).publicJwk] };
    },
  };
}

export type SigningKeys = ReturnType<typeof createSigningKeys>;
