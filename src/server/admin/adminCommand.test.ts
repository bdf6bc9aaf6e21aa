import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, sampleArticle, signUp } from '../../../test/support/articlesTestClient.ts';
import { identityClient, protocolError } from '../../../test/support/identityTestClient.ts';
import { databaseUrl, runAdmin, runAdminProcess } from '../../../test/support/adminRunner.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { storageDatabases } from '../../../test/support/testDatabases.ts';
import { totpCode } from '../../../test/support/twoStepTestSupport.ts';
import { migrations } from '../db/migrations/index.ts';

const kidOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as { kid: string }).kid;

// Most tests run the commands in this process (runAdmin, the same code the door runs); those
// about the door itself, and one migration per database, start the real process.
describe('npm run admin: usage', () => {
  it('prints help with --help and exits 0', async () => {
    const run = await runAdminProcess(['--help'], {});
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: npm run admin -- [--json] <command>');
    for (const command of ['users list', 'users show EMAIL', 'users disable EMAIL', 'users enable EMAIL']) {
      expect(run.stdout).toContain(command);
    }
    for (const command of ['users delete EMAIL', 'keys rotate', 'backup FILE', 'migrate', 'import-firebase --users']) {
      expect(run.stdout).toContain(command);
    }
  });

  it.each([
    [[], 'No command given.'],
    [['users'], 'Unknown command "users".'],
    [['frobnicate'], 'Unknown command "frobnicate".'],
    [['users', 'show'], '"users show" needs one EMAIL.'],
    [['users', 'list', 'extra'], '"users list" takes no arguments.'],
    [['backup'], '"backup" needs one FILE.'],
    [['users', 'list', '--yes'], 'Unknown option --yes.'],
    [['import-firebase', '--users', 'u.json'], '"import-firebase" needs --users FILE and --hash-config FILE.'],
    [['import-firebase', '--users', '--hash-config', 'h.txt'], '--users needs a value.'],
    [['users', 'list', '--users', 'u.json'], '--users is not an option of "users list".'],
    [['users', 'role', 'a@example.com'], '"users role" needs EMAIL ROLE.'],
    [
      ['users', 'role', 'a@example.com', 'admin'],
      'Unknown role "admin": use one of reader, contributor, author, editor, owner.',
    ],
    [['import-firebase', '--users', 'u', '--hash-config', 'h', '--role', 'boss'], 'Unknown role "boss"'],
  ])('answers misuse %j with exit 2 and the usage', async (args, message) => {
    const run = await runAdmin(args, {});
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain('Usage: npm run admin');
    expect(run.stdout).toBe('');
  });

  it('a process given a wrong command exits 2 with the usage on stderr and nothing on stdout', async () => {
    const run = await runAdminProcess(['frobnicate'], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Unknown command "frobnicate".');
    expect(run.stderr).toContain('Usage: npm run admin');
    expect(run.stdout).toBe('');
  });

  it('fails with exit 1 and one line on bad configuration', async () => {
    const run = await runAdminProcess(['users', 'list'], { DATABASE_URL: 'mysql://nope' });
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe('Invalid configuration: DATABASE_URL must be a postgres:// URL or sqlite:PATH');
  });

  it('backup on PostgreSQL prints the pg_dump command without the password', async () => {
    const env = { DATABASE_URL: 'postgres://inkwell:s3cret-pass@db.internal:5432/blog' };
    const run = await runAdmin(['backup', '/backups/blog.dump'], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      "pg_dump --format=custom --file='/backups/blog.dump' --dbname='postgres://inkwell@db.internal:5432/blog'",
    );
    const json = await runAdmin(['backup', '/backups/blog.dump', '--json'], env);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      dialect: 'postgres',
      command:
        "pg_dump --format=custom --file='/backups/blog.dump' --dbname='postgres://inkwell@db.internal:5432/blog'",
    });
    expect(run.stdout + run.stderr + json.stdout + json.stderr).not.toContain('s3cret-pass');
  });
});

