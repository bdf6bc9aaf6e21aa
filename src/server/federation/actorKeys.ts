import { exportJwk, generateCryptoKeyPair, importJwk } from '@fedify/fedify';
import type { Database } from '../db/database.ts';

type KeyPair = Awaited<ReturnType<typeof generateCryptoKeyPair>>;
type Jwk = Parameters<typeof importJwk>[0];

const KINDS = ['RSASSA-PKCS1-v1_5', 'Ed25519'] as const;

/**
 * RSA at 2048 bits, as Mastodon's own keys: Fedify's default (4096) took seconds of a busy
 * 2-core machine's CPU to make, and every server verifies 2048-bit signatures.
 */
async function rsaKeyPair(): Promise<KeyPair> {
  return (await crypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['sign', 'verify'],
  )) as KeyPair;
}

/**
 * The blog's two key pairs (RSA for HTTP Signatures, Ed25519 for Object Integrity Proofs), made
 * once and kept in the database so every process signs with the same ones: the first process to
 * need a kind writes it; one racing it keeps the row that won.
 */
export function actorKeys(database: Database, now: () => number) {
  let loaded: Promise<KeyPair[]> | undefined;
  const load = async (): Promise<KeyPair[]> => {
    const pairs: KeyPair[] = [];
    for (const kind of KINDS) {
      let row = await database.db.selectFrom('federation_keys').selectAll().where('kind', '=', kind).executeTakeFirst();
      if (!row) {
        const made = kind === 'Ed25519' ? await generateCryptoKeyPair(kind) : await rsaKeyPair();
        await database.db
          .insertInto('federation_keys')
          .values({
            kind,
            private_jwk: JSON.stringify(await exportJwk(made.privateKey)),
            public_jwk: JSON.stringify(await exportJwk(made.publicKey)),
            created_at: now(),
          })
          .onConflict((conflict) => conflict.column('kind').doNothing())
          .execute();
        row = await database.db
          .selectFrom('federation_keys')
          .selectAll()
          .where('kind', '=', kind)
          .executeTakeFirstOrThrow();
      }
      pairs.push({
        privateKey: await importJwk(JSON.parse(row.private_jwk) as Jwk, 'private'),
        publicKey: await importJwk(JSON.parse(row.public_jwk) as Jwk, 'public'),
      });
    }
    return pairs;
  };
  return () => {
    loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
}
