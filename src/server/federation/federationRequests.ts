import type { Federation } from '@fedify/fedify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendProblem } from '../http/problem.ts';
import type { RateLimiter, RateLimitRule } from '../rateLimit/rateLimiter.ts';
import type { FederationStore } from './federationStore.ts';

/** As the server's body limit (app.ts): an activity is a small JSON document. */
const ACTIVITY_MAX_BYTES = 64 * 1024;
const ACTIVITY_TYPES = /application\/(activity\+json|ld\+json)/i;

/** Requests Fedify answers: discovery, the actor's paths, and an article asked for as ActivityStreams. */
export function isFederationRequest(method: string, url: string, accept: string | undefined): boolean {
  const path = url.split('?', 1)[0]!;
  if (path === '/.well-known/webfinger' || path === '/.well-known/nodeinfo' || path.startsWith('/nodeinfo/'))
    return true;
  if (path.startsWith('/ap/')) return true;
  return (method === 'GET' || method === 'HEAD') && path.startsWith('/article/') && ACTIVITY_TYPES.test(accept ?? '');
}

/** The host of the key that signed the request (draft-cavage `Signature` or RFC 9421 `Signature-Input`). */
export function signerHost(headers: FastifyRequest['headers']): string | undefined {
  const signature = [headers.signature, headers['signature-input']]
    .filter((value) => typeof value === 'string')
    .join(' ');
  const keyId = /keyid="([^"]{1,2000})"/i.exec(signature)?.[1];
  return keyId ? URL.parse(keyId)?.hostname.toLowerCase() : undefined;
}

/**
 * Hands the fediverse's requests to Fedify before Inkwell's router (an onRequest hook: the
 * article page's URL answers HTML to browsers and an `Article` to servers). Inbox POSTs are
 * limited per remote server (by the signing key's host) and refused from a blocked domain before
 * any work; Fedify verifies the signature (401 when missing or forged) and queues the activity.
 * Whatever goes wrong answers 4xx, never 5xx (DESIGN.md §9.4).
 */
export function registerFederationRequests(
  app: FastifyInstance,
  deps: {
    federation: Federation<void>;
    publicUrl: string;
    store: FederationStore;
    rateLimiter: RateLimiter;
    inboxPerServerPerMinute: number;
  },
): void {
  const rule: RateLimitRule = { name: 'federation:inbox', limit: deps.inboxPerServerPerMinute, windowMs: 60_000 };
  app.addHook('onRequest', async (request, reply) => {
    if (!isFederationRequest(request.method, request.url, request.headers.accept)) return;
    let body: Buffer | undefined;
    if (request.method === 'POST') {
      const host = signerHost(request.headers);
      if (host) {
        if (await deps.store.isDomainBlocked(host)) return sendProblem(reply, 403, 'This server is blocked here.');
        const limited = await deps.rateLimiter.consume(rule, host);
        if (!limited.allowed) {
          reply.header('retry-after', String(limited.retryAfterSeconds));
          return sendProblem(reply, 429, 'Too many activities from your server. Try again later.');
        }
      }
      body = await readBody(request);
      if (body === undefined) return sendProblem(reply, 413, 'The activity is too large.');
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string') headers.set(name, value);
      else if (Array.isArray(value)) headers.set(name, value.join(', '));
    }
    let response: Response;
    try {
      response = await deps.federation.fetch(
        new Request(new URL(request.url, deps.publicUrl), {
          method: request.method,
          headers,
          ...(body ? { body: new Uint8Array(body) } : {}),
        }),
        {
          contextData: undefined,
          onNotFound: () => new Response(null, { status: 404 }),
          onNotAcceptable: () => new Response(null, { status: 406 }),
        },
      );
    } catch (error) {
      request.log.warn({ err: error }, 'a federation request failed');
      return sendProblem(reply, 400, 'The request could not be processed.');
    }
    if (response.status === 404) return sendProblem(reply, 404, 'There is nothing here.');
    if (response.status >= 500) {
      request.log.warn({ status: response.status }, 'fedify answered a server error');
      return sendProblem(reply, 400, 'The request could not be processed.');
    }
    reply.code(response.status);
    response.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'transfer-encoding') reply.header(name, value);
    });
    return reply.send(Buffer.from(await response.arrayBuffer()));
  });
}

/** The request's body, or undefined once it passes the server's body limit. */
async function readBody(request: FastifyRequest): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.raw as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > ACTIVITY_MAX_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
