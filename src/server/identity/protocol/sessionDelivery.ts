import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MfaEnrollment, PendingSecondStepResponse } from '../../../shared/identityProtocol.ts';
import type { Config } from '../../config.ts';
import type { SecondFactorInfo, SignInResult } from '../core/signIn/signInAttempt.ts';
import type { IssuedSession } from '../core/sessions/sessionIssuer.ts';
import type { Origin } from '../core/origin.ts';
import { isCookieMode, readSessionCookie, setSessionCookie } from './sessionCookie.ts';

/** Tokens as the protocol's sign-in answers carry them. */
export interface DeliveredTokens {
  idToken: string;
  /** Absent in browser session mode: the refresh token went into the cookie. */
  refreshToken?: string;
  expiresIn: string;
}

/** The protocol's side of sessions: which one a browser replaces, and how the new one reaches the client. */
export function sessionDelivery(config: Config) {
  const secure = config.publicUrl.startsWith('https:');
  return {
    secure,
    /**
     * The browser's current session, which a session issued now replaces: nobody holds it once
     * the cookie is overwritten (re-authentication, email change, another account signing in).
     */
    replaced: (request: FastifyRequest): string | undefined => readSessionCookie(request),

    deliver(request: FastifyRequest, reply: FastifyReply, issued: IssuedSession): DeliveredTokens {
      const expiresIn = String(issued.expiresInSeconds);
      if (isCookieMode(request)) {
        setSessionCookie(reply, issued, secure);
        return { idToken: issued.idToken, expiresIn };
      }
      return { idToken: issued.idToken, refreshToken: issued.refreshToken, expiresIn };
    },
  };
}

export type SessionDelivery = ReturnType<typeof sessionDelivery>;

/** The core's view of a request: its client address and its logger (with the request id). */
export const originOf = (request: FastifyRequest): Origin => ({ ip: request.ip, log: request.log });

/** The account and its new tokens, as every answer that starts a session carries them. */
export function accountWithTokens(
  delivery: SessionDelivery,
  request: FastifyRequest,
  reply: FastifyReply,
  issued: IssuedSession,
) {
  return {
    localId: issued.user.id,
    email: issued.user.email,
    displayName: issued.user.display_name ?? '',
    ...delivery.deliver(request, reply, issued),
  };
}

/** An enrolled second factor as Firebase's `mfaInfo` lists it. */
export function mfaEnrollment(factor: SecondFactorInfo): MfaEnrollment {
  return {
    mfaEnrollmentId: factor.enrollmentId,
    ...(factor.displayName !== null ? { displayName: factor.displayName } : {}),
    enrolledAt: new Date(factor.enrolledAt).toISOString(),
    ...(factor.kind === 'totp' ? { totpInfo: {} } : {}),
  };
}

/**
 * The answer of a sign-in, whatever its method (as signInWithPassword): the account and its
 * tokens, or, when a second step is needed, Firebase's `mfaPendingCredential` and `mfaInfo`
 * with no token at all.
 */
export function signInAnswer(
  delivery: SessionDelivery,
  request: FastifyRequest,
  reply: FastifyReply,
  result: SignInResult,
) {
  const kind = 'identitytoolkit#VerifyPasswordResponse';
  if (result.kind === 'pendingSecondStep') {
    const pending: PendingSecondStepResponse = {
      kind,
      localId: result.user.id,
      email: result.user.email,
      displayName: result.user.display_name ?? '',
      registered: true as const,
      mfaPendingCredential: result.pendingCredential,
      mfaInfo: result.factors.map(mfaEnrollment),
    };
    return pending;
  }
  return { kind, ...accountWithTokens(delivery, request, reply, result.session), registered: true as const };
}
