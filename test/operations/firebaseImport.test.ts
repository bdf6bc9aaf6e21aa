import { deleteApp, initializeApp, type FirebaseApp } from '@firebase/app';
import {
  confirmPasswordReset,
  createUserWithEmailAndPassword,
  sendPasswordResetEmail,
  signInWithEmailAndPassword,
  signOut,
  type Auth,
} from '@firebase/auth';
import { createCipheriv, scryptSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/database.ts';
import { databaseUrl, runAdmin, runAdminProcess } from '../support/adminRunner.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtpSink.ts';
import { startTestApp, type TestApp } from '../support/testApp.ts';
import { storageDatabases } from '../support/testDatabases.ts';
import { startTestOidcProvider, type TestOidcProvider } from '../support/testOidcProvider.ts';
import { authAgainst } from '../support/firebaseSdk.ts';

// The firebase/scrypt reference's published parameters and vector.
const SIGNER_KEY = 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==';
const HASH_BLOCK = `hash_config {
  algorithm: SCRYPT,
  base64_signer_key: ${SIGNER_KEY},
  base64_salt_separator: Bw==,
  rounds: 8,
  mem_cost: 14,
}
`;
const VECTOR_HASH = 'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==';
const VECTOR_SALT = '42xEC+ixf3L2lw==';

/** Firebase's modified scrypt, written here from node:crypto, independently of the server's. */
function firebaseHash(password: string, salt: Buffer): Buffer {
  const derived = scryptSync(password, Buffer.concat([salt, Buffer.from('Bw==', 'base64')]), 64, {
    N: 2 ** 14,
    r: 8,
    p: 1,
    maxmem: 64 * 1024 * 1024,
  });
  const cipher = createCipheriv('aes-256-ctr', derived.subarray(0, 32), Buffer.alloc(16));
  return Buffer.concat([cipher.update(Buffer.from(SIGNER_KEY, 'base64')), cipher.final()]);
}

const ownSalt = Buffer.from('salt-made-by-the-test\xfb\xff', 'latin1');
const ownHash = firebaseHash('own password ✓', ownSalt);

const CREATED = 1600000000123;
const LAST_SIGN_IN = 1650000000456;

const exportedUsers = {
  users: [
    {
      localId: 'vectorUid0000000000000000001',
      email: 'User1@Example.com',
      emailVerified: true,
      passwordHash: VECTOR_HASH,
      salt: VECTOR_SALT,
      displayName: 'User One',
      photoUrl: 'https://example.com/one.png',
      createdAt: String(CREATED),
      lastSignedInAt: String(LAST_SIGN_IN),
      disabled: false,
      providerUserInfo: [{ providerId: 'password', rawId: 'user1@example.com' }],
    },
    {
      localId: 'ownUid',
      email: 'own@example.com',
      emailVerified: false,
      passwordHash: ownHash.toString('base64url'),
      salt: ownSalt.toString('base64url'),
      createdAt: String(CREATED + 1),
    },
    {
      localId: 'federatedUid',
      email: 'federated@example.com',
      emailVerified: true,
      displayName: 'Fed',
      createdAt: String(CREATED + 2),
      providerUserInfo: [
        { providerId: 'google.com', rawId: '1234', email: 'Federated@Example.com', displayName: 'Fed at Google' },
      ],
    },
    {
      localId: 'disabledUid',
      email: 'disabled@example.com',
      passwordHash: firebaseHash('disabled pw', Buffer.from('s')).toString('base64'),
      salt: Buffer.from('s').toString('base64'),
      disabled: true,
      createdAt: String(CREATED + 3),
    },
    { localId: 'conflictUid', email: 'taken@example.com', createdAt: String(CREATED + 4) },
    { localId: 'badEmailUid', email: 'not-an-address', createdAt: String(CREATED + 5) },
    { localId: 'ownUid', email: 'own-again@example.com', createdAt: String(CREATED + 6) },
  ],
};

const article = (authorId: string, date: unknown, extra: Record<string, unknown> = {}) => ({
  image: 'https://example.com/cover.jpg',
  title: 'A title',
  description: 'Some *Markdown*',
  authorId,
  date,
  ...extra,
});

const exportedArticles = {
  art0SecondsNanos0001: article('vectorUid0000000000000000001', { _seconds: 1600000001, _nanoseconds: 987654321 }),
  art0PlainSeconds0002: article('ownUid', { seconds: 1600000002, nanoseconds: 5000000 }),
  art0IsoDate000000003: article('ownUid', '2021-03-04T05:06:07.089Z'),
  art0EpochMillis00004: article('federatedUid', 1600000004321),
  art0BadImage00000005: article('ownUid', 1600000005000, { image: 'ftp://example.com/x.jpg' }),
  art0NoAuthor00000006: article('nobodyUid', 1600000006000),
};

describe.each(storageDatabases())('import-firebase on $dialect', (dialectCase) => {
  let sink: SmtpSink;
  let server: TestApp;
  let firebaseApp: FirebaseApp;
  let auth: Auth;
  let dir: string;
  const file = (name: string) => path.join(dir, name);
  let env: Record<string, string>;
  const admin = (args: string[]) => runAdmin(args, env);
  const importArgs = () => [
    'import-firebase',
    '--users',
    file('users.json'),
    '--hash-config',
    file('hash.txt'),
    '--articles',
    file('articles.json'),
  ];
  const showUser = async (email: string) => {
    const run = await admin(['users', 'show', email, '--json']);
    expect(run.code).toBe(0);
    return (JSON.parse(run.stdout) as { user: Record<string, unknown> }).user;
  };
  const counts = async () => {
    const { db } = server.database;
    const users = await db.selectFrom('users').select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const articles = await db.selectFrom('articles').select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { users: Number(users.n), articles: Number(articles.n) };
  };

  let google: TestOidcProvider;

  beforeAll(async () => {
    sink = await startSmtpSink();
    // A real provider on loopback stands in for Google: its provider id is google.com.
    google = await startTestOidcProvider({ redirectUris: [] });
    server = await startTestApp(dialectCase, {
      SMTP_URL: sink.url,
      ...google.env('GOOGLE'),
      OIDC_GOOGLE_PROVIDER_ID: 'google.com',
    });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-firebase-import-'));
    env = { DATABASE_URL: databaseUrl(server.config.database), DATA_DIR: dir };
    fs.writeFileSync(file('users.json'), JSON.stringify(exportedUsers));
    fs.writeFileSync(file('hash.txt'), HASH_BLOCK);
    fs.writeFileSync(file('articles.json'), JSON.stringify(exportedArticles));
    firebaseApp = initializeApp({ apiKey: 'test-key', projectId: 'inkwell' }, `firebase-import-${dialectCase.dialect}`);
    auth = authAgainst(firebaseApp, server.url);
    // An account that already holds an address the export also has, under another uid.
    await createUserWithEmailAndPassword(auth, 'taken@example.com', 'inkwell-owner');
    await signOut(auth);
  });
  afterAll(async () => {
    await deleteApp(firebaseApp);
    await server.close();
    await google.close();
    await sink.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a file unusable as a whole: exit 2, one line naming it, nothing printed or written', async () => {
    const before = await counts();
    const write = (name: string, content: string) => {
      fs.writeFileSync(file(name), content);
      return file(name);
    };
    const hashJson = (overrides: Record<string, unknown>) =>
      JSON.stringify({
        algorithm: 'SCRYPT',
        base64_signer_key: SIGNER_KEY,
        base64_salt_separator: 'Bw==',
        rounds: 8,
        mem_cost: 14,
        ...overrides,
      });
    const cases: [string[], string][] = [
      [['--users', file('missing.json'), '--hash-config', file('hash.txt')], `${file('missing.json')}: no such file`],
      [
        ['--users', write('broken.json', '{"users": ['), '--hash-config', file('hash.txt')],
        `${file('broken.json')}: not valid JSON`,
      ],
      [
        ['--users', write('nolist.json', '{"accounts": []}'), '--hash-config', file('hash.txt')],
        `${file('nolist.json')}: no "users" list (expected the output of firebase auth:export --format=json)`,
      ],
      [
        [
          '--users',
          file('users.json'),
          '--hash-config',
          write('nokey.json', hashJson({ base64_signer_key: undefined })),
        ],
        `${file('nokey.json')}: base64_signer_key is missing`,
      ],
      [
        ['--users', file('users.json'), '--hash-config', write('mem.json', hashJson({ mem_cost: 16 }))],
        `${file('mem.json')}: mem_cost must be a whole number from 1 to 15`,
      ],
      [
        ['--users', file('users.json'), '--hash-config', write('rounds.json', hashJson({ rounds: 0 }))],
        `${file('rounds.json')}: rounds must be a whole number from 1 to 16`,
      ],
      [
        ['--users', file('users.json'), '--hash-config', write('block.txt', 'hash_config {\n  rounds 8\n}')],
        `${file('block.txt')}: cannot read the line "rounds 8"`,
      ],
      // Users valid, articles not: the users are not imported either.
      [
        ['--users', file('users.json'), '--hash-config', file('hash.txt'), '--articles', write('art.json', '[1')],
        `${file('art.json')}: not valid JSON`,
      ],
    ];
    for (const [args, line] of cases) {
      const run = await admin(['import-firebase', ...args, '--json']);
      expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({
        code: 2,
        stdout: '',
        stderr: `${line}\n`,
      });
    }
    expect(await counts()).toEqual(before);
  });

  it('imports users and articles, skipping what cannot be taken, with exactly the --json summary', async () => {
    const run = await admin([...importArgs(), '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      users: { imported: 4, skipped: 3 },
      articles: { imported: 4, skipped: 2 },
    });
  });

  it('keeps uid, normalised email, name, flags and times to the millisecond', async () => {
    expect(await showUser('user1@example.com')).toEqual({
      uid: 'vectorUid0000000000000000001',
      email: 'user1@example.com',
      displayName: 'User One',
      emailVerified: true,
      disabled: false,
      createdAt: new Date(CREATED).toISOString(),
      lastLoginAt: new Date(LAST_SIGN_IN).toISOString(),
      passwordAlgorithm: 'firebase-scrypt',
      // NEW_ACCOUNT_ROLE's default: imported people publish, as they did on Firebase.
      role: 'author',
      providers: [],
    });
    expect(await showUser('federated@example.com')).toMatchObject({
      uid: 'federatedUid',
      passwordAlgorithm: null,
      providers: [{ providerId: 'google.com', rawId: '1234', email: 'federated@example.com' }],
    });
    expect(await showUser('disabled@example.com')).toMatchObject({ disabled: true });
    // The conflicting export did not touch the account that holds the address.
    expect(await showUser('taken@example.com')).toMatchObject({ passwordAlgorithm: 'argon2id' });
    expect((await showUser('taken@example.com')).uid).not.toBe('conflictUid');
  });

  it('the Firebase SDK signs in with the original passwords; the first sign-in re-hashes with argon2id', async () => {
    await expect(signInWithEmailAndPassword(auth, 'user1@example.com', 'wrong password')).rejects.toMatchObject({
      code: 'auth/invalid-credential',
    });
    expect(await showUser('user1@example.com')).toMatchObject({ passwordAlgorithm: 'firebase-scrypt' });

    const vector = await signInWithEmailAndPassword(auth, 'User1@example.com', 'user1password');
    expect(vector.user.uid).toBe('vectorUid0000000000000000001');
    expect(vector.user.photoURL).toBe('https://example.com/one.png');
    expect(await showUser('user1@example.com')).toMatchObject({ passwordAlgorithm: 'argon2id' });
    await signOut(auth);
    // The argon2id hash now answers to the same password.
    expect((await signInWithEmailAndPassword(auth, 'user1@example.com', 'user1password')).user.uid).toBe(
      'vectorUid0000000000000000001',
    );
    await signOut(auth);

    const own = await signInWithEmailAndPassword(auth, 'own@example.com', 'own password ✓');
    expect(own.user.uid).toBe('ownUid');
    expect(await showUser('own@example.com')).toMatchObject({ passwordAlgorithm: 'argon2id' });
    await signOut(auth);

    await expect(signInWithEmailAndPassword(auth, 'disabled@example.com', 'disabled pw')).rejects.toMatchObject({
      code: 'auth/user-disabled',
    });
  });

  it('an account imported without a password signs in only after a reset', async () => {
    await expect(signInWithEmailAndPassword(auth, 'federated@example.com', '')).rejects.toMatchObject({
      code: expect.stringMatching(/^auth\//),
    });
    const before = sink.messages.length;
    await sendPasswordResetEmail(auth, 'federated@example.com');
    const mail = await sink.waitForMail('federated@example.com', { after: before });
    const code = /oobCode=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    await confirmPasswordReset(auth, code, 'a new password');
    const signedIn = await signInWithEmailAndPassword(auth, 'federated@example.com', 'a new password');
    expect(signedIn.user.uid).toBe('federatedUid');
    expect(await showUser('federated@example.com')).toMatchObject({ passwordAlgorithm: 'argon2id' });
    await signOut(auth);
  });

  it('an imported Google-linked account signs in with the provider to its old uid', async () => {
    const postBody = new URLSearchParams({
      id_token: await google.idToken({ sub: '1234', email: 'federated@example.com', email_verified: true }),
      providerId: 'google.com',
    });
    const response = await fetch(`${server.url}/identity/v1/accounts:signInWithIdp?key=test`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ requestUri: 'http://localhost', postBody: postBody.toString(), returnSecureToken: true }),
    });
    const answer = (await response.json()) as Record<string, unknown>;
    expect(response.status).toBe(200);
    expect(answer).toMatchObject({ localId: 'federatedUid', isNewUser: false, providerId: 'google.com' });
  });

  it('the API lists the articles, published, with their original ids, authors and dates', async () => {
    const response = await fetch(`${server.url}/api/articles?limit=100`);
    const { articles } = (await response.json()) as { articles: { id: string; date: string; authorId: string }[] };
    const imported = articles.filter((a) => a.id.startsWith('art')).map((a) => [a.id, a.authorId, a.date]);
    expect(imported).toEqual([
      ['art0IsoDate000000003', 'ownUid', '2021-03-04T05:06:07.089Z'],
      ['art0EpochMillis00004', 'federatedUid', new Date(1600000004321).toISOString()],
      ['art0PlainSeconds0002', 'ownUid', new Date(1600000002005).toISOString()],
      ['art0SecondsNanos0001', 'vectorUid0000000000000000001', new Date(1600000001987).toISOString()],
    ]);
    const one = await fetch(`${server.url}/api/articles/art0SecondsNanos0001`);
    expect(await one.json()).toMatchObject({ authorName: 'User One', title: 'A title', status: 'published' });
    // Published whatever the account's role (DESIGN.md §8.2): the old site showed them all.
    const statuses = await server.database.db.selectFrom('articles').select(['status', 'ever_published']).execute();
    expect(new Set(statuses.map((row) => `${row.status} ${Number(row.ever_published)}`))).toEqual(
      new Set(['published 1']),
    );
  });

  it('a re-run skips everything that is there and says why, one line per document', async () => {
    const before = await counts();
    const run = await admin(importArgs());
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toBe('Users: 0 imported, 7 skipped.');
    expect(lines).toContain('  skipped user badEmailUid: invalid email address');
    expect(lines).toContain('  skipped user ownUid: already imported (this uid exists)');
    expect(lines).toContain('  skipped user conflictUid: its email address belongs to another account');
    expect(lines).toContain('Articles: 0 imported, 6 skipped.');
    expect(lines).toContain(
      '  skipped article art0BadImage00000005: Image URL must be an http:// or https:// address.',
    );
    expect(lines).toContain('  skipped article art0NoAuthor00000006: unknown author nobodyUid');
    expect(lines).toContain('  skipped article art0IsoDate000000003: already imported (this id exists)');
    expect(lines).toHaveLength(15);
    expect(await counts()).toEqual(before);
    // The re-hashed password was not put back to the Firebase one.
    expect(await showUser('user1@example.com')).toMatchObject({ passwordAlgorithm: 'argon2id' });
  });

  it('migrates an empty database before importing', async () => {
    const fresh = await dialectCase.create();
    try {
      const freshEnv = { DATABASE_URL: databaseUrl(fresh.config), DATA_DIR: dir };
      // The operator's real process: the import's door, start to finish.
      const run = await runAdminProcess(
        ['import-firebase', '--users', file('users.json'), '--hash-config', file('hash.txt')],
        freshEnv,
      );
      expect(run.code).toBe(0);
      expect(run.stdout.split('\n').slice(0, 3)).toEqual([
        'Users: 5 imported, 2 skipped.',
        '  skipped user badEmailUid: invalid email address',
        '  skipped user ownUid: this uid appears earlier in the file',
      ]);
      const database = openDatabase(fresh.config);
      try {
        const row = await database.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'taken@example.com')
          .executeTakeFirst();
        expect(row?.id).toBe('conflictUid');
      } finally {
        await database.close();
      }
    } finally {
      await fresh.dispose();
    }
  });
});
