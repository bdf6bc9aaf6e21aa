import http from 'node:http';

/**
 * Article pictures for browser tests: a real HTTP server on loopback, started once by the global
 * setup (workerServers.ts), answering every path with a soft gradient SVG, so screenshots show
 * real images offline. Before, each spec answered them with `page.route`, and a routed page
 * sends every request it makes (scripts, API calls, fonts) through the test process and loses
 * its HTTP cache: a page load cost 0.47 core-seconds routed against 0.20 without (decision 0898).
 */
export const pictureOriginVariable = 'E2E_PICTURE_ORIGIN';

/** The picture server's origin, in a Playwright worker (set by the global setup before workers start). */
export const PICTURE_ORIGIN = process.env[pictureOriginVariable] ?? 'http://pictures.unset.invalid';

const HUES = [210, 160, 30, 280, 340, 100];

/** The picture for `pathname`: its first number picks the hue, so a list's cards differ. */
function pictureFor(pathname: string): string {
  const index = Number(/(\d+)/.exec(pathname)?.[1] ?? 0);
  const hue = HUES[index % HUES.length]!;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 160 90"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue} 70% 62%)"/><stop offset="1" stop-color="hsl(${hue + 40} 65% 38%)"/></linearGradient></defs><rect width="160" height="90" fill="url(#g)"/><circle cx="120" cy="28" r="12" fill="hsl(${hue} 90% 92%)" opacity=".8"/><path d="M0 90 L55 42 L90 70 L115 52 L160 90Z" fill="hsl(${hue + 40} 50% 22%)" opacity=".55"/></svg>`;
}

/** Starts the picture server and publishes its origin to the workers; resolves to its stop. */
export async function startPictureServer(): Promise<() => Promise<void>> {
  const server = http.createServer((request, response) => {
    const { pathname } = new URL(request.url ?? '/', 'http://pictures');
    response.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=3600' });
    response.end(request.method === 'HEAD' ? undefined : pictureFor(pathname));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  process.env[pictureOriginVariable] = `http://127.0.0.1:${port}`;
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
}
