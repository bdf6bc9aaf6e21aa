import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi } from '../../../test/support/articlesTestClient.ts';
import { databaseUrl, runAdmin } from '../../../test/support/adminRunner.ts';
import { startSmtpSink, type SmtpSink } from '../../../test/support/smtpSink.ts';
import { signUpAs } from '../../../test/support/staffAccounts.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';

// The admin command is another process on the database: its mails name the site as the
// settings say, not as SITE_TITLE did (DESIGN.md §9.6).
describe.each(contractDatabases())('the admin command’s mails after a settings change on $dialect', (dialectCase) => {
  let sink: SmtpSink;
  let server: TestApp;
  let env: Record<string, string>;

  beforeAll(async () => {
    sink = await startSmtpSink();
    const settings = { SMTP_URL: sink.url, SITE_TITLE: 'Old Name' };
    server = await startTestApp(dialectCase, settings);
    env = { ...settings, DATABASE_URL: databaseUrl(server.config.database), DATA_DIR: server.config.dataDir };
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  it('names the site by its settings in the mail of users create', async () => {
    const owner = await signUpAs(server, 'Olive Owner', 'owner');
    const changed = await articlesApi(server.url).request('PATCH', '/settings', {
      token: owner.idToken,
      json: { title: 'New Name' },
    });
    expect(changed.status, changed.text).toBe(200);
    const before = sink.messages.length;
    const made = await runAdmin(['users', 'create', 'writer@example.com', '--name', 'A Writer'], env);
    expect(made.code, made.stderr).toBe(0);
    const mail = await sink.waitForMail('writer@example.com', { after: before, subject: /account is ready$/ });
    expect(mail.subject).toBe('Your New Name account is ready');
  });
});
