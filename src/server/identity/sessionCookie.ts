import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE_NAME, SESSION_MODE_COOKIE_VALUE, SESSION_MODE_HEADER } from '../../shared/identityProtocol.ts';
import { SESSION_IDLE_LIFETIME_MS } from './sessionsRepository.ts';

/** Browser session mode: the refresh token travels only in an HttpOnly cookie. */
export function isCookieMode(request: FastifyRequest): boolean {
  const value = request.headers[SESSION_MODE_HEADER];
  return typeof value === 'string' && value.trim().toLowerCase() === SESSION_MODE_COOKIE_VALUE;
}

/** The value of one cookie from the Cookie header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator === -1) continue;
    if (part.slice(0, separator).trim() !== name) continue;
    const value = part.slice(separator + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function readSessionCookie(request: FastifyRequest): string | undefined {
  return readCookie(request.headers.cookie, SESSION_COOKIE_NAME);
}

function cookieAttributes(secure: boolean): string {
  return `Path=/identity; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

export function setSessionCookie(reply: FastifyReply, refreshToken: string, secure: boolean): void {
  const maxAge = Math.floor(SESSION_IDLE_LIFETIME_MS / 1000);
  reply.header('set-cookie', `${SESSION_COOKIE_NAME}=${refreshToken}; Max-Age=${maxAge}; ${cookieAttributes(secure)}`);
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.header('set-cookie', `${SESSION_COOKIE_NAME}=; Max-Age=0; ${cookieAttributes(secure)}`);
}
