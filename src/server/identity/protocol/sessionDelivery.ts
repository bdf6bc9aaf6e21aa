import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { IssuedSession } from '../core/sessionIssuer.ts';
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
        setSessionCookie(reply, issued.refreshToken, secure);
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

/** The answer of a sign-in (password or passkey, as signInWithPassword). */
export function signInAnswer(
  delivery: SessionDelivery,
  request: FastifyRequest,
  reply: FastifyReply,
  issued: IssuedSession,
) {
  return {
    kind: 'identitytoolkit#VerifyPasswordResponse',
    ...accountWithTokens(delivery, request, reply, issued),
    registered: true as const,
  };
}
