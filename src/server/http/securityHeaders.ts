import type { FastifyInstance } from 'fastify';

// Article images may come from any http(s) host; everything else is same-origin only.
// No 'unsafe-inline' anywhere: an injected <script> or inline handler never runs.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https: http: data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Adds the security headers every response carries. */
export function registerSecurityHeaders(app: FastifyInstance, options: { https: boolean }) {
  app.addHook('onSend', async (_request, reply) => {
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=()');
    if (options.https) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
  });
}