describe.each(storageDatabases())('npm run admin on $dialect', (dialectCase) => {
  let server: TestApp;
  let env: Record<string, string>;
  let clockOffset = 0;
  const admin = (...args: string[]) => runAdmin(args, env);

  beforeAll(async () => {
    server = await startTestApp(dialectCase, {}, { clock: () => Date.now() + clockOffset });
    env = { DATABASE_URL: databaseUrl(server.config.database), DATA_DIR: server.config.dataDir };
  });
  afterAll(async () => {
    await server?.close();
  });

  it('migrate applies pending migrations once; other commands refuse an unmigrated database', async () => {
    const fresh = await dialectCase.create();
    const freshEnv = { DATABASE_URL: databaseUrl(fresh.config), DATA_DIR: server.config.dataDir };
    try {
      const early = await runAdminProcess(['users', 'list', '--json'], freshEnv);
      expect(early.code).toBe(1);
      if (fresh.config.kind === 'sqlite') {
        // No file yet: a mistyped DATA_DIR is reported, not silently turned into a new database.
        expect(early.stderr).toBe(`No database at ${fresh.config.file} (check DATA_DIR or DATABASE_URL).\n`);
      } else {
        expect(early.stderr).toContain('The database needs migrations (0001_identity,');
        expect(JSON.parse(early.stdout).error).toContain('run "npm run admin -- migrate" first');
      }

      const first = await runAdminProcess(['migrate', '--json'], freshEnv);
      expect(first.code).toBe(0);
      expect(JSON.parse(first.stdout)).toEqual({ applied: Object.keys(migrations).sort() });
      const again = await runAdminProcess(['migrate'], freshEnv);
      expect(again.code).toBe(0);
      expect(again.stdout).toBe('Database is up to date.\n');
      expect((await runAdminProcess(['users', 'list'], freshEnv)).stdout).toBe('No accounts.\n');
    } finally {
      await fresh.dispose();
    }
  });

  it('users role names an owner at once, and never demotes the last one', async () => {
    const ada = await signUp(server.url, 'Ada Owner');
    const articles = articlesApi(server.url);
    const made = await admin('users', 'role', ada.email.toUpperCase(), 'owner');
    expect(made.code).toBe(0);
    expect(made.stdout).toBe(`${ada.email} is now an owner; this takes effect at once.\n`);
    expect((await admin('users', 'show', ada.email)).stdout).toContain('Role:          owner');
    // The server sees the new role with the token it already has.
    const members = await articles.request('GET', '/members', { token: ada.idToken });
    expect(members.status).toBe(200);

    const others = await server.database.db
      .selectFrom('users')
      .select('email')
      .where('role', '=', 'owner')
      .where('email', '!=', ada.email)
      .execute();
    for (const other of others) expect((await admin('users', 'role', other.email, 'author')).code).toBe(0);
    const last = await admin('users', 'role', ada.email, 'reader', '--json');
    expect(last.code).toBe(1);
    expect(last.stderr).toBe('That is the last owner: make another account owner first.\n');
    const disabled = await admin('users', 'disable', ada.email);
    expect(disabled.code).toBe(1);
    expect((await admin('users', 'show', ada.email)).stdout).toContain('Status:        active');
    const reader = await admin('users', 'role', (await signUp(server.url, 'Rae')).email, 'reader');
    expect(reader.stdout).toMatch(/ is now a reader; /);
  });

  it('users list and users show describe accounts, never their passwords', async () => {
    const ada = await signUp(server.url, 'Ada');
    const bob = await signUp(server.url, 'Bob');
    const list = await admin('users', 'list');
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^EMAIL\s+UID\s+ROLE\s+STATUS\s+CREATED\s+LAST SIGN-IN\n/);
    expect(list.stdout).toContain(ada.email);
    expect(list.stdout).toContain(bob.email);

    const json = await admin('users', 'list', '--json');
    expect(json.code).toBe(0);
    const users = (JSON.parse(json.stdout) as { users: Record<string, unknown>[] }).users;
    const shown = users.find((u) => u.email === ada.email)!;
    expect(shown).toEqual({
      uid: ada.uid,
      email: ada.email,
      displayName: 'Ada',
      emailVerified: false,
      disabled: false,
      role: 'author',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      lastLoginAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      passwordAlgorithm: 'argon2id',
      providers: [],
    });
    // The algorithm's name, never the hash itself.
    expect(json.stdout).not.toMatch(/\$argon2|passwordHash|password_hash/i);

    const show = await admin('users', 'show', ada.email.toUpperCase());
    expect(show.code).toBe(0);
    expect(show.stdout).toContain(`Email:         ${ada.email}`);
    expect(show.stdout).toContain(`UID:           ${ada.uid}`);
    expect(show.stdout).toContain('Status:        active');
    expect(show.stdout).toContain('Role:          author');
    expect(show.stdout).toContain('Providers:     (none)');
    const showJson = await admin('users', 'show', ada.email, '--json');
    expect(JSON.parse(showJson.stdout)).toEqual({
      user: shown,
      passkeys: 0,
      twoStep: { enabled: false, recoveryCodesLeft: 0 },
    });
    expect(show.stdout).toContain('Two-step:      off');

    const missing = await admin('users', 'show', 'nobody@example.com', '--json');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('No account with email nobody@example.com.\n');
    expect(JSON.parse(missing.stdout)).toEqual({ error: 'No account with email nobody@example.com.' });
  });

  it('users disable ends every token at once; users enable lets the account sign in again', async () => {
    const user = await signUp(server.url, 'Dis');
    const identity = identityClient(server.url);
    const session = await identity.signIn(user.email, user.password);

    const disabled = await admin('users', 'disable', user.email);
    expect(disabled.code).toBe(0);
    expect(disabled.stdout).toBe(`Disabled ${user.email}: its tokens no longer work and it cannot sign in.\n`);
    expect((await identity.signIn(user.email, user.password)).body).toEqual(protocolError('USER_DISABLED'));
    expect((await identity.refresh(session.body.refreshToken)).body).toEqual(protocolError('USER_DISABLED'));
    expect((await identity.lookup(session.body.idToken)).body).toEqual(protocolError('USER_DISABLED'));
    expect((await articlesApi(server.url).create(user.idToken, sampleArticle())).status).toBe(401);
    expect(JSON.parse((await admin('users', 'show', user.email, '--json')).stdout).user.disabled).toBe(true);

    const enabled = await admin('users', 'enable', user.email, '--json');
    expect(enabled.code).toBe(0);
    expect(JSON.parse(enabled.stdout).user).toMatchObject({ email: user.email, disabled: false });
    const again = await identity.signIn(user.email, user.password);
    expect(again.status).toBe(200);
    expect((await articlesApi(server.url).create(again.body.idToken, sampleArticle())).status).toBe(201);
    // Sessions from before the disable stay dead.
    expect((await identity.refresh(session.body.refreshToken)).body).toEqual(protocolError('TOKEN_EXPIRED'));

    const missing = await admin('users', 'enable', 'nobody@example.com');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('No account with email nobody@example.com.\n');
  });

  it('users show says whether two-step is on; users reset-two-step turns it off and signs the account out', async () => {
    const user = await signUp(server.url, 'Totp');
    const identity = identityClient(server.url);
    // Enrolling needs a verified address; the emailed link is tested elsewhere (emailActions.test.ts).
    await server.database.db.updateTable('users').set({ email_verified: 1 }).where('id', '=', user.uid).execute();
    const started = await identity.call('/v2/accounts/mfaEnrollment:start', { idToken: user.idToken });
    const secret = started.body.totpSessionInfo.sharedSecretKey as string;
    const enrolled = await identity.call('/v2/accounts/mfaEnrollment:finalize', {
      idToken: user.idToken,
      totpVerificationInfo: {
        sessionInfo: started.body.totpSessionInfo.sessionInfo,
        verificationCode: totpCode(secret, Date.now() + clockOffset),
      },
    });
    expect(enrolled.status).toBe(200);
    expect((await identity.signIn(user.email, user.password)).body.mfaPendingCredential).toEqual(expect.any(String));

    const show = await admin('users', 'show', user.email);
    expect(show.stdout).toContain('Two-step:      on (10 recovery codes left)');
    const reset = await admin('users', 'reset-two-step', user.email);
    expect(reset.code).toBe(0);
    expect(reset.stdout).toContain(`Turned two-step verification off for ${user.email} and signed it out everywhere`);
    expect((await identity.refresh(enrolled.body.refreshToken)).body).toEqual(protocolError('TOKEN_EXPIRED'));
    const plain = await identity.signIn(user.email, user.password);
    expect(plain.body.idToken).toEqual(expect.any(String));
    expect(JSON.parse((await admin('users', 'show', user.email, '--json')).stdout).twoStep).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
    });
    const again = await admin('users', 'reset-two-step', user.email, '--json');
    expect(JSON.parse(again.stdout)).toMatchObject({ reset: false });
    expect((await admin('users', 'reset-two-step', 'nobody@example.com')).code).toBe(1);
  });

  it('users delete removes the account and all its articles', async () => {
    const author = await signUp(server.url, 'Gone');
    const other = await signUp(server.url, 'Stays');
    const api = articlesApi(server.url);
    const mine = await api.create(author.idToken, sampleArticle('Mine'));
    const theirs = await api.create(other.idToken, sampleArticle('Theirs'));
    expect([mine.status, theirs.status]).toEqual([201, 201]);

    const deleted = await admin('users', 'delete', author.email, '--json');
    expect(deleted.code).toBe(0);
    expect(JSON.parse(deleted.stdout).deleted).toMatchObject({ uid: author.uid, email: author.email });
    expect((await api.get(mine.body.id)).status).toBe(404);
    expect((await api.get(theirs.body.id)).status).toBe(200);
    expect((await identityClient(server.url).signIn(author.email, author.password)).body).toEqual(
      protocolError('INVALID_LOGIN_CREDENTIALS'),
    );
    expect((await admin('users', 'list')).stdout).not.toContain(author.email);

    const again = await admin('users', 'delete', author.email);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`No account with email ${author.email}.\n`);
    const text = await admin('users', 'delete', other.email);
    expect(text.stdout).toBe(`Deleted ${other.email} and all its articles.\n`);
  });

  it('keys rotate: the running server signs with the new key within 30 s; older tokens stay valid', async () => {
    const user = await signUp(server.url, 'Keys');
    const identity = identityClient(server.url);
    const oldKid = kidOf(user.idToken);

    const rotated = await admin('keys', 'rotate', '--json');
    expect(rotated.code).toBe(0);
    const { kid, previousKid } = JSON.parse(rotated.stdout) as { kid: string; previousKid: string };
    expect(previousKid).toBe(oldKid);
    expect(kid).not.toBe(oldKid);
    const text = await admin('keys', 'rotate');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /^New signing key \S+ is current; tokens signed with \S+ stay valid until they expire\./,
    );
    const newest = /^New signing key (\S+) is current/.exec(text.stdout)![1]!;

    try {
      // Just after the rotation the server may still sign with the key it has cached...
      clockOffset = 31_000;
      // ...and at most 30 s later it signs with the newest key.
      const signedIn = await identity.signIn(user.email, user.password);
      expect(kidOf(signedIn.body.idToken)).toBe(newest);
      const jwks = (await (await fetch(`${server.url}/identity/.well-known/jwks.json`)).json()) as {
        keys: { kid: string }[];
      };
      expect(jwks.keys.map((k) => k.kid).sort()).toEqual([oldKid, kid, newest].sort());
      // A token signed with the first key is still good until it expires.
      expect((await identity.lookup(user.idToken)).status).toBe(200);
      expect((await articlesApi(server.url).create(user.idToken, sampleArticle())).status).toBe(201);

      // Once every token an old key signed has expired, the key leaves the JWKS.
      clockOffset = 2 * 3600 * 1000;
      const later = (await (await fetch(`${server.url}/identity/.well-known/jwks.json`)).json()) as {
        keys: { kid: string }[];
      };
      expect(later.keys.map((k) => k.kid)).toEqual([newest]);
      expect((await identity.lookup(signedIn.body.idToken)).body).toEqual(protocolError('TOKEN_EXPIRED'));
    } finally {
      clockOffset = 0;
    }
  });

  it('backup copies the SQLite database, or prints the pg_dump command for PostgreSQL', async () => {
    const database = server.config.database;
    if (database.kind === 'postgres') {
      const run = await admin('backup', '/tmp/inkwell.dump', '--json');
      expect(run.code).toBe(0);
      const url = new URL(database.url);
      url.password = '';
      expect(JSON.parse(run.stdout)).toEqual({
        dialect: 'postgres',
        command: `pg_dump --format=custom --file='/tmp/inkwell.dump' --dbname='${url.toString()}'`,
      });
      return;
    }
    const user = await signUp(server.url, 'Backed');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-backup-'));
    try {
      const file = path.join(dir, 'copy.db');
      const run = await admin('backup', file);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^Backed up .+inkwell\.db to .+copy\.db \(\d+ bytes\)\.\n$/);
      const copy = new BetterSqlite3(file, { readonly: true });
      try {
        expect(copy.prepare('select email from users where id = ?').get(user.uid)).toEqual({ email: user.email });
      } finally {
        copy.close();
      }
      const again = await admin('backup', file, '--json');
      expect(again.code).toBe(1);
      expect(JSON.parse(again.stdout).error).toBe(`Failed: ${file} already exists; choose a new file`);
      const json = await admin('backup', path.join(dir, 'second.db'), '--json');
      expect(JSON.parse(json.stdout)).toMatchObject({ dialect: 'sqlite', file: path.join(dir, 'second.db') });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
