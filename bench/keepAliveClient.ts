import http from 'node:http';

/**
 * A one-connection keep-alive `node:http` client for the latency rounds: far less per-request
 * work than `fetch` (undici), and the same client times the endpoint and the bare round trip
 * that is subtracted from it, so what is left is the server's.
 */
export function keepAliveClient(origin: string) {
  const url = new URL(origin);
  if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost' && url.hostname !== '[::1]') {
    throw new Error(`The bench only targets loopback addresses, not ${url.hostname}`);
  }
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  /** Sends one request, reads the whole answer, and resolves with the milliseconds it took; rejects unless 2xx. */
  function timed(method: 'GET' | 'POST', path: string, json?: unknown): Promise<number> {
    const body = json === undefined ? undefined : JSON.stringify(json);
    const headers: http.OutgoingHttpHeaders =
      body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    return new Promise((resolve, reject) => {
      const begun = performance.now();
      const request = http.request({ host: url.hostname, port: url.port, method, path, agent, headers }, (response) => {
        response.resume();
        response.on('error', reject);
        response.on('end', () => {
          const took = performance.now() - begun;
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve(took);
          else reject(new Error(`${method} ${path} answered ${status}`));
        });
      });
      request.on('error', reject);
      request.end(body);
    });
  }

  return { timed, close: () => agent.destroy() };
}
