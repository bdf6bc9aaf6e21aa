import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../../../test/support/articlesTestClient.ts';
import { markAddressVerified } from '../../../test/support/verifiedAccounts.ts';
import { openDatabase } from '../db/database.ts';
import { databaseUrl } from '../../../test/support/adminRunner.ts';
import { identityClient, protocolError } from '../../../test/support/identityTestClient.ts';
import { startServerProcess, type ServerProcess } from '../../../test/support/serverProcess.ts';
import { storageDatabases, type TestDatabase } from '../../../test/support/testDatabases.ts';
import { softAuthenticator } from './testAuthenticator.ts';

const PUBLIC_URL = 'https://blog.example';

// Two real server processes behind one public origin, sharing one database (PostgreSQL when
// TEST_DATABASE_URL is set): a ceremony started on one is finished on the other.
describe.each(storageDatabases())('passkey ceremonies across two processes on $dialect', (dialectCase) => {
  let testDatabase: TestDatabase;
  let dataDir: string;
  let a: ServerProcess;
  let b: ServerProcess;
  const authenticator = softAuthenticator(PUBLIC_URL);

  beforeAll(async () => {
    testDatabase = await dialectCase.create();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-passkeys-'));
    const env = { DATABASE_URL: databaseUrl(testDatabase.config), DATA_DIR: dataDir, PUBLIC_URL };
    a = await startServerProcess(env);
    b = await startServerProcess(env);
  });

  afterAll(async () => {
    for (const server of [a, b]) if (server) expect(await server.stop()).toBe(0);
    await testDatabase?.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  // Adding a passkey needs a verified address; the emailed link is tested elsewhere.
  const verified = async (uid: string) => {
    const database = openDatabase(testDatabase.config);
    try {
      await markAddressVerified({ database }, uid);
    } finally {
      await database.close();
    }
  };

  const on = (server: ServerProcess) => (name: string, body: unknown) =>
    identityClient(server.url).call(`/v1/passkeys:${name}`, body);

  it('registers on B what A started, signs in on A what B started, and the challenge is used up on both', async () => {
    const user = await signUp(a.url, 'Twin');
    await verified(user.uid);
    const registration = await on(a)('startRegistration', { idToken: user.idToken });
    const { response, passkey } = authenticator.register(registration.body.options);
    expect((await on(b)('finishRegistration', { idToken: user.idToken, credential: response })).status).toBe(200);

    const started = await on(b)('startSignIn', {});
    const answer = authenticator.signIn(started.body.options, passkey);
    const signedIn = await on(a)('finishSignIn', { credential: answer });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.localId).toBe(user.uid);
    for (const server of [a, b]) {
      expect((await on(server)('finishSignIn', { credential: answer })).body).toEqual(
        protocolError('INVALID_PASSKEY_CHALLENGE'),
      );
    }
  });

  it('lets only one of two processes finishing the same answer at once sign in', async () => {
    const user = await signUp(b.url, 'Race');
    await verified(user.uid);
    const registration = await on(b)('startRegistration', { idToken: user.idToken });
    const { response, passkey } = authenticator.register(registration.body.options);
    expect((await on(a)('finishRegistration', { idToken: user.idToken, credential: response })).status).toBe(200);
    for (let round = 0; round < 5; round++) {
      const started = await on(a)('startSignIn', {});
      const answer = authenticator.signIn(started.body.options, passkey);
      const results = await Promise.all([a, b].map((server) => on(server)('finishSignIn', { credential: answer })));
      expect(results.map((result) => result.status).sort()).toEqual([200, 400]);
    }
  });
});
