import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, identityCall, signUp } from '../support/articlesTestClient.ts';
import { openDatabase, type Database } from '../../src/server/db/database.ts';
import { migrations as allMigrations } from '../../src/server/db/migrations/index.ts';
import { identityClient, protocolError, uniqueEmail } from '../support/identityTestClient.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtpSink.ts';
import { storageDatabases, type TestDatabase } from '../support/testDatabases.ts';
import { databaseUrl, runAdminProcess } from '../support/adminRunner.ts';
import { startServerProcess, type ServerProcess } from '../support/serverProcess.ts';

/** The part of the JSON Web Key Set these tests read. */
type Jwks = { keys: { kid: string }[] };

// Two real server processes on one database: PostgreSQL (when TEST_DATABASE_URL is set, as
// in CI) is the deployment this is about; a shared SQLite file is a real multi-process set-up
// too (WAL), so the proof runs everywhere.
describe.each(storageDatabases())('two server processes sharing one $dialect database', (dialectCase) => {
  let testDatabase: TestDatabase;
  let database: Database;
  let sink: SmtpSink;
  let dataDir: string;
  let a: ServerProcess;
  let b: ServerProcess;
  let env: Record<string, string>;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    testDatabase = await dialectCase.create();
    sink = await startSmtpSink();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-scale-'));
    env = {
      DATABASE_URL: databaseUrl(testDatabase.config),
      DATA_DIR: dataDir,
      // One public origin in front of both, as behind a load balancer: same token issuer.
      PUBLIC_URL: 'http://inkwell.test',
      SMTP_URL: sink.url,
      RATE_LIMIT_SIGNIN_PER_EMAIL: '4',
    };
    // Both start at the same moment on an empty database.
    [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    servers.push(a, b);
    database = openDatabase(testDatabase.config);
  });

  afterAll(async () => {
    for (const server of servers) expect(await server.stop()).toBe(0);
    await database?.close();
    await sink?.close();
    await testDatabase?.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('migrated once and created exactly one signing key, although both started at once', async () => {
    const migrations = await database.db
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kysely's own table is not in our schema
      .selectFrom('kysely_migration' as any)
      .select('name')
      .execute();
    expect(migrations.map((m: { name: string }) => m.name).sort()).toEqual(Object.keys(allMigrations).sort());
    const keys = await database.db.selectFrom('identity_signing_keys').select(['kid', 'is_current']).execute();
    expect(keys).toHaveLength(1);
    const jwksA = (await (await fetch(`${a.url}/identity/.well-known/jwks.json`)).json()) as Jwks;
    const jwksB = await (await fetch(`${b.url}/identity/.well-known/jwks.json`)).json();
    expect(jwksA).toEqual(jwksB);
    expect(jwksA.keys.map((k) => k.kid)).toEqual([keys[0]!.kid]);
  });

  it('signs up on A, signs in on B, refreshes A’s token on B, and B’s API trusts A’s ID token', async () => {
    const onA = identityClient(a.url);
    const onB = identityClient(b.url);
    const email = uniqueEmail('scale');
    const signedUp = await onA.signUp(email, 'secret-one', { displayName: 'Ada' });
    expect(signedUp.status).toBe(200);

    const signedIn = await onB.signIn(email, 'secret-one');
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.localId).toBe(signedUp.body.localId);

    const refreshed = await onB.refresh(signedUp.body.refreshToken);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.user_id).toBe(signedUp.body.localId);

    // An article created on B with A's ID token, and one created on A, are listed by both.
    const created = await articlesApi(b.url).request('POST', '/articles', {
      token: signedUp.body.idToken,
      json: { image: 'https://img.example/1.png', title: 'Written via B', description: 'With A’s token' },
    });
    expect(created.status).toBe(201);
    const createdOnA = await articlesApi(a.url).request('POST', '/articles', {
      token: refreshed.body.id_token,
      json: { image: 'https://img.example/2.png', title: 'Written via A', description: 'With B’s token' },
    });
    expect(createdOnA.status).toBe(201);
    for (const server of [a, b]) {
      const list = await articlesApi(server.url).request('GET', '/articles');
      const ids = list.body.articles.map((article: { id: string }) => article.id);
      expect(ids).toEqual(expect.arrayContaining([created.body.id, createdOnA.body.id]));
    }
  });

  it('completes on B a password reset requested on A', async () => {
    const user = await signUp(a.url, 'Reset');
    const before = sink.messages.length;
    const requested = await identityCall(a.url, 'accounts:sendOobCode', {
      requestType: 'PASSWORD_RESET',
      email: user.email,
    });
    expect(requested.status).toBe(200);
    const mail = await sink.waitForMail(user.email, { after: before, subject: /Reset your/ });
    const oobCode = /\/reset-password\?oobCode=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    const applied = await identityCall(b.url, 'accounts:resetPassword', { oobCode, newPassword: 'brand-new-1' });
    expect(applied.status).toBe(200);
    expect((await identityClient(a.url).signIn(user.email, 'brand-new-1')).status).toBe(200);
    expect((await identityClient(b.url).signIn(user.email, user.password)).body).toEqual(
      protocolError('INVALID_LOGIN_CREDENTIALS'),
    );
  });

  it('signing out on A ends the session on B', async () => {
    const email = uniqueEmail('signout');
    const signedUp = await identityClient(a.url).signUp(email, 'secret-one');
    const revoked = await fetch(`${a.url}/identity/v2/accounts:revokeToken?key=k`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: signedUp.body.refreshToken, tokenType: 'REFRESH_TOKEN' }),
    });
    expect(revoked.status).toBe(200);
    expect((await identityClient(b.url).refresh(signedUp.body.refreshToken)).body).toEqual(
      protocolError('TOKEN_EXPIRED'),
    );
  });

  it('counts failed sign-ins for one email across both processes together', async () => {
    const email = uniqueEmail('limit');
    await identityClient(a.url).signUp(email, 'secret-one');
    // RATE_LIMIT_SIGNIN_PER_EMAIL=4: four failures, alternating, then both refuse.
    for (const server of [a, b, a, b]) {
      expect((await identityClient(server.url).signIn(email, 'wrong-password')).body).toEqual(
        protocolError('INVALID_LOGIN_CREDENTIALS'),
      );
    }
    for (const server of [a, b]) {
      const refused = await identityClient(server.url).signIn(email, 'secret-one');
      expect(refused.status).toBe(429);
      expect(refused.body.error.message).toBe('TOO_MANY_ATTEMPTS_TRY_LATER');
    }
  });

  it('after a key rotation, a process signing with the new key and one still on the old key trust each other', async () => {
    const email = uniqueEmail('rotate');
    const before = await identityClient(a.url).signUp(email, 'secret-one');
    // The operator's process, as the servers are: it must also exit by itself once done.
    const rotated = await runAdminProcess(['keys', 'rotate', '--json'], env);
    expect(rotated.code).toBe(0);
    const { kid, previousKid } = JSON.parse(rotated.stdout) as { kid: string; previousKid: string };

    // A third process starts after the rotation: it signs with the new key at once.
    const c = await startServerProcess(env);
    servers.push(c);
    const fresh = await identityClient(c.url).signIn(email, 'secret-one');
    const header = (token: string) => JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString());
    expect(header(fresh.body.idToken).kid).toBe(kid);
    expect(header(before.body.idToken).kid).toBe(previousKid);

    // A has not re-read its keys yet; an unknown kid makes it look again.
    expect((await identityClient(a.url).lookup(fresh.body.idToken)).status).toBe(200);
    // The old key's tokens stay valid everywhere until they expire.
    expect((await identityClient(c.url).lookup(before.body.idToken)).status).toBe(200);
    const jwks = (await (await fetch(`${c.url}/identity/.well-known/jwks.json`)).json()) as Jwks;
    expect(jwks.keys.map((k) => k.kid).sort()).toEqual([kid, previousKid].sort());
  });
});
