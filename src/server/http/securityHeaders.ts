import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

// Article images may come from any http(s) host; everything else is same-origin only.
// No 'unsafe-inline' anywhere: an injected <script> or inline handler never runs.
export const CONTENT_SECURITY_POLICY_DIRECTIVES = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'https:', 'http:', 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/**
 * Helmet's settings: our policy and only the headers we chose. Helmet's other defaults are off
 * on purpose: Cross-Origin-Resource-Policy: same-origin would stop other sites' feed readers
 * from showing our images, and the rest are for browsers we do not support.
 */
function helmetOptions(https: boolean): HelmetOptions {
  return {
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY_DIRECTIVES },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: false,
    originAgentCluster: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Only over https: a browser ignores it on http, and on localhost it would pin https.
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: { action: 'deny' },
    xPermittedCrossDomainPolicies: false,
    xPoweredBy: false,
    xXssProtection: false,
  };
}

// Helmet has no Permissions-Policy.
const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=()';

/**
 * The security headers as name/value pairs, made once: helmet (the source of their values) is run
 * against a recorder at start-up instead of on every response. Its middleware rebuilt the
 * Content-Security-Policy string and set each header through the checks of Node's setHeader on
 * every request (bench/README.md, profile of a cached list read). None of our headers depends on
 * the request, so one list serves every answer.
 */
export function securityHeaderList(https: boolean): ReadonlyArray<readonly [string, string]> {
  const headers: Array<[string, string]> = [];
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers.push([name.toLowerCase(), String(value)]);
    },
    removeHeader() {},
    getHeader: () => undefined,
  };
  let finished = false;
  helmet(helmetOptions(https))({} as IncomingMessage, recorder as unknown as ServerResponse, () => (finished = true));
  // A future helmet that works asynchronously or per request would leave this list short: fail at start-up.
  if (!finished || headers.length === 0) throw new Error('helmet did not set its headers synchronously');
  headers.push(['permissions-policy', PERMISSIONS_POLICY]);
  return headers;
}

/**
 * Adds the security headers and the request id to every response. Built once, set from one hook
 * in callback style, not through @fastify/helmet, which builds helmet again on every request
 * behind an async hook: that cost a quarter of the throughput of a bare route (docs/decisions/0120).
 * Returns the same step for answers sent where no hook runs (the router's own errors).
 */
export function registerResponseHeaders(
  app: FastifyInstance,
  options: { https: boolean },
): (request: FastifyRequest, reply: FastifyReply) => void {
  const headers = securityHeaderList(options.https);
  const apply = (request: FastifyRequest, reply: FastifyReply) => {
    // Written to the raw response, as helmet did: headers a route set on the reply still win.
    const raw = reply.raw;
    for (const [name, value] of headers) raw.setHeader(name, value);
    reply.header('x-request-id', request.id);
  };
  app.addHook('onSend', (request, reply, payload, done) => {
    apply(request, reply);
    done(null, payload);
  });
  return apply;
}
