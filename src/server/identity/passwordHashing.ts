import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { FIREBASE_SCRYPT_PREFIX, verifyFirebaseHash } from '../firebaseImport/firebaseScrypt.ts';

// The package's Algorithm is an ambient const enum, unusable under type stripping; 2 is Argon2id.
const ARGON2ID = 2 as Algorithm;

// OWASP's argon2id baseline: 19 MiB, 2 passes, one lane.
const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/**
 * The algorithm a stored value names. An account imported from Firebase keeps its modified-scrypt
 * hash until its first sign-in; one imported without a password (federated only) stores '' and
 * gets a password through reset (docs/decisions/0060).
 */
export type PasswordAlgorithm = 'argon2id' | 'firebase-scrypt';

export function passwordAlgorithm(passwordHash: string): PasswordAlgorithm | null {
  if (passwordHash.startsWith(FIREBASE_SCRYPT_PREFIX)) return 'firebase-scrypt';
  if (passwordHash === '') return null;
  return 'argon2id';
}

/**
 * Whether the password matches, and whether the stored value should be replaced by an
 * argon2id hash (the caller does so in the same transaction as the sign-in).
 * Constant-time comparison is done inside argon2's verify and in the Firebase verifier.
 */
export async function checkPassword(
  passwordHash: string,
  password: string,
): Promise<{ ok: boolean; needsRehash: boolean }> {
  const algorithm = passwordAlgorithm(passwordHash);
  if (algorithm === null) return { ok: await verifyAgainstDummyHash(password), needsRehash: false };
  if (algorithm === 'firebase-scrypt')
    return { ok: await verifyFirebaseHash(passwordHash, password), needsRehash: true };
  return { ok: await verifyPassword(passwordHash, password), needsRehash: false };
}

/** argon2id only. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same work as checking a real password, for sign-ins with an unknown email,
 * so that response time does not tell whether an account exists.
 */
export async function verifyAgainstDummyHash(password: string): Promise<false> {
  dummyHash ??= hashPassword('inkwell-dummy-password-for-timing');
  await verifyPassword(await dummyHash, password);
  return false;
}
