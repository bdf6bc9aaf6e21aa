import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { FIREBASE_SCRYPT_PREFIX, verifyFirebaseHash } from './firebaseScrypt.ts';

// The package's Algorithm is an ambient const enum, unusable under type stripping; 2 is Argon2id.
const ARGON2ID = 2 as Algorithm;

// OWASP's argon2id baseline: 19 MiB, 2 passes, one lane.
const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/** argon2id: how every password is hashed today. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** argon2id only. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * One algorithm a stored hash may be in. Stored hashes describe themselves (decision 0060), so
 * `recognises` tells whose a stored value is. Constant-time comparison is the verifier's job.
 */
export interface PasswordVerifier {
  name: string;
  recognises(stored: string): boolean;
  verify(stored: string, password: string): Promise<boolean>;
}

export const argon2idVerifier: PasswordVerifier = {
  name: 'argon2id',
  recognises: (stored) => stored.startsWith('$argon2id$'),
  verify: verifyPassword,
};

/** The core's one door to passwords: hashes with argon2id, verifies any algorithm it was given. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /**
   * Whether the password matches, and whether the stored value should be replaced by an
   * argon2id hash (done in the sign-in's own transaction). A stored '' (an account imported
   * without a password) lets nothing in and costs as much as a real check.
   */
  check(stored: string, password: string): Promise<{ ok: boolean; needsRehash: boolean }>;
  /** The algorithm a stored value names; null for no password at all. */
  algorithm(stored: string): string | null;
  /** Spends the work of a real check, for unknown emails, so timing does not reveal accounts. */
  checkNobody(password: string): Promise<false>;
}

export function createPasswordHasher(others: PasswordVerifier[] = []): PasswordHasher {
  const verifiers = [argon2idVerifier, ...others];
  let dummyHash: Promise<string> | undefined;
  const checkNobody = async (password: string): Promise<false> => {
    dummyHash ??= hashPassword('inkwell-dummy-password-for-timing');
    await verifyPassword(await dummyHash, password);
    return false;
  };
  const verifierOf = (stored: string) => verifiers.find((verifier) => verifier.recognises(stored));
  return {
    hash: hashPassword,
    async check(stored, password) {
      const verifier = verifierOf(stored);
      if (!verifier) return { ok: await checkNobody(password), needsRehash: false };
      return { ok: await verifier.verify(stored, password), needsRehash: verifier !== argon2idVerifier };
    },
    algorithm: (stored) => verifierOf(stored)?.name ?? null,
    checkNobody,
  };
}

/** Firebase's modified scrypt, kept by imported accounts until their first sign-in (decision 0060). */
export const firebaseScryptVerifier: PasswordVerifier = {
  name: 'firebase-scrypt',
  recognises: (stored) => stored.startsWith(FIREBASE_SCRYPT_PREFIX),
  verify: verifyFirebaseHash,
};

/** The algorithms this installation verifies: argon2id, and the Firebase hash of the import. */
export const passwordHasher = createPasswordHasher([firebaseScryptVerifier]);
