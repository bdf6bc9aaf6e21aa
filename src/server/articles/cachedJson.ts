import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Below this many bytes a body goes out as it is (the compression plugin's threshold too). */
const COMPRESSION_THRESHOLD_BYTES = 1024;

type ContentCoding = 'br' | 'gzip';

/** A serialised public JSON read and its validator, ready to send again and again. */
export interface JsonResource {
  /** UTF-8 bytes: encoded once, not on every send. */
  body: Buffer;
  etag: string;
  /** The body compressed per content coding, made on first request and kept with the resource. */
  encoded: Partial<Record<ContentCoding, Promise<Buffer>>>;
}

/**
 * An upper bound of the memory a resource holds: its body and, at most, one compressed copy
 * per coding, none larger than the body (compressors fall back to near-stored blocks).
 */
export function jsonResourceBytes(resource: JsonResource | null): number {
  return resource === null ? 64 : resource.body.length * 3 + 256;
}

/** The tag is weak because compression changes the bytes on the wire, not the content. */
export function toJsonResource(payload: unknown): JsonResource {
  const body = Buffer.from(JSON.stringify(payload), 'utf8');
  return { body, etag: `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`, encoded: {} };
}

/**
 * Sends a public JSON read with its validator, so a client that already holds these exact
 * bytes gets 304 and no body. `no-cache` makes every use revalidate: articles change.
 * The body is compressed once per coding and kept with the resource (which the read cache
 * holds), instead of by the compression plugin on every send: compressing a list page was
 * most of the CPU of serving it to a browser (bench/README.md). A Content-Encoding already
 * set makes the plugin leave the bytes alone.
 */
export async function sendJsonResource(request: FastifyRequest, reply: FastifyReply, resource: JsonResource) {
  reply.header('cache-control', 'no-cache').header('etag', resource.etag);
  if (matchesEtag(request.headers['if-none-match'], resource.etag)) return reply.code(304).send();
  reply.type('application/json; charset=utf-8');
  if (resource.body.length < COMPRESSION_THRESHOLD_BYTES) return reply.send(resource.body);
  reply.header('vary', 'accept-encoding');
  const coding = preferredCoding(request.headers['accept-encoding']);
  if (coding === undefined) return reply.send(resource.body);
  const encoded = await (resource.encoded[coding] ??= compress(coding, resource.body));
  return reply.header('content-encoding', coding).send(encoded);
}

const brotliCompress = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Compressed on libuv's thread pool, never on the event loop: a 100-article page of long
 * articles is megabytes, and compressing ten at once on the loop held every other request
 * (/healthz took 550 ms; test/reliability/anonymousMemory.reliability.test.ts).
 */
function compress(coding: ContentCoding, body: Buffer): Promise<Buffer> {
  // Made once per cached resource, so a little more effort than the plugin's per-request default.
  return coding === 'br'
    ? brotliCompress(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 6,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : gzip(body, { level: 6 });
}

/**
 * The coding to answer in from Accept-Encoding (RFC 9110 §12.5.3): brotli, then gzip, among
 * those the client accepts with a q-value above 0 (`*` stands for any not listed); none
 * (identity) when it names neither or has no header.
 */
export function preferredCoding(header: string | undefined): ContentCoding | undefined {
  if (header === undefined || header === '') return undefined;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...parameters] = part.split(';');
    const coding = name!.trim().toLowerCase();
    if (coding === '') continue;
    let q = 1;
    for (const parameter of parameters) {
      const [key, value] = parameter.split('=');
      if (key?.trim().toLowerCase() === 'q') q = Number(value?.trim());
    }
    weights.set(coding, Number.isFinite(q) ? q : 0);
  }
  const weightOf = (coding: string) => weights.get(coding) ?? weights.get('*') ?? 0;
  const br = weightOf('br');
  const gzip = Math.max(weightOf('gzip'), weights.get('x-gzip') ?? 0);
  if (br > 0 && br >= gzip) return 'br';
  if (gzip > 0) return 'gzip';
  return undefined;
}

// If-None-Match compares weakly (RFC 9110 §13.1.2): W/"x" and "x" are the same tag.
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}
