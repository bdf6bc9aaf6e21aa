import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { can, type Action } from '../../shared/roles.ts';
import { callerAuthentication, callerOf, type Caller, type VerifyIdToken } from './callerAuth.ts';
import { sendProblem } from './problem.ts';
import { problemErrorHandler } from './requestErrors.ts';

/** Who may call a route of the `/api` scope, declared in its options (`...signedIn`, `...requires(action)`). */
export type Access = { signedIn: true } | { action: Action; refusal: string };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Read by the `/api` scope when the route is added: the checks run before its handler. */
    access?: Access;
  }
  interface FastifyInstance {
    /** The `/api` scope's Bearer token check (callerIfSignedIn uses it where a token is optional). */
    authenticateCaller: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  }
}

const NOT_ALLOWED = 'Your role does not allow this.';

/** Route options of a route for any signed-in caller: 401 without a valid ID token. */
export const signedIn = { config: { access: { signedIn: true } } } as const satisfies { config: { access: Access } };

/**
 * Route options of a route for the roles that may do `action` (shared/roles.ts, `can`): 401
 * without a valid ID token, then 403 with `refusal` for any other role, before the body or
 * anything stored is looked at.
 */
export function requires(action: Action, refusal: string = NOT_ALLOWED): { config: { access: Access } } {
  return { config: { access: { action, refusal } } };
}

/** The 404 of every `/api` path no route (or no enabled feature) answers: problem+json, never the web app's shell. */
export function sendNoEndpoint(request: FastifyRequest, reply: FastifyReply) {
  return sendProblem(
    reply,
    404,
    `There is no API endpoint ${request.method} ${request.url.split('?')[0]!.slice(0, 200)}.`,
  );
}

/**
 * For reads public only in part: the caller when a token was sent, else null; undefined when a
 * bad token has been answered 401. Public requests pay nothing for it (no hook runs).
 */
export async function callerIfSignedIn(
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<Caller | null | undefined> {
  if (request.headers.authorization === undefined) return null;
  await request.server.authenticateCaller(request, reply);
  return reply.sent ? undefined : callerOf(request);
}

/**
 * The `/api` scope (register with { prefix: '/api' }), as `/identity` has one: what every API
 * route shares is set here once, and the features' route plugins are registered inside it.
 * - JSON bodies only: a body of any other type is 415 whoever owns the route (without this,
 *   Fastify's built-in text/plain parser would hand text to handlers).
 * - Unknown paths are problem+json 404s: the catch-all routes outrank the static files'
 *   GET /* wildcard, which would otherwise serve the web app's shell.
 * - Errors are problem+json (requestErrors.ts).
 * - `access` in a route's config (signedIn, requires) puts the token and permission checks
 *   first among its preHandlers.
 */
export function apiScope(deps: {
  verifyIdToken: VerifyIdToken;
  features: readonly FastifyPluginAsync[];
}): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('application/json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));
    app.setErrorHandler(problemErrorHandler);
    app.setNotFoundHandler(sendNoEndpoint);
    app.all('/', sendNoEndpoint);
    app.all('/*', sendNoEndpoint);

    const authenticate = callerAuthentication(deps.verifyIdToken);
    app.decorateRequest('caller', null);
    app.decorate('authenticateCaller', authenticate);
    app.addHook('onRoute', (route) => {
      const access = route.config?.access;
      if (!access) return;
      const checks: preHandlerHookHandler[] = [authenticate];
      if ('action' in access) {
        const { action, refusal } = access;
        checks.push(async (request, reply) => {
          if (!can(callerOf(request).role, action)) return sendProblem(reply, 403, refusal);
          return undefined;
        });
      }
      const own =
        route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
      route.preHandler = [...checks, ...own];
    });

    for (const feature of deps.features) await app.register(feature);
  };
}
