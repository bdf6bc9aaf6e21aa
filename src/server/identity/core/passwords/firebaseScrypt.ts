import { createCipheriv, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Firebase Auth's modified scrypt (the algorithm of the firebase/scrypt reference): scrypt of
 * the password with salt + salt separator (N = 2^mem_cost, r = rounds, p = 1, 64 bytes), then
 * the project's signer key encrypted with AES-256-CTR (zero IV) under the first 32 bytes of
 * that key. The result is the stored hash.
 */
export interface FirebaseHashParameters {
  signerKey: Buffer;
  saltSeparator: Buffer;
  rounds: number;
  memCost: number;
}

/** Bounds on a file's parameters: Firebase uses rounds 8, mem_cost 14; the largest allowed needs 64 MiB. */
export const ROUNDS_RANGE = { min: 1, max: 16 } as const;
export const MEM_COST_RANGE = { min: 1, max: 15 } as const;

const DERIVED_KEY_BYTES = 64;
const MAX_PART_BYTES = 1024;

export const FIREBASE_SCRYPT_PREFIX = '$firebase-scrypt$';

/** The raw modified-scrypt hash of a password. */
export async function firebaseScryptHash(
  params: FirebaseHashParameters,
  salt: Buffer,
  password: string,
): Promise<Buffer> {
  checkBounds(params);
  const N = 2 ** params.memCost;
  const r = params.rounds;
  // scrypt needs 128 * N * r bytes; Node refuses above maxmem (32 MiB by default), so it is
  // set from the bounded parameters: at most 64 MiB plus slack.
  const maxmem = 128 * N * r + 1024 * 1024;
  return new Promise((resolve, reject) => {
    scrypt(
      Buffer.from(password, 'utf8'),
      Buffer.concat([salt, params.saltSeparator]),
      DERIVED_KEY_BYTES,
      { N, r, p: 1, maxmem },
      (error, derived) => {
        if (error) return reject(error);
        const cipher = createCipheriv('aes-256-ctr', derived.subarray(0, 32), Buffer.alloc(16));
        resolve(Buffer.concat([cipher.update(params.signerKey), cipher.final()]));
      },
    );
  });
}

export function checkBounds(params: Pick<FirebaseHashParameters, 'rounds' | 'memCost'>): void {
  const inRange = (value: number, range: { min: number; max: number }) =>
    Number.isInteger(value) && value >= range.min && value <= range.max;
  if (!inRange(params.rounds, ROUNDS_RANGE)) {
    throw new RangeError(`rounds must be a whole number from ${ROUNDS_RANGE.min} to ${ROUNDS_RANGE.max}`);
  }
  if (!inRange(params.memCost, MEM_COST_RANGE)) {
    throw new RangeError(`mem_cost must be a whole number from ${MEM_COST_RANGE.min} to ${MEM_COST_RANGE.max}`);
  }
}

/**
 * The stored form names its algorithm and carries everything needed to verify it:
 * $firebase-scrypt$r=ROUNDS,m=MEM_COST$SIGNER_KEY$SALT_SEPARATOR$SALT$HASH (standard base64).
 */
export function encodeFirebaseHash(params: FirebaseHashParameters, salt: Buffer, hash: Buffer): string {
  return (
    `${FIREBASE_SCRYPT_PREFIX}r=${params.rounds},m=${params.memCost}$` +
    [params.signerKey, params.saltSeparator, salt, hash].map((part) => part.toString('base64')).join('$')
  );
}

interface DecodedFirebaseHash {
  params: FirebaseHashParameters;
  salt: Buffer;
  hash: Buffer;
}

const STORED_PATTERN =
  /^\$firebase-scrypt\$r=(\d{1,2}),m=(\d{1,2})\$([A-Za-z0-9+/=]*)\$([A-Za-z0-9+/=]*)\$([A-Za-z0-9+/=]*)\$([A-Za-z0-9+/=]+)$/;

function decodeFirebaseHash(stored: string): DecodedFirebaseHash | undefined {
  const match = STORED_PATTERN.exec(stored);
  if (!match) return undefined;
  const [, rounds, memCost, signerKey, separator, salt, hash] = match;
  const params = {
    rounds: Number(rounds),
    memCost: Number(memCost),
    signerKey: Buffer.from(signerKey!, 'base64'),
    saltSeparator: Buffer.from(separator!, 'base64'),
  };
  try {
    checkBounds(params);
  } catch {
    return undefined;
  }
  if ([params.signerKey, params.saltSeparator].some((part) => part.length > MAX_PART_BYTES)) return undefined;
  return { params, salt: Buffer.from(salt!, 'base64'), hash: Buffer.from(hash!, 'base64') };
}

/** True when the password gives the stored hash; compared in constant time. */
export async function verifyFirebaseHash(stored: string, password: string): Promise<boolean> {
  const decoded = decodeFirebaseHash(stored);
  if (!decoded) return false;
  const computed = await firebaseScryptHash(decoded.params, decoded.salt, password);
  return computed.length === decoded.hash.length && timingSafeEqual(computed, decoded.hash);
}
