import type { LoggerOptions } from 'pino';

// Query parameters that carry credentials (reset codes and invitations in links, API keys, tokens,
// a provider's code and state).
const SECRET_QUERY_PARAMS = /^(oobcode|code|state|invite|token|key|refresh_token|id_token|access_token|password)$/i;

/** The path and query of a URL with secret parameter values replaced, safe for a log line. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  // Most queries (?limit=20) name nothing secret: skip parsing them. Escapes could spell a
  // secret name, so any '%' or '+' takes the full path.
  const query = url.slice(queryStart + 1);
  if (!/[%+]/.test(query) && !query.split('&').some((pair) => SECRET_QUERY_PARAMS.test(pair.split('=')[0]!))) {
    return url;
  }
  const params = new URLSearchParams(url.slice(queryStart + 1));
  for (const name of new Set(params.keys())) {
    if (SECRET_QUERY_PARAMS.test(name)) params.set(name, '[redacted]');
  }
  return `${url.slice(0, queryStart)}?${params.toString()}`;
}

/** pino options for Fastify: JSON lines, request ids, and nothing secret. */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        '*.password',
        '*.newPassword',
        '*.idToken',
        '*.refreshToken',
        '*.refresh_token',
        '*.oobCode',
        '*.token',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (request: { method: string; url: string; ip?: string }) => ({
        method: request.method,
        url: redactUrl(request.url),
        remoteAddress: request.ip,
      }),
    },
  };
}
