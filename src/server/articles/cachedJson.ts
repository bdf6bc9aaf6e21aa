import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A serialised public JSON read and its validator, ready to send again and again. */
export interface JsonResource {
  /** UTF-8 bytes: encoded once, not on every send. */
  body: Buffer;
  etag: string;
}

/** The tag is weak because compression changes the bytes on the wire, not the content. */
export function toJsonResource(payload: unknown): JsonResource {
  const body = Buffer.from(JSON.stringify(payload), 'utf8');
  return { body, etag: `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/**
 * Sends a public JSON read with its validator, so a client that already holds these exact
 * bytes gets 304 and no body. `no-cache` makes every use revalidate: articles change.
 */
export function sendJsonResource(request: FastifyRequest, reply: FastifyReply, resource: JsonResource) {
  reply.header('cache-control', 'no-cache').header('etag', resource.etag);
  if (matchesEtag(request.headers['if-none-match'], resource.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(resource.body);
}

// If-None-Match compares weakly (RFC 9110 §13.1.2): W/"x" and "x" are the same tag.
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}
