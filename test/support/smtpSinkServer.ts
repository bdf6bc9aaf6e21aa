/**
 * An SMTP sink as a process, for browser tests: Playwright starts it as a webServer, points
 * the app's SMTP_URL at it, and reads received emails from GET /messages as JSON.
 *
 *   node src/server/testing/smtpSinkServer.ts --port 2525 --http-port 2580
 *   (or SMTP_SINK_PORT / SMTP_SINK_HTTP_PORT)
 */
import http from 'node:http';
import { parseArgs } from 'node:util';
import { startSmtpSink } from './smtpSink.ts';

const { values } = parseArgs({
  options: { port: { type: 'string' }, 'http-port': { type: 'string' } },
});

function portFrom(value: string | undefined, name: string): number {
  const port = Number(value ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`${name} must be a port number, got ${value}`);
    process.exit(2);
  }
  return port;
}

const smtpPort = portFrom(values.port ?? process.env.SMTP_SINK_PORT, '--port');
const httpPort = portFrom(values['http-port'] ?? process.env.SMTP_SINK_HTTP_PORT, '--http-port');

const sink = await startSmtpSink({ port: smtpPort });

const server = http.createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/messages') {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    response.end(JSON.stringify(sink.messages));
    return;
  }
  response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
  response.end('Only GET /messages is served here\n');
});
await new Promise<void>((resolve) => server.listen(httpPort, '127.0.0.1', resolve));
const address = server.address();
const boundHttpPort = typeof address === 'object' && address ? address.port : httpPort;
console.log(`SMTP sink on ${sink.url}, received messages at http://127.0.0.1:${boundHttpPort}/messages`);

async function shutdown() {
  server.close();
  server.closeAllConnections();
  await sink.close();
  process.exit(0);
}
process.once('SIGINT', () => void shutdown());
process.once('SIGTERM', () => void shutdown());
