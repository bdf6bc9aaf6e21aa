import http from 'node:http';
import { injectRaw } from './injectedFetch.ts';

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A GET with exactly these request headers, the body as the bytes sent (fetch would decode
 * them): through `inject` for an in-process test app, else over a socket.
 */
export async function rawGet(url: string, headers: Record<string, string>): Promise<RawAnswer> {
  const injected = await injectRaw(url, headers);
  if (injected) return injected;
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}
