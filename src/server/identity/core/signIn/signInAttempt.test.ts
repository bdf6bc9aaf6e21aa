import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityClient, protocolError, uniqueEmail } from '../../../../../test/support/identityTestClient.ts';
import { contractDatabases, type TestDatabase } from '../../../../../test/support/testDatabases.ts';
import { loadConfig } from '../../../config.ts';
import { openDatabase, type Database } from '../../../db/database.ts';
import { migrateToLatest } from '../../../db/migrate.ts';
import { createRateLimiter } from '../../../rateLimit/rateLimiter.ts';
import { identityRoutes } from '../../protocol/identityRoutes.ts';
import { sessionDelivery } from '../../protocol/sessionDelivery.ts';
import { createIdentityCore, IdentityError, type IdentityCore, type SignInOutcome } from '../identityCore.ts';
import { passwordHasher } from '../passwords/passwordHashing.ts';
import { PENDING_SECOND_STEP_LIFETIME_MS } from './signInAttempt.ts';

const PASSWORD = 'secret-password-1';
const ENROLLED_AT = Date.UTC(2026, 10, 1);

/**
 * The sign-in attempt's second step, before any two-step method exists: a policy stands in for
 * it (accounts whose email starts with "two-step" have one TOTP factor), and the completing call
 * is the core's, as the two-step door's finalize route will make it. The first factor goes
 * through the real protocol door over HTTP, on a real database.
 */
