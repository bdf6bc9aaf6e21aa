import { hash, verify, type Algorithm } from '@node-rs/argon2';

// The package's Algorithm is an ambient const enum, unusable under type stripping; 2 is Argon2id.
const ARGON2ID = 2 as Algorithm;

// OWASP's argon2id baseline: 19 MiB, 2 passes, one lane.
const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** Constant-time comparison is done inside argon2's verify. */
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
