import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { softAuthenticator } from '../../src/server/passkeys/testAuthenticator.ts';
import { databaseUrl, runAdmin } from '../support/adminRunner.ts';
import { articlesApi, type TestUser } from '../support/articlesTestClient.ts';
import { identityClient } from '../support/identityTestClient.ts';
import { startTestApp, type TestApp } from '../support/testApp.ts';
import { contractDatabases, storageDatabases, type TestDatabase } from '../support/testDatabases.ts';
import { plainJpeg } from '../support/testImages.ts';
import { totpCode } from '../support/twoStepTestSupport.ts';
import { signUpWithVerifiedAddress } from '../support/verifiedAccounts.ts';

const PUBLIC_URL = 'https://blog.example';
const PASSWORD = 'correct horse battery staple';
const STEP = 30_000;
const [sqliteCase] = contractDatabases();
const postgresCases = storageDatabases().filter((dialectCase) => dialectCase.dialect === 'postgres');

/** What a visitor and an operator see of a site, read the same way before and after the move. */
async function siteView(server: TestApp, articleId: string, env: Record<string, string>) {
  const api = articlesApi(server.url);
  const admin = async (...args: string[]) => {
    const run = await runAdmin(['--json', ...args], env);
    expect(run.code, run.stderr).toBe(0);
    return run.stdout;
  };
  return {
    list: (await api.list()).body,
    article: (await api.get(articleId)).body,
    tags: (await api.request('GET', '/tags')).body,
    search: (await api.request('GET', '/search?q=lighthouse')).body,
    comments: (await api.request('GET', `/articles/${articleId}/comments`)).body,
    users: JSON.parse(await admin('users', 'list')),
    audit: await admin('audit'),
    subscribers: await admin('subscribers', 'export'),
  };
}

