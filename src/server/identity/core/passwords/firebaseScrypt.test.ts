import { createCipheriv, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { passwordHasher } from './passwordHashing.ts';
import { encodeFirebaseHash, firebaseScryptHash, verifyFirebaseHash } from './firebaseScrypt.ts';

// The published test vectors of the firebase/scrypt reference implementation.
const published = {
  signerKey: Buffer.from(
    'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==',
    'base64',
  ),
  saltSeparator: Buffer.from('Bw==', 'base64'),
  rounds: 8,
  memCost: 14,
};
const salt = Buffer.from('42xEC+ixf3L2lw==', 'base64');
const expected = 'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==';

describe('Firebase modified scrypt', () => {
  it('gives the published hash for the published parameters', async () => {
    expect((await firebaseScryptHash(published, salt, 'user1password')).toString('base64')).toBe(expected);
  });

  it('verifies the stored form of the published hash, and only with the right password', async () => {
    const stored = encodeFirebaseHash(published, salt, Buffer.from(expected, 'base64'));
    expect(passwordHasher.algorithm(stored)).toBe('firebase-scrypt');
    expect(await verifyFirebaseHash(stored, 'user1password')).toBe(true);
    expect(await verifyFirebaseHash(stored, 'user1password ')).toBe(false);
    expect(await passwordHasher.check(stored, 'user1password')).toEqual({ ok: true, needsRehash: true });
    expect(await passwordHasher.check(stored, 'wrong')).toEqual({ ok: false, needsRehash: true });
  });

  it('agrees with an implementation written here from node:crypto', async () => {
    const params = {
      signerKey: Buffer.from('another signer key'),
      saltSeparator: Buffer.from([1, 2]),
      rounds: 4,
      memCost: 10,
    };
    const ownSalt = Buffer.from('a-salt-of-ours');
    const derived = scryptSync('p4ssw0rd', Buffer.concat([ownSalt, params.saltSeparator]), 64, { N: 1024, r: 4, p: 1 });
    const cipher = createCipheriv('aes-256-ctr', derived.subarray(0, 32), Buffer.alloc(16));
    const own = Buffer.concat([cipher.update(params.signerKey), cipher.final()]);
    expect(await firebaseScryptHash(params, ownSalt, 'p4ssw0rd')).toEqual(own);
  });

  it('refuses parameters out of bounds rather than allocating for them', async () => {
    await expect(() => firebaseScryptHash({ ...published, memCost: 16 }, salt, 'x')).rejects.toThrow(/mem_cost/);
    await expect(() => firebaseScryptHash({ ...published, rounds: 17 }, salt, 'x')).rejects.toThrow(/rounds/);
    await expect(() => firebaseScryptHash({ ...published, rounds: 0 }, salt, 'x')).rejects.toThrow(/rounds/);
    // A stored value edited to ask for more is not verified at all.
    const stored = encodeFirebaseHash(published, salt, Buffer.from(expected, 'base64')).replace('m=14', 'm=30');
    expect(await verifyFirebaseHash(stored, 'user1password')).toBe(false);
  });

  it('the largest allowed parameters fit the memory limit it sets', async () => {
    const hash = await firebaseScryptHash({ ...published, rounds: 16, memCost: 15 }, salt, 'x');
    expect(hash.length).toBe(published.signerKey.length);
  });

  it('names no algorithm for an account imported without a password, and lets no password in', async () => {
    expect(passwordHasher.algorithm('')).toBeNull();
    expect(await passwordHasher.check('', '')).toEqual({ ok: false, needsRehash: false });
  });
});
