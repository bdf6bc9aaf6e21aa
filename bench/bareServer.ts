import fs from 'node:fs';
import http from 'node:http';

/**
 * The baseline: a bare node:http server answering every request with the bytes of one
 * file (the list response the app sent), as JSON. Run as a child process so it has its
 * own event loop, like the app. Prints its port when listening.
 */
const body = fs.readFileSync(process.argv[2]!);
const server = http.createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(typeof address === 'object' && address ? address.port : '');
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
