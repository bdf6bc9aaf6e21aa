import type { DocumentLoader, RemoteDocument } from '@fedify/vocab-runtime';
import { preloadedContexts, validatePublicUrl } from '@fedify/vocab-runtime';

export const REMOTE_FETCH_TIMEOUT_MS = 10_000;
export const REMOTE_DOCUMENT_MAX_BYTES = 1024 * 1024;
const MAX_REDIRECTS = 5;

/**
 * How remote actors and objects are fetched in production (decision 0700): never a private or
 * loopback address (checked again after each redirect, so a public name cannot redirect there),
 * 10 s at most, 1 MiB at most; the JSON-LD contexts every server uses come from Fedify's
 * preloaded copies, never the network.
 */
export function safeDocumentLoader(userAgent: string): DocumentLoader {
  return async (url, options) => {
    if (Object.hasOwn(preloadedContexts, url)) {
      return { contextUrl: null, document: preloadedContexts[url], documentUrl: url };
    }
    const signal = AbortSignal.any([
      AbortSignal.timeout(REMOTE_FETCH_TIMEOUT_MS),
      ...(options?.signal ? [options.signal] : []),
    ]);
    let current = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
      await validatePublicUrl(current);
      const response = await fetch(current, {
        headers: { Accept: 'application/activity+json, application/ld+json', 'User-Agent': userAgent },
        redirect: 'manual',
        signal,
      });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        current = new URL(location, current).href;
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`fetching a remote document answered ${response.status}`);
      }
      return {
        contextUrl: null,
        document: JSON.parse(await limitedText(response)),
        documentUrl: current,
      } satisfies RemoteDocument;
    }
    throw new Error('too many redirects fetching a remote document');
  };
}

/** The body as text, refused once it passes REMOTE_DOCUMENT_MAX_BYTES. */
async function limitedText(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > REMOTE_DOCUMENT_MAX_BYTES) {
    await response.body?.cancel();
    throw new Error('a remote document is too large');
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    if (size > REMOTE_DOCUMENT_MAX_BYTES) throw new Error('a remote document is too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
