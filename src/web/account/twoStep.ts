import type { LookupUser } from '../../shared/identityProtocol.ts';
import type {
  FinalizeTotpEnrollmentResponse,
  MfaInfo,
  StartTotpEnrollmentResponse,
} from '../../shared/twoStepProtocol.ts';
import type { AuthSession } from '../auth/authSession.ts';
import { AuthError } from '../auth/errorCodes.ts';
import { accountSessionOf } from '../auth/accountSession.ts';

/** The profile's calls of the multi-factor protocol (DESIGN §8.4). */

async function requireToken(session: AuthSession): Promise<string> {
  const idToken = await session.getIdToken();
  if (idToken === null) throw new AuthError('no-current-user');
  return idToken;
}

/** The account's factor, or null when two-step verification is off. */
export async function twoStepFactor(session: AuthSession): Promise<MfaInfo | null> {
  const idToken = await requireToken(session);
  const answer = await accountSessionOf(session).callIdentity<{ users?: LookupUser[] }>('v1/accounts:lookup', {
    idToken,
  });
  return answer.users?.[0]?.mfaInfo?.[0] ?? null;
}

export interface StartedEnrollment {
  secret: string;
  sessionInfo: string;
}

export async function startEnrollment(session: AuthSession): Promise<StartedEnrollment> {
  const idToken = await requireToken(session);
  const answer = await accountSessionOf(session).callIdentity<StartTotpEnrollmentResponse>(
    'v2/accounts/mfaEnrollment:start',
    {
      idToken,
      totpEnrollmentInfo: {},
    },
  );
  return { secret: answer.totpSessionInfo.sharedSecretKey, sessionInfo: answer.totpSessionInfo.sessionInfo };
}

/** Turns two-step on with the app's first code; answers the recovery codes (shown once). */
export async function finishEnrollment(session: AuthSession, started: StartedEnrollment, code: string) {
  const idToken = await requireToken(session);
  const answer = await accountSessionOf(session).callIdentity<FinalizeTotpEnrollmentResponse>(
    'v2/accounts/mfaEnrollment:finalize',
    {
      idToken,
      displayName: 'Authenticator app',
      totpVerificationInfo: { sessionInfo: started.sessionInfo, verificationCode: code },
    },
  );
  accountSessionOf(session).adoptNewTokens(answer);
  return answer.recoveryCodes;
}

/** Turns two-step off; the server ends the account's other sessions and answers this one's new tokens. */
export async function withdraw(session: AuthSession, enrollmentId: string): Promise<void> {
  const idToken = await requireToken(session);
  const answer = await accountSessionOf(session).callIdentity<{ idToken: string; expiresIn: string }>(
    'v2/accounts/mfaEnrollment:withdraw',
    { idToken, mfaEnrollmentId: enrollmentId },
  );
  accountSessionOf(session).adoptNewTokens(answer);
}

/** The `otpauth://` URI authenticator apps scan (Google's key URI format). */
export function otpauthUri(secret: string, email: string, issuer: string): string {
  const label = encodeURIComponent(`${issuer}:${email}`);
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=6&period=30`;
}
