import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  SESSION_COOKIE_NAME,
  SESSION_MODE_COOKIE_VALUE,
  SESSION_MODE_HEADER,
} from '../../../shared/identityProtocol.ts';
import { SESSION_IDLE_LIFETIME_MS } from '../core/lifetimes.ts';
import { VIEWER_COOKIE_NAME, VIEWER_COOKIE_PATHS } from '../../http/viewerCookie.ts';

/**
 * Browser session mode (docs/architecture.md, Sign-in protocol): the refresh token travels only in an HttpOnly cookie.
 * Cookies are read and written by @fastify/cookie, registered in the /identity scope.
 */
export function isCookieMode(request: FastifyRequest): boolean {
  const value = request.headers[SESSION_MODE_HEADER];
  return typeof value === 'string' && value.trim().toLowerCase() === SESSION_MODE_COOKIE_VALUE;
}

/** The session cookie's refresh token; it only counts with the mode header, which a cross-site form cannot send. */
export function readSessionCookie(request: FastifyRequest): string | undefined {
  if (!isCookieMode(request)) return undefined;
  return request.cookies[SESSION_COOKIE_NAME] || undefined;
}

function cookieOptions(secure: boolean) {
  return { path: '/identity', httpOnly: true, sameSite: 'strict', secure } as const;
}

/** A session as the browser gets it: the refresh token, and the ID token its page loads show. */
export interface CookieSession {
  refreshToken: string;
  idToken: string;
  expiresInSeconds: number;
}

/**
 * Sets the session cookie, and the viewer cookie beside it (http/viewerCookie.ts): the ID token,
 * for the article pages' and editor's documents only, living as long as the token does. Lax, not Strict: an
 * author following a link to their draft from a mail or another site is still themselves.
 */
export function setSessionCookie(reply: FastifyReply, session: CookieSession, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE_NAME, session.refreshToken, {
    ...cookieOptions(secure),
    maxAge: Math.floor(SESSION_IDLE_LIFETIME_MS / 1000),
  });
  for (const path of VIEWER_COOKIE_PATHS) {
    reply.setCookie(VIEWER_COOKIE_NAME, session.idToken, {
      path,
      httpOnly: true,
      sameSite: 'lax',
      secure,
      maxAge: session.expiresInSeconds,
    });
  }
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE_NAME, '', { ...cookieOptions(secure), maxAge: 0 });
  for (const path of VIEWER_COOKIE_PATHS) {
    reply.setCookie(VIEWER_COOKIE_NAME, '', { path, httpOnly: true, sameSite: 'lax', secure, maxAge: 0 });
  }
}
