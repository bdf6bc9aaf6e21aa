import { createHash, type Hash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createProcessingSlots } from './processingSlots.ts';

/** Below this many bytes a body goes out as it is (the compression plugin's threshold too). */
const COMPRESSION_THRESHOLD_BYTES = 1024;

export type ContentCoding = 'br' | 'gzip';

/** A serialised public read (JSON, XML, HTML) and its validator, ready to send again and again. */
export interface JsonResource {
  /** UTF-8 bytes: encoded once, not on every send. */
  body: Buffer;
  etag: string;
  contentType: string;
  /** True for a page made for one request and not kept (a cursor the server did not hand out). */
  sentOnce?: boolean;
  /** Set when only the compressed copy in this coding was kept (the body was let go). */
  onlyCoding?: ContentCoding;
  /** The body compressed per content coding, made on first request and kept with the resource. */
  encoded: Partial<Record<ContentCoding, Promise<Buffer>>>;
}

/**
 * An upper bound of the memory a resource holds: its body and, at most, one compressed copy
 * per coding, none larger than the body (compressors fall back to near-stored blocks).
 */
export function jsonResourceBytes(resource: JsonResource | null): number {
  // A read model kept beside the bytes (ArticleResource) holds the same texts again, as UTF-16.
  return resource === null ? 64 : resource.body.length * ('article' in resource ? 5 : 3) + 256;
}

const JSON_TYPE = 'application/json; charset=utf-8';

export function toJsonResource(payload: unknown): JsonResource {
  return toResource(JSON.stringify(payload), JSON_TYPE);
}

/** The tag is weak because compression changes the bytes on the wire, not the content. */
export function toResource(text: string, contentType: string): JsonResource {
  const body = Buffer.from(text, 'utf8');
  return { body, etag: weakTag(createHash('sha256').update(body)), contentType, encoded: {} };
}

const weakTag = (hash: Hash) => `W/"${hash.digest('base64url').slice(0, 27)}"`;

/** Items serialised between two turns of the event loop. */
const ITEMS_PER_STEP = 10;

/**
 * `{"<field>":[...items],...rest}` as toJsonResource would make it, serialised a few items at a
 * time with a turn of the event loop between: 100 long articles are megabytes, and turning them
 * into JSON and UTF-8 in one go held every other request for tens of milliseconds.
 */
export async function toJsonResourceInSteps(
  field: string,
  items: readonly unknown[],
  rest: Record<string, unknown>,
): Promise<JsonResource> {
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  const add = (text: string) => {
    const chunk = Buffer.from(text, 'utf8');
    hash.update(chunk);
    chunks.push(chunk);
  };
  add(`{${JSON.stringify(field)}:[`);
  for (let start = 0; start < items.length; start += ITEMS_PER_STEP) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    const step = items.slice(start, start + ITEMS_PER_STEP).map((item) => JSON.stringify(item));
    add((start > 0 ? ',' : '') + step.join(','));
  }
  const tail = JSON.stringify(rest).slice(1);
  add(tail === '}' ? ']}' : `],${tail}`);
  return { body: Buffer.concat(chunks), etag: weakTag(hash), contentType: JSON_TYPE, encoded: {} };
}

/**
 * The one sender of cached public resources (the API's article reads, the feed, sitemaps, the
 * HTML shells): it chooses the encoding from Accept-Encoding, answers 304 to a matching
 * validator, and compresses once per coding, kept with the resource.
 *
 * Sends a public read with its validator, so a client that already holds these exact
 * bytes gets 304 and no body. `no-cache` makes every use revalidate: articles change.
 * The body is compressed once per coding and kept with the resource (which the read cache
 * holds), instead of by the compression plugin on every send: compressing a list page was
 * most of the CPU of serving it to a browser (bench/README.md). A Content-Encoding already
 * set makes the plugin leave the bytes alone.
 */
