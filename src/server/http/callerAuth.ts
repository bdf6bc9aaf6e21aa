import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Role } from '../../shared/roles.ts';
import { sendProblem } from './problem.ts';

/** What the features behind a Bearer token (articles, pictures) know about a signed-in caller. */
export interface Caller {
  uid: string;
  /** The account's role as the database holds it at this request. */
  role: Role;
}

/**
 * Resolves the caller of a valid token; rejects with TokenRefused (401) or CallerRefused (403).
 * Any other rejection is a fault of ours and surfaces as one, not as a 401.
 */
export type VerifyIdToken = (idToken: string) => Promise<Caller>;

/** The token is refused: bad, expired, revoked, or its account gone or disabled (401). */
export class TokenRefused extends Error {
  override name = 'TokenRefused';
}

/**
 * A valid token whose caller may not act now (a site policy, such as REQUIRE_TWO_STEP): a
 * VerifyIdToken throws it, and the hook answers with its status and message.
 */
export class CallerRefused extends Error {
  override name = 'CallerRefused';
  readonly status: 403;
  constructor(status: 403, message: string) {
    super(message);
    this.status = status;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the callerAuthentication hook on the routes that have it; null elsewhere. */
    caller: Caller | null;
  }
}

/**
 * A hook (a route's `preHandler`, or `onRequest` where nothing of the body may be read before
 * it: uploads) that reads `Authorization: Bearer <ID token>` and verifies it: the caller is then
 * `callerOf(request)`; without a valid token it answers 401 and the handler never runs.
 * `app.decorateRequest('caller', null)` must be called in the routes' plugin (registerCallerAuthentication).
 */
export function callerAuthentication(verifyIdToken: VerifyIdToken) {
  return async function authenticateCaller(request: FastifyRequest, reply: FastifyReply) {
    const header = request.headers.authorization;
    if (header === undefined || header.trim() === '') {
      reply.header('www-authenticate', 'Bearer');
      return sendProblem(reply, 401, 'Sign in first: send your ID token as Authorization: Bearer <token>.');
    }
    const match = /^Bearer[ ]+([^\s]+)[ ]*$/i.exec(header);
    if (match) {
      try {
        const user = await verifyIdToken(match[1]!);
        request.caller = { uid: user.uid, role: user.role };
        return undefined;
      } catch (error) {
        if (error instanceof CallerRefused) return sendProblem(reply, error.status, error.message);
        if (!(error instanceof TokenRefused)) throw error;
      }
    }
    return sendInvalidToken(reply);
  };
}

/** Declares `request.caller` in a plugin whose routes use callerAuthentication; returns the hook. */
export function registerCallerAuthentication(app: FastifyInstance, verifyIdToken: VerifyIdToken) {
  app.decorateRequest('caller', null);
  return callerAuthentication(verifyIdToken);
}

/** The caller the route's callerAuthentication hook verified. */
export function callerOf(request: FastifyRequest): Caller {
  if (request.caller === null) throw new Error(`${request.routeOptions.url} has no caller authentication hook`);
  return request.caller;
}

/** 401 for a token that is refused, or whose account is gone. */
export function sendInvalidToken(reply: FastifyReply) {
  reply.header('www-authenticate', 'Bearer error="invalid_token"');
  return sendProblem(reply, 401, 'Your sign-in is not valid or has expired. Sign in again.');
}
