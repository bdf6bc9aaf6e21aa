import net from 'node:net';
import fc from 'fast-check';
import { expect } from 'vitest';

/** What the hostile-input tests get back for one request. */
export interface RawAnswer {
  status: number;
  contentType: string;
  text: string;
  headers: Headers;
}

export async function send(
  url: string,
  init: { method?: string; body?: RequestInit['body']; headers?: Record<string, string> } = {},
): Promise<RawAnswer> {
  const response = await fetch(url, {
    method: init.method ?? 'POST',
    headers: init.headers ?? {},
    ...(init.body !== undefined ? { body: init.body } : {}),
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    text: await response.text(),
    headers: response.headers,
  };
}

// A Node stack frame ("at fn (/path/file.ts:1:2)"), a source path or a raw exception name.
const LEAKS = /\bat [\w$.<>]+ \(|\bat (?:file:|node:|\/)|\/work\/|node_modules|\.ts:\d+|\bat async\b/;

/** A refusal must be a 4xx in the scope's own error format, and leak nothing about the server. */
export function expectCleanRefusal(answer: RawAnswer, scope: 'api' | 'identity', what: string) {
  expect(answer.status, `${what}: ${answer.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(answer.status, `${what}: ${answer.text.slice(0, 300)}`).toBeLessThan(500);
  expect(answer.text, what).not.toMatch(LEAKS);
  const body = JSON.parse(answer.text) as Record<string, unknown>;
  if (scope === 'api') {
    expect(answer.contentType, what).toMatch(/^application\/problem\+json/);
    expect(body, what).toMatchObject({ type: 'about:blank', status: answer.status });
    expect(typeof body.detail, what).toBe('string');
  } else {
    expect(answer.contentType, what).toMatch(/^application\/json/);
    const error = body.error as { code: number; message: string };
    expect(error.code, what).toBe(answer.status);
    expect(error.message, what).toMatch(/^[A-Z_]+( : .+)?$/);
  }
}

/** Anything below 500; a refusal in the scope's format; a success must be JSON. */
export function expectNoServerFault(answer: RawAnswer, scope: 'api' | 'identity', what: string) {
  expect(answer.status, `${what}: ${answer.text.slice(0, 300)}`).toBeLessThan(500);
  if (answer.status >= 400) expectCleanRefusal(answer, scope, what);
  else expect(answer.text, what).not.toMatch(LEAKS);
}

/** Sends raw bytes over TCP and returns the status code of the answer (0 if the server just hung up). */
export async function rawRequest(port: number, bytes: string | Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(5000, () => socket.destroy());
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET') resolve({ status: 0, text: Buffer.concat(chunks).toString('latin1') });
      else reject(error);
    });
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ status: match ? Number(match[1]) : 0, text });
    });
    // Half-close: the server answers, then hangs up, so no read waits for a timeout.
    socket.end(bytes);
  });
}

// Texts with the characters that break naive code: NUL, lone surrogates, bidi controls, BOM,
// whitespace at the ends, astral characters and combining marks, among ordinary text.
const awkward = fc.constantFrom(
  '\u0000',
  '\uD800',
  '\uDFFF',
  '\u200F',
  '\u202E',
  '\u2066',
  '\uFEFF',
  ' ',
  '\t',
  '\n',
  '\u00A0',
  '\u3000',
  '😀',
  'e\u0301',
  '<script>',
  '"',
  '\\',
);
export const hostileText = (maxParts: number) =>
  fc
    .array(
      fc.oneof(
        { weight: 6, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
        { weight: 2, arbitrary: awkward },
        { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
      ),
      { minLength: 0, maxLength: maxParts },
    )
    .map((parts) => parts.join(''));

export const hasUnstorable = (text: string) => text.includes('\u0000') || !text.isWellFormed();
