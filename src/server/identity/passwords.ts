import { FIREBASE_SCRYPT_PREFIX, verifyFirebaseHash } from '../firebaseImport/firebaseScrypt.ts';
import { createPasswordHasher, type PasswordVerifier } from './core/passwordHashing.ts';

/** Firebase's modified scrypt, kept by imported accounts until their first sign-in (decision 0060). */
export const firebaseScryptVerifier: PasswordVerifier = {
  name: 'firebase-scrypt',
  recognises: (stored) => stored.startsWith(FIREBASE_SCRYPT_PREFIX),
  verify: verifyFirebaseHash,
};

/** The algorithms this installation verifies: argon2id, and the Firebase hash of the import. */
export const passwordHasher = createPasswordHasher([firebaseScryptVerifier]);
