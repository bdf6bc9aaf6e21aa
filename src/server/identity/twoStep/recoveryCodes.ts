import { randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '../../../shared/twoStepProtocol.ts';
import { hashSecret } from '../core/opaqueSecrets.ts';

// No 0/o, 1/l/i: codes are read off paper and typed by hand.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const LENGTH = 10; // 10 characters of 31: about 50 bits each, so a fast hash is enough

/** Ten new recovery codes, shown as `xxxxx-xxxxx`. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let code = '';
    for (let index = 0; index < LENGTH; index++) code += ALPHABET[randomInt(ALPHABET.length)];
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/** What is stored for a code, and what a typed one is looked up by (case, spaces and dashes ignored). */
export function recoveryCodeHash(typed: string): string {
  return hashSecret(typed.toLowerCase().replace(/[\s-]/g, ''));
}

/** Whether typed text could be a recovery code at all (so junk is not looked up). */
export const isRecoveryCodeShaped = (typed: string): boolean =>
  /^[a-z0-9]{10}$/.test(typed.toLowerCase().replace(/[\s-]/g, ''));
