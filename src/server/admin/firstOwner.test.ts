import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi } from '../../../test/support/articlesTestClient.ts';
import { databaseUrl, runAdmin } from '../../../test/support/adminRunner.ts';
import { identityClient, protocolError } from '../../../test/support/identityTestClient.ts';
import { startSmtpSink, type SmtpSink } from '../../../test/support/smtpSink.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';

const PUBLIC_URL = 'https://blog.example';

// DESIGN §9.6: an invite-only site names its first owner from the terminal, in one step.
describe.each(contractDatabases())('accounts and invitations from the terminal on $dialect', (dialectCase) => {
  let sink: SmtpSink;
  let server: TestApp;
  let env: Record<string, string>;
  const admin = (...args: string[]) => runAdmin(args, env);

  beforeAll(async () => {
    sink = await startSmtpSink();
    const settings = { SIGNUP: 'invite', SMTP_URL: sink.url, PUBLIC_URL };
    server = await startTestApp(dialectCase, settings);
    env = { ...settings, DATABASE_URL: databaseUrl(server.config.database), DATA_DIR: server.config.dataDir };
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  it('users create makes an owner on an invite-only site; the mailed and printed link sets the password', async () => {
    const client = identityClient(server.url);
    const before = sink.messages.length;
    const made = await admin('users', 'create', 'Boss@Example.com', '--role', 'owner', '--name', 'The Boss');
    expect(made.code).toBe(0);
    const [, , link] = made.stdout.trim().split('\n');
    expect(made.stdout).toMatch(/^Made boss@example\.com, an owner, without a password\.\nEmailed this link/);
    expect(link).toMatch(new RegExp(`^${PUBLIC_URL}/reset-password\\?oobCode=[A-Za-z0-9_-]+$`));
    const mail = await sink.waitForMail('boss@example.com', {
      after: before,
      subject: /^Your Inkwell account is ready$/,
    });
    expect(mail.text).toContain(link);

    // Nobody signs in before the link is used.
    expect((await client.signIn('boss@example.com', '')).status).toBe(400);
    const code = new URL(link!).searchParams.get('oobCode')!;
    expect(
      (await client.call('/v1/accounts:resetPassword', { oobCode: code, newPassword: 'bosses password' })).status,
    ).toBe(200);
    const signedIn = await client.signIn('boss@example.com', 'bosses password');
    expect(signedIn.status).toBe(200);
    expect(decodeJwt(signedIn.body.idToken).role).toBe('owner');
    const lookup = (await client.lookup(signedIn.body.idToken)).body.users[0];
    expect(lookup).toMatchObject({ emailVerified: true, displayName: 'The Boss' });
    // Owners manage members at once; the link worked once.
    expect((await articlesApi(server.url).request('GET', '/members', { token: signedIn.body.idToken })).status).toBe(
      200,
    );
    expect(
      (await client.call('/v1/accounts:resetPassword', { oobCode: code, newPassword: 'again pass' })).body,
    ).toEqual(protocolError('INVALID_OOB_CODE'));

    const again = await admin('users', 'create', 'boss@example.com');
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('An account with email boss@example.com exists.\n');
    const wrong = await admin('users', 'create', 'not-an-address');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe('"not-an-address" is not an email address.\n');
  });

  it('invite prints an invitation link as /admin makes one, and mails it to the address it names', async () => {
    const before = sink.messages.length;
    const made = await admin('invite', 'editor', '--email', 'Ed@Example.com', '--json');
    expect(made.code).toBe(0);
    const answer = JSON.parse(made.stdout) as { url: string; role: string; email: string; expiresAt: string };
    expect(answer).toMatchObject({ role: 'editor', email: 'ed@example.com', mailed: true });
    const mail = await sink.waitForMail('ed@example.com', { after: before, subject: /^You are invited to Inkwell$/ });
    expect(mail.text).toContain(answer.url);
    const text = await admin('invite', 'author', '--email', 'al@example.com');
    expect(text.stdout).toMatch(
      /\(once\):\nhttps:\/\/blog\.example\/signup\?invite=\S+\nEmailed to al@example\.com\.\n$/,
    );
    expect(answer.url).toMatch(new RegExp(`^${PUBLIC_URL}/signup\\?invite=[A-Za-z0-9_-]{43}$`));
    const code = new URL(answer.url).searchParams.get('invite')!;
    const check = await articlesApi(server.url).request('POST', '/invitations/check', { json: { code } });
    expect(check.body).toEqual({ valid: true, role: 'editor', forAddress: true, expiresAt: answer.expiresAt });
    const plain = await admin('invite', 'author');
    expect(plain.stdout).toMatch(
      /^An invitation for an author, valid until .+ \(once\):\nhttps:\/\/blog\.example\/signup\?invite=/,
    );
    expect((await admin('invite', 'boss')).code).toBe(2);
  });
});
