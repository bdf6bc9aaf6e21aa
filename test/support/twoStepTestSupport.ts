import { Secret, TOTP } from 'otpauth';
import type { identityClient } from './identityTestClient.ts';
import type { SmtpSink } from './smtpSink.ts';

/** The authenticator app's code for `secret` (base32) at `at` (epoch ms): what a phone would show. */
export function totpCode(secret: string, at: number): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: at });
}

/** A code for the same secret that is wrong now (the code of ten minutes ago). */
export function wrongTotpCode(secret: string, at: number): string {
  const stale = totpCode(secret, at - 10 * 60 * 1000);
  return stale === totpCode(secret, at) ? String((Number(stale) + 1) % 1_000_000).padStart(6, '0') : stale;
}

/** Signs up and verifies the address through the link the sink received; answers the sign-up's tokens. */
export async function signUpVerified(
  client: ReturnType<typeof identityClient>,
  sink: SmtpSink,
  email: string,
  password: string,
): Promise<{ localId: string; idToken: string; refreshToken: string }> {
  const before = sink.messages.length;
  const signedUp = await client.signUp(email, password);
  if (signedUp.status !== 200) throw new Error(`sign-up failed: ${signedUp.text}`);
  const mail = await sink.waitForMail(email, { after: before, subject: /Verify/ });
  const match = /mode=verifyEmail&oobCode=([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match) throw new Error('no verification link in the email');
  const applied = await client.call('/v1/accounts:update', { oobCode: match[1] });
  if (applied.status !== 200) throw new Error(`verification failed: ${applied.text}`);
  return signedUp.body as { localId: string; idToken: string; refreshToken: string };
}
