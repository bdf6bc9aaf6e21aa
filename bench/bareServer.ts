import fs from 'node:fs';
import http from 'node:http';

/**
 * The baseline: a bare node:http server answering every request with one saved response of the
 * app (its status, its headers, its body bytes), so both send the same bytes and the
 * difference is the work of making them. Headers Node writes itself (date, connection,
 * keep-alive) are left to it, as they are for the app. Run as a child process so it has its
 * own event loop, like the app. Prints its port when listening.
 */
interface SavedResponse {
  status: number;
  headers: Record<string, string>;
  bodyBase64: string;
}
const saved = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as SavedResponse;
const body = Buffer.from(saved.bodyBase64, 'base64');
const headers = Object.fromEntries(
  Object.entries(saved.headers).filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name)),
);
const server = http.createServer((_request, response) => {
  response.writeHead(saved.status, headers);
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(typeof address === 'object' && address ? address.port : '');
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
