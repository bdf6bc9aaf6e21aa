import { PassThrough } from 'node:stream';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityClient, protocolError, uniqueEmail } from '../../../../test/support/identityTestClient.ts';
import { startSmtpSink, type SmtpSink } from '../../../../test/support/smtpSink.ts';
import { startTestApp, type TestApp } from '../../../../test/support/testApp.ts';
import { contractDatabases } from '../../../../test/support/testDatabases.ts';
import { signUpVerified, totpCode, wrongTotpCode } from '../../../../test/support/twoStepTestSupport.ts';
import { softAuthenticator } from '../../passkeys/testAuthenticator.ts';

const STEP = 30_000;

describe.each(contractDatabases())('two-step sign-in (DESIGN §8.4) on $dialect', (dialectCase) => {
  let sink: SmtpSink;
  let server: TestApp;
  let client: ReturnType<typeof identityClient>;
  // The server's clock, 10 s into a time step, moved by the tests.
  let at = Math.floor(Date.now() / STEP) * STEP + 10_000;
  const logLines: string[] = [];

  beforeAll(async () => {
    sink = await startSmtpSink();
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => logLines.push(chunk.toString()));
    server = await startTestApp(
      dialectCase,
      { SMTP_URL: sink.url, LOG_LEVEL: 'debug', RATE_LIMIT_SIGNIN_PER_EMAIL: '8' },
      { clock: () => at, logStream },
    );
    client = identityClient(server.url);
  });
  afterAll(async () => {
    await server.close();
    await sink.close();
  });

  const start = (idToken: string) =>
    client.call('/v2/accounts/mfaEnrollment:start', { idToken, totpEnrollmentInfo: {} });
  const finalize = (idToken: string, sessionInfo: string, verificationCode: string) =>
    client.call('/v2/accounts/mfaEnrollment:finalize', {
      idToken,
      displayName: 'Phone',
      totpVerificationInfo: { sessionInfo, verificationCode },
    });
  const finishSignIn = (mfaPendingCredential: string, mfaEnrollmentId: string, verificationCode: string) =>
    client.call('/v2/accounts/mfaSignIn:finalize', {
      mfaPendingCredential,
      mfaEnrollmentId,
      totpVerificationInfo: { verificationCode },
    });

  /** A verified account with two-step on; the clock moves past the enrolling code's step. */
  async function enrolled() {
    const email = uniqueEmail('two-step');
    const signedUp = await signUpVerified(client, sink, email, 'secret-1');
    const started = await start(signedUp.idToken);
    expect(started.status).toBe(200);
    const { sharedSecretKey: secret, sessionInfo } = started.body.totpSessionInfo;
    const done = await finalize(signedUp.idToken, sessionInfo, totpCode(secret, at));
    expect(done.status).toBe(200);
    at += STEP;
    const lookup = await client.lookup(done.body.idToken);
    const enrollmentId = lookup.body.users[0].mfaInfo[0].mfaEnrollmentId as string;
    return { email, secret, enrollmentId, recoveryCodes: done.body.recoveryCodes as string[], tokens: done.body };
  }

  async function pendingSignIn(email: string): Promise<string> {
    const answer = await client.signIn(email, 'secret-1');
    expect(answer.status).toBe(200);
    return answer.body.mfaPendingCredential as string;
  }

  it('enrolls: the answer, new tokens, ten recovery codes; lookup and the sign-in answer show the factor', async () => {
    const email = uniqueEmail('enrol');
    const signedUp = await signUpVerified(client, sink, email, 'secret-1');
    const started = await start(signedUp.idToken);
    expect(started.body.totpSessionInfo).toMatchObject({
      verificationCodeLength: 6,
      hashingAlgorithm: 'SHA1',
      periodSec: 30,
      finalizeEnrollmentTime: new Date(at + 10 * 60_000).toISOString(),
    });
    const { sharedSecretKey: secret, sessionInfo } = started.body.totpSessionInfo;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const done = await finalize(signedUp.idToken, sessionInfo, totpCode(secret, at));
    expect(done.status).toBe(200);
    expect(done.body.recoveryCodes).toHaveLength(10);
    expect(new Set(done.body.recoveryCodes).size).toBe(10);
    expect(decodeJwt(done.body.idToken).firebase).toMatchObject({ sign_in_second_factor: 'totp' });
    // The enrolling session is replaced by the new one.
    expect((await client.refresh(signedUp.refreshToken)).body).toEqual(protocolError('TOKEN_EXPIRED'));
    expect((await client.refresh(done.body.refreshToken)).status).toBe(200);

    const { mfaInfo } = (await client.lookup(done.body.idToken)).body.users[0];
    expect(mfaInfo).toEqual([
      {
        mfaEnrollmentId: expect.any(String),
        displayName: 'Phone',
        enrolledAt: new Date(at).toISOString(),
        totpInfo: {},
      },
    ]);
    const answer = await client.signIn(email, 'secret-1');
    expect(answer.body).toEqual({
      kind: 'identitytoolkit#VerifyPasswordResponse',
      localId: signedUp.localId,
      email,
      displayName: '',
      registered: true,
      mfaPendingCredential: expect.any(String),
      mfaInfo,
    });
    // Codes are stored hashed; neither they, the secret nor the codes appear in the logs.
    const stored = JSON.stringify(await server.database.db.selectFrom('two_step_recovery_codes').selectAll().execute());
    for (const code of done.body.recoveryCodes as string[]) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace('-', ''));
    }
    const logs = logLines.join('\n');
    expect(logs).not.toContain(secret);
    expect(logs).not.toContain(done.body.recoveryCodes[0]);
    expect(logs).not.toContain(answer.body.mfaPendingCredential);
  });

  it('ends every other session of the account when two-step is turned on (decision 0552)', async () => {
    const email = uniqueEmail('other-device');
    const signedUp = await signUpVerified(client, sink, email, 'secret-1');
    const otherDevice = await client.signIn(email, 'secret-1');
    expect(otherDevice.status).toBe(200);
    const started = await start(signedUp.idToken);
    const { sharedSecretKey: secret, sessionInfo } = started.body.totpSessionInfo;
    const done = await finalize(signedUp.idToken, sessionInfo, totpCode(secret, at));
    expect(done.status).toBe(200);
    at += STEP;
    expect((await client.refresh(otherDevice.body.refreshToken)).body).toEqual(protocolError('TOKEN_EXPIRED'));
    expect((await client.refresh(done.body.refreshToken)).status).toBe(200);
  });

  it('tells the account holder by mail, once an hour, when a sign-in ends on wrong codes', async () => {
    // The default sign-in limits, so that three pending sign-ins fit.
    const own = await startTestApp(dialectCase, { SMTP_URL: sink.url }, { clock: () => at });
    try {
      const ownClient = identityClient(own.url);
      const email = uniqueEmail('guessed');
      const signedUp = await signUpVerified(ownClient, sink, email, 'secret-1');
      const started = await ownClient.call('/v2/accounts/mfaEnrollment:start', {
        idToken: signedUp.idToken,
        totpEnrollmentInfo: {},
      });
      const { sharedSecretKey: secret, sessionInfo } = started.body.totpSessionInfo;
      const done = await ownClient.call('/v2/accounts/mfaEnrollment:finalize', {
        idToken: signedUp.idToken,
        totpVerificationInfo: { sessionInfo, verificationCode: totpCode(secret, at) },
      });
      expect(done.status).toBe(200);
      at += STEP;
      const enrollmentId = (await ownClient.lookup(done.body.idToken)).body.users[0].mfaInfo[0].mfaEnrollmentId;
      const finish = (credential: string, code: string) =>
        ownClient.call('/v2/accounts/mfaSignIn:finalize', {
          mfaPendingCredential: credential,
          mfaEnrollmentId: enrollmentId,
          totpVerificationInfo: { verificationCode: code },
        });
      const pending = async () => (await ownClient.signIn(email, 'secret-1')).body.mfaPendingCredential as string;
      const wrongCodes = async (credential: string, count: number) => {
        for (let i = 0; i < count; i += 1) {
          expect((await finish(credential, wrongTotpCode(secret, at))).body).toEqual(protocolError('INVALID_CODE'));
        }
      };
      const subject = /^Someone entered your Inkwell password$/;
      const notices = () => sink.messages.filter((m) => m.to.includes(email) && subject.test(m.subject));

      // Four wrong codes, then the right one: nothing to tell.
      const typo = await pending();
      await wrongCodes(typo, 4);
      expect((await finish(typo, totpCode(secret, at))).status).toBe(200);
      at += STEP;
      // Five: the sign-in is stopped and the holder told, with no link to follow.
      await wrongCodes(await pending(), 5);
      const notice = await sink.waitForMail(email, { subject });
      expect(notice.text).toContain('entered wrong two-step verification codes');
      expect(notice.html).not.toContain('<a ');
      // The holder signs in; another stopped sign-in within the hour sends no second mail.
      expect((await finish(await pending(), totpCode(secret, at))).status).toBe(200);
      at += STEP;
      await wrongCodes(await pending(), 5);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(notices()).toHaveLength(1);
    } finally {
      await own.close();
    }
  });

  it('refuses enrolling without a verified email, with a stale sign-in, or a second time', async () => {
    const unverified = await client.signUp(uniqueEmail('unverified'), 'secret-1');
    expect((await start(unverified.body.idToken)).body).toEqual(protocolError('UNVERIFIED_EMAIL'));

    const email = uniqueEmail('stale');
    const signedUp = await signUpVerified(client, sink, email, 'secret-1');
    const started = await start(signedUp.idToken);
    at += 6 * 60_000;
    const signedUpToken = (await client.refresh(signedUp.refreshToken)).body.id_token as string;
    expect((await start(signedUpToken)).body).toEqual(protocolError('CREDENTIAL_TOO_OLD_LOGIN_AGAIN'));
    const { sharedSecretKey: secret, sessionInfo } = started.body.totpSessionInfo;
    expect((await finalize(signedUpToken, sessionInfo, totpCode(secret, at))).body).toEqual(
      protocolError('CREDENTIAL_TOO_OLD_LOGIN_AGAIN'),
    );

    const { tokens } = await enrolled();
    expect((await start(tokens.idToken)).body).toEqual(protocolError('SECOND_FACTOR_EXISTS'));
    expect((await start('not-a-token')).body).toEqual(protocolError('INVALID_ID_TOKEN'));
  });

  it('refuses a wrong code, a forged or foreign enrollment, an expired one, and one after five wrong codes', async () => {
    const first = await signUpVerified(client, sink, uniqueEmail('a'), 'secret-1');
    const other = await signUpVerified(client, sink, uniqueEmail('b'), 'secret-1');
    const started = await start(first.idToken);
    const { sharedSecretKey: secret, sessionInfo } = started.body.totpSessionInfo;
    expect((await finalize(first.idToken, sessionInfo, wrongTotpCode(secret, at))).body).toEqual(
      protocolError('INVALID_CODE'),
    );
    expect((await finalize(first.idToken, 'forged-session-info', totpCode(secret, at))).body).toEqual(
      protocolError('INVALID_SESSION_INFO'),
    );
    expect((await finalize(other.idToken, sessionInfo, totpCode(secret, at))).body).toEqual(
      protocolError('INVALID_SESSION_INFO'),
    );
    expect((await finalize(first.idToken, sessionInfo, '')).body).toEqual(protocolError('MISSING_CODE'));
    // Four wrong codes so far is one short of the end: a fifth ends the enrollment.
    for (let i = 0; i < 3; i++) await finalize(first.idToken, sessionInfo, wrongTotpCode(secret, at));
    expect((await finalize(first.idToken, sessionInfo, wrongTotpCode(secret, at))).body).toEqual(
      protocolError('INVALID_CODE'),
    );
    expect((await finalize(first.idToken, sessionInfo, totpCode(secret, at))).body).toEqual(
      protocolError('INVALID_SESSION_INFO'),
    );

    const late = await start(other.idToken);
    at += 10 * 60_000 + 1;
    const fresh = (await client.signIn((await client.lookup(other.idToken)).body.users[0].email, 'secret-1')).body;
    const { sharedSecretKey, sessionInfo: lateInfo } = late.body.totpSessionInfo;
    expect((await finalize(fresh.idToken, lateInfo, totpCode(sharedSecretKey, at))).body).toEqual(
      protocolError('SESSION_EXPIRED'),
    );
  });

  it('signs in with the current code or one a step away; refuses two steps away and a code used in its window', async () => {
    const { email, secret, enrollmentId } = await enrolled();
    at += STEP;
    const previous = await finishSignIn(await pendingSignIn(email), enrollmentId, totpCode(secret, at - STEP));
    expect(previous.status).toBe(200);
    expect(previous.body).toMatchObject({ kind: 'identitytoolkit#VerifyPasswordResponse', email, registered: true });
    expect(decodeJwt(previous.body.idToken).firebase).toMatchObject({
      sign_in_provider: 'password',
      sign_in_second_factor: 'totp',
    });
    // That step is used: its code and older ones are refused, even a moment later.
    expect((await finishSignIn(await pendingSignIn(email), enrollmentId, totpCode(secret, at - STEP))).body).toEqual(
      protocolError('INVALID_CODE'),
    );
    const current = totpCode(secret, at);
    expect((await finishSignIn(await pendingSignIn(email), enrollmentId, current)).status).toBe(200);
    expect((await finishSignIn(await pendingSignIn(email), enrollmentId, current)).body).toEqual(
      protocolError('INVALID_CODE'),
    );
    expect(
      (await finishSignIn(await pendingSignIn(email), enrollmentId, totpCode(secret, at + 2 * STEP))).body,
    ).toEqual(protocolError('INVALID_CODE'));
    expect((await finishSignIn(await pendingSignIn(email), enrollmentId, totpCode(secret, at + STEP))).status).toBe(
      200,
    );
  });

  it('refuses a reused, forged, expired or dead pending credential and a wrong enrollment id', async () => {
    const { email, secret, enrollmentId } = await enrolled();
    const pending = await pendingSignIn(email);
    expect((await finishSignIn(pending, enrollmentId, totpCode(secret, at))).status).toBe(200);
    at += STEP;
    expect((await finishSignIn(pending, enrollmentId, totpCode(secret, at))).body).toEqual(
      protocolError('INVALID_MFA_PENDING_CREDENTIAL'),
    );
    expect((await finishSignIn('forged-credential', enrollmentId, totpCode(secret, at))).body).toEqual(
      protocolError('INVALID_MFA_PENDING_CREDENTIAL'),
    );
    expect(
      (
        await client.call('/v2/accounts/mfaSignIn:finalize', {
          mfaEnrollmentId: enrollmentId,
          totpVerificationInfo: {},
        })
      ).body,
    ).toEqual(protocolError('MISSING_MFA_PENDING_CREDENTIAL'));
    const another = await pendingSignIn(email);
    expect((await finishSignIn(another, 'other-enrollment', totpCode(secret, at))).body).toEqual(
      protocolError('MFA_ENROLLMENT_NOT_FOUND'),
    );

    const expiring = await pendingSignIn(email);
    at += 5 * 60_000 + 1;
    expect((await finishSignIn(expiring, enrollmentId, totpCode(secret, at))).body).toEqual(
      protocolError('INVALID_MFA_PENDING_CREDENTIAL'),
    );

    const dying = await pendingSignIn(email);
    for (let i = 0; i < 5; i++) {
      expect((await finishSignIn(dying, enrollmentId, wrongTotpCode(secret, at))).body).toEqual(
        protocolError('INVALID_CODE'),
      );
    }
    expect((await finishSignIn(dying, enrollmentId, totpCode(secret, at))).body).toEqual(
      protocolError('INVALID_MFA_PENDING_CREDENTIAL'),
    );
  });

  it('counts wrong codes against the account sign-in limit (429), which a right password does not clear', async () => {
    const { email, secret, enrollmentId } = await enrolled();
    // RATE_LIMIT_SIGNIN_PER_EMAIL is 8: four wrong codes on each of two pending sign-ins (the
    // right password in between refunds only itself).
    let pending = '';
    for (let round = 0; round < 2; round++) {
      pending = await pendingSignIn(email);
      for (let i = 0; i < 4; i++) await finishSignIn(pending, enrollmentId, wrongTotpCode(secret, at));
    }
    const blocked = await finishSignIn(pending, enrollmentId, totpCode(secret, at));
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual(protocolError('TOO_MANY_ATTEMPTS_TRY_LATER', 429));
    expect((await client.signIn(email, 'secret-1')).status).toBe(429);
    at += 15 * 60_000;
    expect((await finishSignIn(await pendingSignIn(email), enrollmentId, totpCode(secret, at))).status).toBe(200);
  });

  it('takes each recovery code once, in place of a code', async () => {
    const { email, enrollmentId, recoveryCodes } = await enrolled();
    const signedIn = await finishSignIn(await pendingSignIn(email), enrollmentId, recoveryCodes[3]!.toUpperCase());
    expect(signedIn.status).toBe(200);
    expect((await finishSignIn(await pendingSignIn(email), enrollmentId, recoveryCodes[3]!)).body).toEqual(
      protocolError('INVALID_CODE'),
    );
    expect((await finishSignIn(await pendingSignIn(email), enrollmentId, 'aaaaa-bbbbb')).body).toEqual(
      protocolError('INVALID_CODE'),
    );
  });

  it('answers the second step in browser session mode with the cookie', async () => {
    const { email, secret, enrollmentId } = await enrolled();
    const answer = await client.call(
      '/v2/accounts/mfaSignIn:finalize',
      {
        mfaPendingCredential: await pendingSignIn(email),
        mfaEnrollmentId: enrollmentId,
        totpVerificationInfo: { verificationCode: totpCode(secret, at) },
      },
      { headers: { 'x-inkwell-session': 'cookie' } },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.refreshToken).toBeUndefined();
    expect(answer.headers.get('set-cookie')).toMatch(/^inkwell_session=/);
  });

  it('answers malformed bodies with a protocol error, never a 500', async () => {
    const { tokens } = await enrolled();
    const cases: [string, unknown, string][] = [
      ['/v2/accounts/mfaEnrollment:start', { idToken: tokens.idToken, totpEnrollmentInfo: 'x' }, 'INVALID_REQUEST'],
      ['/v2/accounts/mfaEnrollment:finalize', { idToken: tokens.idToken }, 'MISSING_SESSION_INFO'],
      [
        '/v2/accounts/mfaEnrollment:finalize',
        { idToken: tokens.idToken, totpVerificationInfo: { sessionInfo: 7, verificationCode: '1' } },
        'INVALID_SESSION_INFO',
      ],
      ['/v2/accounts/mfaEnrollment:withdraw', { idToken: tokens.idToken }, 'MISSING_MFA_ENROLLMENT_ID'],
      ['/v2/accounts/mfaSignIn:finalize', { mfaPendingCredential: ['x'] }, 'INVALID_MFA_PENDING_CREDENTIAL'],
      [
        '/v2/accounts/mfaSignIn:finalize',
        { mfaPendingCredential: 'x', mfaEnrollmentId: 'y', totpVerificationInfo: { verificationCode: 'x'.repeat(33) } },
        'INVALID_CODE',
      ],
      [
        '/v2/accounts/mfaSignIn:finalize',
        { mfaPendingCredential: 'x\u0000', mfaEnrollmentId: 'y', totpVerificationInfo: { verificationCode: '\u0000' } },
        'INVALID_MFA_PENDING_CREDENTIAL',
      ],
    ];
    for (const [path, body, code] of cases) {
      const answer = await client.call(path, body);
      expect(answer.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(answer.body).toEqual(protocolError(code));
    }
  });

  it('signs in with a passkey without a second step (its user verification is one)', async () => {
    const { email, secret, enrollmentId } = await enrolled();
    const recent = (await finishSignIn(await pendingSignIn(email), enrollmentId, totpCode(secret, at))).body;
    const authenticator = softAuthenticator(server.config.publicUrl);
    const started = await client.call('/v1/passkeys:startRegistration', { idToken: recent.idToken });
    const { response, passkey } = authenticator.register(started.body.options);
    const registered = await client.call('/v1/passkeys:finishRegistration', {
      idToken: recent.idToken,
      credential: response,
    });
    expect(registered.status).toBe(200);
    const signInStarted = await client.call('/v1/passkeys:startSignIn', {});
    const signedIn = await client.call('/v1/passkeys:finishSignIn', {
      credential: authenticator.signIn(signInStarted.body.options, passkey),
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.mfaPendingCredential).toBeUndefined();
    expect(decodeJwt(signedIn.body.idToken).firebase).toMatchObject({ sign_in_provider: 'passkey' });
  });

  it('withdraws with a recent sign-in only, ends the other sessions, and signs in without a code after', async () => {
    const { email, secret, enrollmentId, tokens } = await enrolled();
    const elsewhere = (await finishSignIn(await pendingSignIn(email), enrollmentId, totpCode(secret, at))).body;
    expect(
      (await client.call('/v2/accounts/mfaEnrollment:withdraw', { idToken: tokens.idToken, mfaEnrollmentId: 'nope' }))
        .body,
    ).toEqual(protocolError('MFA_ENROLLMENT_NOT_FOUND'));
    at += 6 * 60_000;
    const stale = (await client.refresh(tokens.refreshToken)).body.id_token as string;
    expect(
      (await client.call('/v2/accounts/mfaEnrollment:withdraw', { idToken: stale, mfaEnrollmentId: enrollmentId }))
        .body,
    ).toEqual(protocolError('CREDENTIAL_TOO_OLD_LOGIN_AGAIN'));
    at += STEP;
    const recent = (await finishSignIn(await pendingSignIn(email), enrollmentId, totpCode(secret, at))).body;
    const withdrawn = await client.call('/v2/accounts/mfaEnrollment:withdraw', {
      idToken: recent.idToken,
      mfaEnrollmentId: enrollmentId,
    });
    expect(withdrawn.status).toBe(200);
    expect((await client.lookup(withdrawn.body.idToken)).body.users[0].mfaInfo).toBeUndefined();
    expect((await client.refresh(elsewhere.refreshToken)).body).toEqual(protocolError('TOKEN_EXPIRED'));
    expect((await client.refresh(withdrawn.body.refreshToken)).status).toBe(200);
    const plain = await client.signIn(email, 'secret-1');
    expect(plain.body.idToken).toEqual(expect.any(String));
    expect(plain.body.mfaPendingCredential).toBeUndefined();
  });
});
