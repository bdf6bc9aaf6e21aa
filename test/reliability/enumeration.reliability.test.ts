import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../support/smtpSink.ts';
import { startTestApp, type TestApp } from '../support/testApp.ts';
import { storageDatabases } from '../support/testDatabases.ts';
import { signUpUser, type LoadUser } from './loadClient.ts';

/**
 * Account enumeration: sign-in and password-reset answers for a registered and an unregistered
 * email are identical (status and body, the echoed email aside) and take about as long.
 * Timing is compared on medians of 30 alternating tries each, with a generous bound: it
 * catches a missing argon2 run or a skipped delivery (several times slower or faster), not
 * jitter on a shared machine.
 */

const TRIES = 30;
const RATIO_BOUNDS = [0.67, 1.5] as const;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function timed(url: string, body: unknown) {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { ms: performance.now() - started, status: response.status, text };
}

describe.each(storageDatabases())('no account enumeration on $dialect', (dialectCase) => {
  let server: TestApp;
  let sink: SmtpSink;
  let known: LoadUser;
  const unknownEmail = 'nobody-here@example.com';

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestApp(dialectCase, {
      SMTP_URL: sink.url,
      RATE_LIMIT_SIGNIN_PER_EMAIL: '100000',
      RATE_LIMIT_SIGNIN_PER_IP: '100000',
      RATE_LIMIT_SIGNIN_PER_ACCOUNT: '100000',
      RATE_LIMIT_SIGNIN_ATTEMPTS_PER_IP: '100000',
      RATE_LIMIT_RESET_EMAIL_PER_EMAIL: '100000',
      RATE_LIMIT_RESET_EMAIL_PER_IP: '100000',
    });
    known = await signUpUser(server.url, 'registered');
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  async function compare(
    what: string,
    request: (email: string) => Promise<{ ms: number; status: number; text: string }>,
  ) {
    const times = { known: [] as number[], unknown: [] as number[] };
    const normalise = (text: string) => text.replaceAll(known.email, 'EMAIL').replaceAll(unknownEmail, 'EMAIL');
    // One warm-up each, so neither side pays for first-use costs (the dummy hash, a connection);
    // every later answer, either side, must be identical to the registered email's first one.
    const reference = await request(known.email);
    await request(unknownEmail);
    for (let i = 0; i < TRIES; i++) {
      // Alternate the order too, so drift in machine load hits both sides alike.
      const pair = i % 2 === 0 ? [known.email, unknownEmail] : [unknownEmail, known.email];
      for (const email of pair) {
        const answer = await request(email);
        times[email === known.email ? 'known' : 'unknown'].push(answer.ms);
        expect(answer.status, what).toBe(reference.status);
        expect(normalise(answer.text), what).toBe(normalise(reference.text));
      }
    }
    const ratio = median(times.known) / median(times.unknown);
    console.log(
      `${what} on ${dialectCase.dialect}: median ${median(times.known).toFixed(1)} ms registered, ` +
        `${median(times.unknown).toFixed(1)} ms unregistered (ratio ${ratio.toFixed(2)})`,
    );
    expect(ratio, what).toBeGreaterThanOrEqual(RATIO_BOUNDS[0]);
    expect(ratio, what).toBeLessThanOrEqual(RATIO_BOUNDS[1]);
  }

  it('answers a wrong password for a registered email exactly like an unregistered email, as fast', async () => {
    await compare('sign-in', (email) =>
      timed(`${server.url}/identity/v1/accounts:signInWithPassword?key=k`, {
        email,
        password: 'not-the-password',
        returnSecureToken: true,
      }),
    );
  });

  it('answers a password-reset request for a registered email exactly like an unregistered one, as fast', async () => {
    await compare('password reset', (email) =>
      timed(`${server.url}/identity/v1/accounts:sendOobCode?key=k`, { requestType: 'PASSWORD_RESET', email }),
    );
  });
});
