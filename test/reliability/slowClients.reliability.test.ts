import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_TIMEOUT_MS } from '../../src/server/app.ts';
import { startTestApp, type TestApp } from '../support/testApp.ts';
import { contractDatabases } from '../support/testDatabases.ts';

const TRICKLERS = 100;
const BYTE_EVERY_MS = 2_000;
/** docs/architecture.md (the path of a request): answered (or closed) within 45 s of the request's start. */
const ANSWERED_WITHIN_MS = 45_000;

interface Trickle {
  /** Milliseconds from the first byte sent until the server answered or closed, if it did. */
  endedAfterMs: Promise<number>;
  /** What the server sent back, if anything (a 408 status line, or nothing before closing). */
  received: () => string;
  destroy(): void;
}

/**
 * Opens a connection and sends `head` at once, then `trickle` one byte every BYTE_EVERY_MS for
 * as long as the server keeps the connection: the slow-loris of the security review (500
 * connections trickling a byte every 5 s were all held open).
 */
function trickleRequest(port: number, head: string, trickle: string): Trickle {
  const socket = net.connect(port, '127.0.0.1');
  let answer = '';
  let timer: NodeJS.Timeout | undefined;
  const started = Date.now();
  const endedAfterMs = new Promise<number>((resolve) => {
    const end = () => {
      clearInterval(timer);
      resolve(Date.now() - started);
    };
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
    });
    socket.on('close', end);
    socket.on('error', end);
  });
  socket.on('connect', () => {
    socket.write(head);
    let index = 0;
    timer = setInterval(() => {
      if (!socket.destroyed) socket.write(trickle[index++ % trickle.length]!);
    }, BYTE_EVERY_MS);
  });
  return {
    endedAfterMs,
    received: () => answer,
    destroy: () => {
      clearInterval(timer);
      socket.destroy();
    },
  };
}

// One database is enough: the timeouts are the HTTP server's, whatever the storage.
describe.each(contractDatabases())('clients that trickle their requests, on $dialect', (dialectCase) => {
  let server: TestApp;
  let port: number;
  const open: Trickle[] = [];

  beforeAll(async () => {
    // Over the socket: "keeps serving" means other connections still get answers.
    server = await startTestApp(dialectCase, {}, { transport: 'socket' });
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => {
    for (const trickle of open) trickle.destroy();
    await server?.close();
  });

  it(`cuts off ${TRICKLERS} bodies and headers that trickle a byte every ${BYTE_EVERY_MS / 1000} s, and keeps serving`, async () => {
    const body = JSON.stringify({ email: 'slow@example.com', password: 'x'.repeat(500), returnSecureToken: true });
    const bodyHead =
      'POST /identity/v1/accounts:signInWithPassword?key=k HTTP/1.1\r\nHost: inkwell.test\r\n' +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const headersHead = 'GET /api/articles HTTP/1.1\r\nHost: inkwell.test\r\n';
    for (let i = 0; i < TRICKLERS; i++) {
      open.push(
        i % 2 === 0 ? trickleRequest(port, bodyHead, body) : trickleRequest(port, headersHead, 'X-Slow: 1\r\n'),
      );
    }

    // While they hang on, everyone else is served.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/articles`)).status).toBe(200);

    const endings = await Promise.all(
      open.map((trickle) =>
        Promise.race([
          trickle.endedAfterMs,
          new Promise<number>((resolve) => setTimeout(() => resolve(Infinity), ANSWERED_WITHIN_MS + 5_000)),
        ]),
      ),
    );
    const stillOpen = endings.filter((ms) => ms === Infinity).length;
    expect(stillOpen, 'connections still open after 50 s').toBe(0);
    // Not cut off early, and never later than the contract allows.
    expect(Math.min(...endings)).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 1_000);
    expect(Math.max(...endings)).toBeLessThanOrEqual(ANSWERED_WITHIN_MS);
    // Node answers 408 where it still can; nothing else (no 500, no half-handled request).
    for (const trickle of open) {
      const statusLine = trickle.received().split('\r\n')[0] ?? '';
      expect(['', 'HTTP/1.1 408 Request Timeout']).toContain(statusLine);
    }
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  }, 90_000);
});
