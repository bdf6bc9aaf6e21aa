import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as authenticator apps and the Firebase SDK expect it (DESIGN §8.4). */
export const TOTP_PARAMETERS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
const SECRET_BYTES = 20; // 160 bits, RFC 4226's recommendation
/** One step of drift either way: a phone's clock a little off, or a code typed as it changed. */
const DRIFT_STEPS = 1;

/** A new shared secret, base32 (what apps and `otpauth://` URIs take). */
export function newTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32;
}

/** The time step (RFC 6238's T) of an instant. */
export const timeStep = (at: number): number => Math.floor(at / 1000 / TOTP_PARAMETERS.period);

/**
 * The time step a code belongs to, or undefined when it is not the code of the current step or
 * of one step either side. The caller refuses a step already used (no replay).
 */
export function matchingStep(secret: string, code: string, at: number): number | undefined {
  const delta = TOTP.validate({
    token: code,
    secret: Secret.fromBase32(secret),
    ...TOTP_PARAMETERS,
    timestamp: at,
    window: DRIFT_STEPS,
  });
  return delta === null ? undefined : timeStep(at) + delta;
}