// The SQLite source and the PostgreSQL target: runs where TEST_DATABASE_URL names a server.
describe.each(postgresCases)('copy-database from SQLite to $dialect', (postgresCase) => {
  let at = Date.now();
  const clock = () => at;
  const authenticator = softAuthenticator(PUBLIC_URL);
  let sqlite: TestDatabase;
  let postgres: TestDatabase;
  let source: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let articleId: string;
  let imageUrl: string;
  let imageBytes: Buffer;
  let refreshToken: string;
  let twoStepSecret: string;
  let passkey: ReturnType<typeof authenticator.register>['passkey'];
  let before: Awaited<ReturnType<typeof siteView>>;
  let sqliteEnv: Record<string, string>;
  let postgresEnv: Record<string, string>;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-copy-'));

  beforeAll(async () => {
    sqlite = await sqliteCase!.create();
    postgres = await postgresCase.create();
    sqliteEnv = { DATABASE_URL: databaseUrl(sqlite.config), DATA_DIR: dataDir, PUBLIC_URL };
    postgresEnv = { DATABASE_URL: databaseUrl(postgres.config), DATA_DIR: dataDir, PUBLIC_URL };
    source = await startTestApp(sqliteCase!, { PUBLIC_URL }, { database: sqlite, clock });
    const identity = identityClient(source.url);
    const api = articlesApi(source.url);

    // Alice: a password, a refresh token, a passkey, a provider link, an image, an article with tags.
    alice = await signUpWithVerifiedAddress(source, 'Alice Lamp');
    const signedIn = await identity.signIn(alice.email, alice.password);
    alice.idToken = signedIn.body.idToken;
    refreshToken = signedIn.body.refreshToken;
    const registration = await identity.call('/v1/passkeys:startRegistration', { idToken: alice.idToken });
    const registered = authenticator.register(registration.body.options);
    passkey = registered.passkey;
    const finished = await identity.call('/v1/passkeys:finishRegistration', {
      idToken: alice.idToken,
      credential: registered.response,
    });
    expect(finished.status).toBe(200);
    // A provider link as a Google sign-in leaves it (the sign-in flow itself is tested in identity).
    await source.database.db
      .insertInto('federated_identities')
      .values({
        provider_id: 'google.com',
        subject: 'google-subject-1',
        user_id: alice.uid,
        email: alice.email,
        display_name: 'Alice at Google',
        photo_url: null,
        created_at: at,
      })
      .execute();

    imageBytes = await plainJpeg(64, 48);
    const uploaded = await fetch(`${source.url}/api/images`, {
      method: 'POST',
      headers: { 'content-type': 'image/jpeg', authorization: `Bearer ${alice.idToken}` },
      body: new Uint8Array(imageBytes),
    });
    expect(uploaded.status).toBe(201);
    imageUrl = ((await uploaded.json()) as { url: string }).url;
    const made = await api.create(alice.idToken, {
      title: 'The lighthouse keeper',
      description: `Nights by the lighthouse.\n\n![The lamp](${imageUrl})`,
      image: imageUrl,
      tags: ['Coast', 'Night shifts'],
    });
    expect(made.status).toBe(201);
    articleId = made.body.id;

    // Bob: two-step on; a comment and a reply (a row referencing another of its table).
    bob = await signUpWithVerifiedAddress(source, 'Bob Tide');
    bob.idToken = (await identity.signIn(bob.email, bob.password)).body.idToken;
    const started = await identity.call('/v2/accounts/mfaEnrollment:start', {
      idToken: bob.idToken,
      totpEnrollmentInfo: {},
    });
    twoStepSecret = started.body.totpSessionInfo.sharedSecretKey;
    const enrolled = await identity.call('/v2/accounts/mfaEnrollment:finalize', {
      idToken: bob.idToken,
      displayName: 'Phone',
      totpVerificationInfo: {
        sessionInfo: started.body.totpSessionInfo.sessionInfo,
        verificationCode: totpCode(twoStepSecret, at),
      },
    });
    expect(enrolled.status).toBe(200);
    const comment = await api.request('POST', `/articles/${articleId}/comments`, {
      token: enrolled.body.idToken,
      json: { body: 'Which lighthouse?' },
    });
    expect(comment.status).toBe(201);
    const reply = await api.request('POST', `/articles/${articleId}/comments`, {
      token: alice.idToken,
      json: { body: 'The one on the point.', parentId: comment.body.id },
    });
    expect(reply.status).toBe(201);

    // Subscribers and an audit entry, through the operator's commands.
    const csv = path.join(dataDir, 'members.csv');
    fs.writeFileSync(csv, 'email,name\nreader@example.com,Reader\nother@example.com,Other\n');
    expect((await runAdmin(['subscribers', 'import', csv], sqliteEnv)).code).toBe(0);
    expect((await runAdmin(['users', 'role', bob.email, 'editor'], sqliteEnv)).code).toBe(0);

    before = await siteView(source, articleId, sqliteEnv);
    // The view compared after the move has every kind of row in it.
    expect(before.search.results).toHaveLength(1);
    expect(before.tags.tags).toHaveLength(2);
    expect(JSON.stringify(before.comments)).toMatch(/Which lighthouse\?.*The one on the point\./);
    expect(before.subscribers.trim().split('\n')).toHaveLength(2);
    expect(before.audit).toContain('"member.role"');
    await source.close();
  });

  afterAll(async () => {
    await sqlite?.dispose();
    await postgres?.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('copies every table, checked, and the site on PostgreSQL is the same site', async () => {
    const copied = await runAdmin(['copy-database', '--to', databaseUrl(postgres.config)], sqliteEnv);
    expect(copied.stderr).toBe('');
    expect(copied.code).toBe(0);
    expect(copied.stdout).toContain('Row counts and checksums match on both sides');
    expect(copied.stdout).toMatch(/^ {2}users +2 rows /m);
    expect(copied.stdout).toMatch(/^ {2}search index +1 rows /m);
    expect(copied.stdout).toContain(`Set DATABASE_URL=`);

    at += STEP;
    const target = await startTestApp(postgresCase, { PUBLIC_URL }, { database: postgres, clock });
    try {
      expect(await siteView(target, articleId, postgresEnv)).toEqual(before);
      const identity = identityClient(target.url);

      const password = await identity.signIn(alice.email, PASSWORD);
      expect(password.status).toBe(200);
      expect(password.body.localId).toBe(alice.uid);
      const refreshed = await identity.refresh(refreshToken);
      expect(refreshed.status).toBe(200);
      expect(refreshed.body.user_id).toBe(alice.uid);
      const challenge = await identity.call('/v1/passkeys:startSignIn', {});
      const byPasskey = await identity.call('/v1/passkeys:finishSignIn', {
        credential: authenticator.signIn(challenge.body.options, passkey),
      });
      expect(byPasskey.body.localId).toBe(alice.uid);

      const firstStep = await identity.signIn(bob.email, PASSWORD);
      const pending = firstStep.body.mfaPendingCredential as string;
      expect(pending).toEqual(expect.any(String));
      const secondStep = await identity.call('/v2/accounts/mfaSignIn:finalize', {
        mfaPendingCredential: pending,
        mfaEnrollmentId: firstStep.body.mfaInfo[0].mfaEnrollmentId,
        totpVerificationInfo: { verificationCode: totpCode(twoStepSecret, at) },
      });
      expect(secondStep.status).toBe(200);

      const shown = await runAdmin(['--json', 'users', 'show', alice.email], postgresEnv);
      expect(JSON.parse(shown.stdout).user.providers).toEqual(
        expect.arrayContaining([expect.objectContaining({ providerId: 'google.com' })]),
      );
      const image = await fetch(imageUrl.replace(PUBLIC_URL, target.url));
      expect(image.status).toBe(200);
      expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(0);

      // New rows after the move: an article (the read version moves) and a comment.
      const api = articlesApi(target.url);
      const next = await api.create(password.body.idToken, {
        title: 'After the move',
        description: 'Still here.',
        image: imageUrl,
      });
      expect(next.status).toBe(201);
      expect((await api.list()).body.articles.map((article: { id: string }) => article.id)).toContain(next.body.id);
      const found = (await api.request('GET', '/search?q=move')).body.results;
      expect(found.map((hit: { article: { id: string } }) => hit.article.id)).toContain(next.body.id);
    } finally {
      await target.close();
    }
  });

  it('refuses a target that is not empty and leaves it as it was', async () => {
    const again = await runAdmin(['copy-database', '--to', databaseUrl(postgres.config)], sqliteEnv);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(
      /^The target database is not empty \(\w+ has rows\): copy only into a new, empty database\.\n$/,
    );
  });
});

describe('copy-database without a PostgreSQL target', () => {
  it('answers a --to that is not PostgreSQL, or none, with one line', async () => {
    const sqlite = await sqliteCase!.create();
    try {
      const env = { DATABASE_URL: databaseUrl(sqlite.config) };
      expect((await runAdmin(['migrate'], env)).code).toBe(0);
      const wrong = await runAdmin(['copy-database', '--to', 'mysql://localhost/blog'], env);
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toBe('--to takes a postgres:// URL (an empty database, made with createdb).\n');
      const none = await runAdmin(['copy-database'], env);
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(/^"copy-database" needs --to postgres:\/\/\.\.\.\n/);
    } finally {
      await sqlite.dispose();
    }
  });
});