describe.each(contractDatabases())('the sign-in attempt with a second step on $dialect', (dialectCase) => {
  let testDatabase: TestDatabase;
  let database: Database;
  let core: IdentityCore;
  let app: FastifyInstance;
  let client: ReturnType<typeof identityClient>;
  let dataDir: string;
  let clockOffset = 0;
  const outcomes: SignInOutcome[] = [];
  const origin = { ip: '127.0.0.1', log: { info: () => {}, warn: () => {}, error: () => {} } };

  beforeAll(async () => {
    testDatabase = await dialectCase.create();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-data-'));
    const config = {
      ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', RATE_LIMIT_SIGNIN_PER_EMAIL: '3' }),
      database: testDatabase.config,
    };
    database = openDatabase(config.database);
    await migrateToLatest(database);
    const now = () => Date.now() + clockOffset;
    core = createIdentityCore({
      config,
      database,
      mailer: { send: async () => {}, close: async () => {} },
      rateLimiter: createRateLimiter(database, now),
      passwords: passwordHasher,
      now,
    });
    core.useSecondStep({
      required: async (user) =>
        user.email.startsWith('two-step')
          ? [{ enrollmentId: 'totp-1', kind: 'totp', displayName: 'Phone', enrolledAt: ENROLLED_AT }]
          : null,
      enrolled: async () => [],
      removeAllOfUser: async () => {},
    });
    core.onSignIn((outcome) => outcomes.push(outcome));
    app = Fastify();
    await app.register(identityRoutes(core, config, sessionDelivery(config), []), { prefix: '/identity' });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    client = identityClient(url);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    await testDatabase.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Completes with a stand-in second factor: "123456" is right, anything else is refused. */
  const complete = (pendingCredential: string, code: string) =>
    core.signIns.completeSecondStep(
      {
        pendingCredential,
        check: async () => {
          if (code !== '123456') throw new IdentityError('INVALID_LOGIN_CREDENTIALS');
          return { factor: 'totp' };
        },
      },
      { origin },
    );

  async function pendingSignIn(email: string) {
    const answer = await client.signIn(email, PASSWORD);
    expect(answer.status).toBe(200);
    return answer.body.mfaPendingCredential as string;
  }

  it('answers a pending second step instead of a session, with the factors to offer', async () => {
    const email = uniqueEmail('two-step');
    const signUp = await client.signUp(email, PASSWORD);
    const answer = await client.call(
      '/v1/accounts:signInWithPassword',
      { email, password: PASSWORD },
      { headers: { 'x-inkwell-session': 'cookie' } },
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      kind: 'identitytoolkit#VerifyPasswordResponse',
      localId: signUp.body.localId,
      email,
      displayName: '',
      registered: true,
      mfaPendingCredential: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      mfaInfo: [
        {
          mfaEnrollmentId: 'totp-1',
          displayName: 'Phone',
          enrolledAt: new Date(ENROLLED_AT).toISOString(),
          totpInfo: {},
        },
      ],
    });
    // No session yet: no token in the body, no cookie, no session row beyond the sign-up's.
    expect(answer.headers.get('set-cookie')).toBeNull();
    const sessions = await database.db
      .selectFrom('identity_sessions')
      .select('id')
      .where('user_id', '=', signUp.body.localId)
      .execute();
    expect(sessions).toHaveLength(1);
    // Only the credential's hash is stored.
    const stored = await database.db.selectFrom('identity_pending_second_steps').select('credential_hash').execute();
    expect(stored.map((row) => row.credential_hash)).not.toContain(answer.body.mfaPendingCredential);

    // An account without a second step signs in as before.
    const plain = uniqueEmail();
    await client.signUp(plain, PASSWORD);
    expect((await client.signIn(plain, PASSWORD)).body).toMatchObject({
      localId: expect.any(String),
      idToken: expect.any(String),
    });
  });

  it('issues the session once the second factor is right, and only once', async () => {
    const email = uniqueEmail('two-step');
    await client.signUp(email, PASSWORD);
    const pending = await pendingSignIn(email);
    outcomes.length = 0;
    const session = await complete(pending, '123456');
    expect(outcomes).toEqual([{ ok: true, provider: 'password' }]);
    const token = await core.verifyIdToken(session.idToken);
    expect(token.user.email).toBe(email);
    expect(token.provider).toBe('password');
    // The same pending credential again: used up with the session it led to.
    await expect(complete(pending, '123456')).rejects.toMatchObject({ code: 'INVALID_MFA_PENDING_CREDENTIAL' });
    // A made-up one is refused the same way.
    await expect(complete('x'.repeat(43), '123456')).rejects.toMatchObject({ code: 'INVALID_MFA_PENDING_CREDENTIAL' });
  });

  it('counts wrong second factors against the sign-in limits, keeping the pending step usable until then', async () => {
    const email = uniqueEmail('two-step');
    await client.signUp(email, PASSWORD);
    const pending = await pendingSignIn(email);
    for (let i = 0; i < 3; i++) {
      await expect(complete(pending, '000000')).rejects.toMatchObject({ code: 'INVALID_LOGIN_CREDENTIALS' });
    }
    // RATE_LIMIT_SIGNIN_PER_EMAIL is 3: the fourth try is refused before the code is checked.
    await expect(complete(pending, '123456')).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS_TRY_LATER' });
    // The password sign-in on that account from this address is held back too.
    expect((await client.signIn(email, PASSWORD)).body).toEqual(protocolError('TOO_MANY_ATTEMPTS_TRY_LATER', 429));
  });

  it('a pending step expires, and ends with a disabled account or a password change', async () => {
    const expiring = uniqueEmail('two-step');
    await client.signUp(expiring, PASSWORD);
    const pending = await pendingSignIn(expiring);
    clockOffset += PENDING_SECOND_STEP_LIFETIME_MS + 1000;
    try {
      await expect(complete(pending, '123456')).rejects.toMatchObject({ code: 'INVALID_MFA_PENDING_CREDENTIAL' });
    } finally {
      clockOffset -= PENDING_SECOND_STEP_LIFETIME_MS + 1000;
    }

    const disabled = uniqueEmail('two-step');
    await client.signUp(disabled, PASSWORD);
    const beforeDisable = await pendingSignIn(disabled);
    await core.operator.disableUser(disabled);
    await expect(complete(beforeDisable, '123456')).rejects.toMatchObject({ code: 'USER_DISABLED' });

    const changed = uniqueEmail('two-step');
    const signUp = await client.signUp(changed, PASSWORD);
    const beforeChange = await pendingSignIn(changed);
    const update = await client.update({ idToken: signUp.body.idToken, password: 'another-password-2' });
    expect(update.status).toBe(200);
    await expect(complete(beforeChange, '123456')).rejects.toMatchObject({ code: 'INVALID_MFA_PENDING_CREDENTIAL' });
  });
});
