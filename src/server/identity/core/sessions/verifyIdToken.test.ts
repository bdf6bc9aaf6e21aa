import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config.ts';
import { openDatabase, type Database } from '../../../db/database.ts';
import { migrateToLatest } from '../../../db/migrate.ts';
import { createMailer } from '../../../mail/mailer.ts';
import { createRateLimiter } from '../../../rateLimit/rateLimiter.ts';
import { storageDatabases, type TestDatabase } from '../../../../../test/support/testDatabases.ts';
import { createIdentity, IdTokenError, type Identity } from '../../createIdentity.ts';
import { identityClient, protocolError, uniqueEmail } from '../../../../../test/support/identityTestClient.ts';
import { createSigningKeys } from '../stores/signingKeys.ts';

const silentLog = { info: () => {}, warn: () => {}, error: () => {} };

describe.each(storageDatabases())('verifyIdToken and the identity module on $dialect', (dialectCase) => {
  let testDatabase: TestDatabase;
  let database: Database;
  let identity: Identity;
  let app: FastifyInstance;
  let client: ReturnType<typeof identityClient>;
  let dataDir: string;
  const config = loadConfig({ PUBLIC_URL: 'http://inkwell.test', LOG_LEVEL: 'silent' });
  const deletedInTransaction: string[] = [];

  beforeAll(async () => {
    testDatabase = await dialectCase.create();
    database = openDatabase(testDatabase.config);
    await migrateToLatest(database);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-identity-'));
    const mailer = createMailer({ smtpUrl: undefined, from: config.mailFrom, dataDir, log: silentLog });
    identity = createIdentity({ config, database, mailer, rateLimiter: createRateLimiter(database) });
    identity.onUserDeleting(async (uid, trx) => {
      // The row is still there inside the transaction.
      const row = await trx.selectFrom('users').select('id').where('id', '=', uid).executeTakeFirst();
      if (row) deletedInTransaction.push(uid);
      if (uid === refuseToDelete) throw new Error('listener refused');
    });
    app = Fastify({ logger: false });
    await app.register(identity.routes, { prefix: '/identity' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    client = identityClient(`http://127.0.0.1:${address.port}`);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    await testDatabase.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  let refuseToDelete = '';

  async function realKey() {
    const row = await database.db.selectFrom('identity_signing_keys').selectAll().executeTakeFirstOrThrow();
    return { kid: row.kid, key: await importJWK(JSON.parse(row.private_jwk) as JWK, 'RS256') };
  }

  async function forge(
    claims: Record<string, unknown>,
    options: { kid?: string; iss?: string; aud?: string; iat?: number } = {},
  ) {
    const { kid, key } = await realKey();
    const iat = options.iat ?? Math.floor(Date.now() / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? kid })
      .setIssuer(options.iss ?? 'http://inkwell.test/identity')
      .setAudience(options.aud ?? 'inkwell')
      .setIssuedAt(iat)
      .setExpirationTime(iat + 3600)
      .sign(key);
  }

  /** The session an ID token names. */
  const sessionOf = (idToken: string) =>
    (JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;

  async function expectRefused(token: string, code: string) {
    const error = await identity.verifyIdToken(token).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(IdTokenError);
    expect((error as IdTokenError).code).toBe(code);
  }

  it('accepts a real token and says who it belongs to', async () => {
    const email = uniqueEmail();
    const signUp = await client.signUp(email, 'secret-1', { displayName: 'Ada' });
    expect(await identity.verifyIdToken(signUp.body.idToken)).toEqual({
      uid: signUp.body.localId,
      email,
      displayName: 'Ada',
      emailVerified: false,
      role: 'author',
      twoStepOn: false,
    });
  });

  it('refuses wrong alg, unknown kid, wrong aud or iss, expiry and garbage', async () => {
    const signUp = await client.signUp(uniqueEmail(), 'secret-1');
    const uid = signUp.body.localId as string;
    const claims = { sub: uid, sid: sessionOf(signUp.body.idToken), auth_time: Math.floor(Date.now() / 1000) };
    expect((await identity.verifyIdToken(await forge(claims))).uid).toBe(uid);

    await expectRefused(await forge(claims, { kid: 'someone-else' }), 'INVALID_ID_TOKEN');
    await expectRefused(await forge(claims, { aud: 'other-project' }), 'INVALID_ID_TOKEN');
    await expectRefused(await forge(claims, { iss: 'https://evil.example/identity' }), 'INVALID_ID_TOKEN');
    await expectRefused(await forge(claims, { iat: Math.floor(Date.now() / 1000) - 7200 }), 'TOKEN_EXPIRED');
    await expectRefused(await forge({ sub: uid }), 'INVALID_ID_TOKEN');
    // Every token names its session; one that names none, or a session that never was, is refused.
    await expectRefused(await forge({ sub: uid, auth_time: claims.auth_time }), 'INVALID_ID_TOKEN');
    await expectRefused(await forge({ ...claims, sid: 'no-such-session' }), 'TOKEN_EXPIRED');
    // Issued in the future: no healthy copy of the server made it.
    await expectRefused(await forge(claims, { iat: Math.floor(Date.now() / 1000) + 600 }), 'INVALID_ID_TOKEN');

    const { kid } = await realKey();
    const hmac = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid })
      .setIssuer('http://inkwell.test/identity')
      .setAudience('inkwell')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('a-guessable-secret-of-32-bytes!!'));
    await expectRefused(hmac, 'INVALID_ID_TOKEN');
    const [, payload] = signUp.body.idToken.split('.');
    await expectRefused(
      `${Buffer.from('{"alg":"none","kid":"x"}').toString('base64url')}.${payload}.`,
      'INVALID_ID_TOKEN',
    );

    const other = await generateKeyPair('RS256');
    const foreign = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid })
      .setIssuer('http://inkwell.test/identity')
      .setAudience('inkwell')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(other.privateKey);
    await expectRefused(foreign, 'INVALID_ID_TOKEN');
    await expectRefused('', 'INVALID_ID_TOKEN');
    await expectRefused('a.b.c', 'INVALID_ID_TOKEN');
  });

  it('refuses tokens issued before a password change, and those of deleted users', async () => {
    const email = uniqueEmail();
    const signUp = await client.signUp(email, 'secret-1');
    const uid = signUp.body.localId as string;
    const oldToken = await forge(
      { sub: uid, sid: sessionOf(signUp.body.idToken), auth_time: Math.floor(Date.now() / 1000) },
      { iat: Math.floor(Date.now() / 1000) - 2 },
    );
    const changed = await client.update({ idToken: signUp.body.idToken, password: 'secret-2' });
    await expectRefused(oldToken, 'TOKEN_EXPIRED');
    await expectRefused(signUp.body.idToken, 'TOKEN_EXPIRED');
    expect((await identity.verifyIdToken(changed.body.idToken)).uid).toBe(uid);

    // A token whose sign-in is 10 minutes old cannot delete the account.
    const stale = await forge({
      sub: uid,
      sid: sessionOf(changed.body.idToken),
      auth_time: Math.floor(Date.now() / 1000) - 600,
    });
    expect((await client.call('/v1/accounts:delete', { idToken: stale })).body).toEqual(
      protocolError('CREDENTIAL_TOO_OLD_LOGIN_AGAIN'),
    );

    await client.call('/v1/accounts:delete', { idToken: changed.body.idToken });
    expect(deletedInTransaction).toContain(uid);
    await expectRefused(changed.body.idToken, 'USER_NOT_FOUND');
  });

  it("refuses a session's ID tokens once it is signed out, and only that session's", async () => {
    const email = uniqueEmail();
    const first = await client.signUp(email, 'secret-1');
    const second = await client.signIn(email, 'secret-1');
    await client.call('/v2/accounts:revokeToken', { token: first.body.refreshToken });
    await expectRefused(first.body.idToken, 'TOKEN_EXPIRED');
    expect((await identity.verifyIdToken(second.body.idToken)).uid).toBe(first.body.localId);
  });

  it("ends the account's other sessions when its email changes, and keeps the changer signed in", async () => {
    const email = uniqueEmail();
    const stolen = await client.signUp(email, 'secret-1');
    const owner = await client.signIn(email, 'secret-1');
    const changed = await client.update({ idToken: owner.body.idToken, email: uniqueEmail() });
    expect(changed.status).toBe(200);
    await expectRefused(stolen.body.idToken, 'TOKEN_EXPIRED');
    expect((await client.refresh(stolen.body.refreshToken)).body).toEqual(protocolError('TOKEN_EXPIRED'));
    expect((await identity.verifyIdToken(changed.body.idToken)).uid).toBe(stolen.body.localId);
  });

  it('keeps the account when a deletion listener fails', async () => {
    const signUp = await client.signUp(uniqueEmail(), 'secret-1');
    refuseToDelete = signUp.body.localId;
    const answer = await client.call('/v1/accounts:delete', { idToken: signUp.body.idToken });
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual(protocolError('INTERNAL_ERROR', 500));
    expect((await identity.verifyIdToken(signUp.body.idToken)).uid).toBe(signUp.body.localId);
  });

  it('creates exactly one signing key when several processes start at once', async () => {
    const fresh = await dialectCase.create();
    const connections = [openDatabase(fresh.config), openDatabase(fresh.config), openDatabase(fresh.config)];
    try {
      await migrateToLatest(connections[0]!);
      const keys = await Promise.all(connections.map((c) => createSigningKeys(c.db, Date.now).current()));
      expect(new Set(keys.map((k) => k.kid)).size).toBe(1);
      const rows = await connections[0]!.db.selectFrom('identity_signing_keys').selectAll().execute();
      expect(rows).toHaveLength(1);
    } finally {
      for (const c of connections) await c.close();
      await fresh.dispose();
    }
  });
});
