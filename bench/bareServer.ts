import fs from 'node:fs';
import http from 'node:http';

/**
 * The baseline (docs/architecture.md, Budgets, issue 13 §2): a bare node:http server answering every request
 * with the app's saved body and nothing but `Content-Type` and `Content-Length`; Node adds
 * its own `Date`, `Connection` and `Keep-Alive`, as it does for the app. The app's other
 * headers (security headers, ETag, Cache-Control, request id) are part of the app's work and
 * are not replayed here. Run as a child process so it has its own event loop, like the app.
 * Prints its port when listening.
 */
interface SavedResponse {
  status: number;
  headers: Record<string, string>;
  bodyBase64: string;
}
const saved = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as SavedResponse;
const body = Buffer.from(saved.bodyBase64, 'base64');
const headers = { 'content-type': saved.headers['content-type'] ?? 'application/json', 'content-length': body.length };
const server = http.createServer((_request, response) => {
  response.writeHead(saved.status, headers);
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(typeof address === 'object' && address ? address.port : '');
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
