import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../support/smtpSink.ts';
import { startTestApp, type TestApp } from '../support/testApp.ts';
import { storageDatabases } from '../support/testDatabases.ts';
import { call, signUpUser, type LoadUser } from './loadClient.ts';

const REFRESH_LOOPS = 4;
const PASSWORD_CHANGES = 8;
const RESETS = 4;

/**
 * The security review's reproduction (issue 14): someone holding a stolen refresh token keeps
 * refreshing it from 4 loops while the owner changes the password or applies a reset. Once the
 * change is answered, no ID token the stolen session ever got may work, on /identity or on the
 * articles API, however the refreshes and the change interleaved. Before ID tokens named their
 * session, 5 of 8 changes and 4 of 4 resets left such tokens working on PostgreSQL.
 */
describe.each(storageDatabases())('a stolen session racing a password change, on $dialect', (dialectCase) => {
  let server: TestApp;
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestApp(dialectCase, {
      SMTP_URL: sink.url,
      RATE_LIMIT_SIGNUP_PER_IP: '1000',
      RATE_LIMIT_SIGNIN_PER_IP: '1000',
    });
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  const identity = (name: string, json: unknown) => call(`${server.url}/identity/v1/${name}?key=k`, { json });

  /** Refreshes the stolen session from several loops until `stop()`; collects every ID token it got. */
  function refreshStolenSession(stolen: LoadUser) {
    const idTokens: string[] = [];
    let running = true;
    let refreshesDuringChange = 0;
    let changing = false;
    const loop = async () => {
      while (running) {
        const answer = await identity('token', { grant_type: 'refresh_token', refresh_token: stolen.refreshToken });
        if (answer.status !== 200) continue;
        idTokens.push((answer.body as { id_token: string }).id_token);
        if (changing) refreshesDuringChange++;
      }
    };
    const loops = Promise.all(Array.from({ length: REFRESH_LOOPS }, loop));
    return {
      idTokens,
      /** Runs the owner's change while the loops keep refreshing. */
      async during<T>(change: () => Promise<T>): Promise<T> {
        // Let the loops get going first, so the change lands among refreshes in flight.
        while (idTokens.length < REFRESH_LOOPS) await new Promise((resolve) => setTimeout(resolve, 5));
        changing = true;
        try {
          return await change();
        } finally {
          changing = false;
        }
      },
      async stop() {
        running = false;
        await loops;
        return { refreshesDuringChange };
      },
    };
  }

  /** Every token is refused on /identity (TOKEN_EXPIRED) and on the articles API (401). */
  async function expectAllRefused(idTokens: string[], what: string) {
    const working: string[] = [];
    for (const idToken of new Set(idTokens)) {
      const lookup = await identity('accounts:lookup', { idToken });
      const created = await call(`${server.url}/api/articles`, {
        json: { image: 'https://a.example/x.jpg', title: 'Stolen', description: 'Written with a stolen session' },
        token: idToken,
      });
      if (lookup.status !== 400 || created.status !== 401)
        working.push(`lookup ${lookup.status}, create ${created.status}`);
      else expect((lookup.body as { error: { message: string } }).error.message, what).toBe('TOKEN_EXPIRED');
    }
    expect(working, `${what}: ID tokens of the stolen session still working`).toEqual([]);
  }

  it(`refuses every token of the stolen session after each of ${PASSWORD_CHANGES} password changes`, async () => {
    let interleaved = 0;
    for (let round = 0; round < PASSWORD_CHANGES; round++) {
      const stolen = await signUpUser(server.url, `race-change-${round}`);
      const owner = await identity('accounts:signInWithPassword', {
        email: stolen.email,
        password: stolen.password,
        returnSecureToken: true,
      });
      const thief = refreshStolenSession(stolen);
      const changed = await thief.during(() =>
        identity('accounts:update', {
          idToken: (owner.body as { idToken: string }).idToken,
          password: `changed-${round}-password`,
          returnSecureToken: true,
        }),
      );
      const { refreshesDuringChange } = await thief.stop();
      expect(changed.status).toBe(200);
      if (refreshesDuringChange > 0) interleaved++;
      await expectAllRefused(thief.idTokens, `password change ${round}`);
      // The owner goes on in the fresh session the change gave them.
      expect(
        (await identity('accounts:lookup', { idToken: (changed.body as { idToken: string }).idToken })).status,
      ).toBe(200);
    }
    // The race really ran: refreshes completed while changes were being made.
    expect(interleaved).toBeGreaterThan(0);
  });

  it(`refuses every token of the stolen session after each of ${RESETS} password resets`, async () => {
    for (let round = 0; round < RESETS; round++) {
      const stolen = await signUpUser(server.url, `race-reset-${round}`);
      const before = sink.messages.length;
      expect(
        (await identity('accounts:sendOobCode', { requestType: 'PASSWORD_RESET', email: stolen.email })).status,
      ).toBe(200);
      const mail = await sink.waitForMail(stolen.email, { after: before, subject: /Reset your/ });
      const oobCode = /oobCode=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
      const thief = refreshStolenSession(stolen);
      const reset = await thief.during(() =>
        identity('accounts:resetPassword', { oobCode, newPassword: `reset-${round}-password` }),
      );
      await thief.stop();
      expect(reset.status).toBe(200);
      await expectAllRefused(thief.idTokens, `reset ${round}`);
    }
  });
});
