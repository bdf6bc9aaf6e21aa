import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { z } from 'zod';
import { MAX_PASSKEY_NAME_LENGTH } from '../../shared/passkeyProtocol.ts';

// Issue messages are protocol error codes: the first issue of a failed parse is the answer.
const idToken = z.string({ error: 'INVALID_ID_TOKEN' }).min(1, 'INVALID_ID_TOKEN');
const credentialId = z
  .string({ error: 'PASSKEY_NOT_FOUND' })
  .min(1, 'PASSKEY_NOT_FOUND')
  .max(1024, 'PASSKEY_NOT_FOUND')
  .regex(/^[A-Za-z0-9_-]+$/, 'PASSKEY_NOT_FOUND');

// PostgreSQL text cannot hold NUL, and a lone surrogate has no UTF-8 form: refused, not stored changed.
const passkeyName = z
  .string({ error: 'INVALID_PASSKEY_NAME' })
  .max(1000, 'INVALID_PASSKEY_NAME')
  .refine((name) => !name.includes('\u0000') && name.isWellFormed(), 'INVALID_PASSKEY_NAME')
  .transform((name) => name.trim())
  .refine((name) => name.length >= 1 && name.length <= MAX_PASSKEY_NAME_LENGTH, 'INVALID_PASSKEY_NAME');

/**
 * The browser's answer as @simplewebauthn/browser sends it. Only its outline is checked here;
 * the library verifies every byte of it, and anything it cannot read is an INVALID_PASSKEY.
 */
const ceremonyResponse = z.looseObject(
  {
    id: credentialId,
    rawId: z.string({ error: 'INVALID_PASSKEY' }).max(1024, 'INVALID_PASSKEY'),
    type: z.literal('public-key', { error: 'INVALID_PASSKEY' }),
    response: z.looseObject(
      { clientDataJSON: z.string({ error: 'INVALID_PASSKEY' }).max(16_384, 'INVALID_PASSKEY') },
      { error: 'INVALID_PASSKEY' },
    ),
    clientExtensionResults: z.record(z.string(), z.unknown(), { error: 'INVALID_PASSKEY' }).default({}),
  },
  { error: 'INVALID_PASSKEY' },
);

export const idTokenBody = z.object({ idToken });

export const startSignInBody = z.object({ idToken: idToken.optional() });

export const finishRegistrationBody = z.object({
  idToken,
  credential: ceremonyResponse.transform((value) => value as unknown as RegistrationResponseJSON),
  name: passkeyName.optional(),
});

export const finishSignInBody = z.object({
  credential: ceremonyResponse.transform((value) => value as unknown as AuthenticationResponseJSON),
  // Present for a re-authentication: then only the caller's own passkeys count.
  idToken: idToken.optional(),
});

export const renameBody = z.object({ idToken, credentialId, name: passkeyName });

export const removeBody = z.object({ idToken, credentialId });
