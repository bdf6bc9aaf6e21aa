import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  SESSION_COOKIE_NAME,
  SESSION_MODE_COOKIE_VALUE,
  SESSION_MODE_HEADER,
} from '../../../shared/identityProtocol.ts';
import { SESSION_IDLE_LIFETIME_MS } from '../core/lifetimes.ts';

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

export function setSessionCookie(reply: FastifyReply, refreshToken: string, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE_NAME, refreshToken, {
    ...cookieOptions(secure),
    maxAge: Math.floor(SESSION_IDLE_LIFETIME_MS / 1000),
  });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE_NAME, '', { ...cookieOptions(secure), maxAge: 0 });
}
