import type { FastifyRequest } from 'fastify';
import type { Caller, VerifyIdToken } from './callerAuth.ts';

/**
 * The signed-in person's ID token, as the identity service keeps it in an HttpOnly cookie beside
 * the session cookie for the article pages' and editor's documents (decisions 0830, 0862): a full page load carries
 * no Authorization header, and an author opening their draft must not be answered 404.
 */
export const VIEWER_COOKIE_NAME = 'inkwell_viewer';
/**
 * Only the article pages' and their editor's documents carry it (not the API, not the assets):
 * one cookie of that name per path, set and cleared together. `/article` does not cover
 * `/article-update` (a cookie's path matches whole segments), hence two (decision 0862).
 */
export const VIEWER_COOKIE_PATHS = ['/article', '/article-update'] as const;

// An ID token is a JWT: base64url parts and dots, a few kilobytes at most.
const VIEWER_COOKIE = new RegExp(`(?:^|;\\s*)${VIEWER_COOKIE_NAME}=([A-Za-z0-9._-]{1,8192})(?:;|$)`);

/**
 * Who is loading this page, from the viewer cookie: null without one, and for a token that is
 * expired, revoked, of an account gone or refused by a site policy (the page is a stranger's then).
 */
export function viewerOf(verifyIdToken: VerifyIdToken) {
  return async (request: FastifyRequest): Promise<Caller | null> => {
    const cookie = request.headers.cookie;
    const token = typeof cookie === 'string' ? VIEWER_COOKIE.exec(cookie)?.[1] : undefined;
    if (token === undefined) return null;
    try {
      return await verifyIdToken(token);
    } catch {
      return null;
    }
  };
}