export async function sendJsonResource(
  request: FastifyRequest,
  reply: FastifyReply,
  resource: JsonResource,
  cacheControl = 'no-cache',
) {
  reply.header('cache-control', cacheControl).header('etag', resource.etag);
  if (matchesEtag(request.headers['if-none-match'], resource.etag)) return reply.code(304).send();
  reply.type(resource.contentType);
  if (resource.onlyCoding !== undefined) {
    const encoded = await resource.encoded[resource.onlyCoding]!;
    return reply.header('vary', 'accept-encoding').header('content-encoding', resource.onlyCoding).send(encoded);
  }
  if (resource.body.length < COMPRESSION_THRESHOLD_BYTES) return reply.send(resource.body);
  reply.header('vary', 'accept-encoding');
  const coding = preferredCoding(request.headers['accept-encoding']);
  if (coding === undefined) return reply.send(resource.body);
  const encoded = await (resource.encoded[coding] ??= compress(coding, resource.body));
  return reply.header('content-encoding', coding).send(encoded);
}

/**
 * For reads that make an answer for one request alone (a page at a cursor the server did not
 * hand out): compresses it in the coding this request takes, gzip before brotli (a fraction of
 * brotli's memory and time for bytes compressed once), keeping only the compressed bytes.
 */
export function oneRequestFinisher(request: FastifyRequest): (resource: JsonResource) => Promise<JsonResource> {
  const coding = preferredCoding(request.headers['accept-encoding'], true);
  return (resource) => compressedForOneRequest(resource, coding);
}

/**
 * A page made for one request, compressed in the coding that request takes, keeping only the
 * compressed bytes: while it waits to be sent it holds a fraction of the body's memory.
 */
async function compressedForOneRequest(
  resource: JsonResource,
  coding: ContentCoding | undefined,
): Promise<JsonResource> {
  if (coding === undefined || resource.body.length < COMPRESSION_THRESHOLD_BYTES)
    return { ...resource, sentOnce: true };
  const encoded = await compress(coding, resource.body);
  return {
    ...resource,
    body: Buffer.alloc(0),
    encoded: { [coding]: Promise.resolve(encoded) },
    sentOnce: true,
    onlyCoding: coding,
  };
}

const brotliCompress = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Compressed on libuv's thread pool, never on the event loop: a 100-article page of long
 * articles is megabytes, and compressing ten at once on the loop held every other request
 * (/healthz took 550 ms; test/reliability/anonymousMemory.reliability.test.ts).
 */
function compress(coding: ContentCoding, body: Buffer): Promise<Buffer> {
  return compressionSlots.run(() => compressNow(coding, body));
}

/**
 * One body compressed at a time: ten megabyte pages compressed at once took every core from
 * the thread that answers requests (/healthz waited behind them). Bodies served from the cache
 * are compressed once per coding, so the queue only forms for pages not kept.
 */
const compressionSlots = createProcessingSlots(1);

function compressNow(coding: ContentCoding, body: Buffer): Promise<Buffer> {
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
 * (identity) when it names neither or has no header. `gzipFirst` prefers gzip when accepted.
 * Each header value is parsed once: browsers send a handful of distinct ones, remembered here
 * (a bounded set: client-made values past it are parsed each time, not kept).
 */
export function preferredCoding(header: string | undefined, gzipFirst = false): ContentCoding | undefined {
  if (header === undefined || header === '') return undefined;
  let weights = parsedHeaders.get(header);
  if (weights === undefined) {
    weights = parseAcceptEncoding(header);
    if (parsedHeaders.size < PARSED_HEADERS_KEPT) parsedHeaders.set(header, weights);
  }
  if (gzipFirst && weights.gzip > 0) return 'gzip';
  if (weights.br > 0 && weights.br >= weights.gzip) return 'br';
  if (weights.gzip > 0) return 'gzip';
  return undefined;
}

const PARSED_HEADERS_KEPT = 64;
const parsedHeaders = new Map<string, { br: number; gzip: number }>();

function parseAcceptEncoding(header: string): { br: number; gzip: number } {
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
  return { br: weightOf('br'), gzip: Math.max(weightOf('gzip'), weights.get('x-gzip') ?? 0) };
}

// If-None-Match compares weakly (RFC 9110 §13.1.2): W/"x" and "x" are the same tag.
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}
