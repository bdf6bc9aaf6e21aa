import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, signUp } from '../../../test/support/articlesTestClient.ts';
import { identityClient } from '../../../test/support/identityTestClient.ts';
import { setRole } from '../../../test/support/operatorActions.ts';
import { startSmtpSink, type SmtpSink } from '../../../test/support/smtpSink.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';

const PUBLIC_URL = 'https://blog.example';

// An HTTP contract and a mail: SQLite alone (decision 0781); the invitation's storage is tested on both in roles.test.ts.
describe.each(contractDatabases())('invitations sent to an address on $dialect (issue 39.7)', (dialectCase) => {
  let sink: SmtpSink;
  let server: TestApp;
  let ownerToken: string;

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestApp(dialectCase, { SMTP_URL: sink.url, PUBLIC_URL, SITE_TITLE: 'The Harbour' });
    const owner = await signUp(server.url, 'Owner');
    await setRole(server, owner.email, 'owner');
    // A token made after the role change carries it.
    ownerToken = (await identityClient(server.url).signIn(owner.email, owner.password)).body.idToken;
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  it('mails the link to the address it names, and says so; a link for anyone is mailed to nobody', async () => {
    const api = articlesApi(server.url);
    const before = sink.messages.length;
    const made = await api.request('POST', '/invitations', {
      token: ownerToken,
      json: { role: 'editor', email: 'New.Editor@Example.com' },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ role: 'editor', email: 'new.editor@example.com', mailed: true });
    const mail = await sink.waitForMail('new.editor@example.com', {
      after: before,
      subject: /^You are invited to The Harbour$/,
    });
    expect(mail.text).toContain('You are invited to The Harbour as an editor.');
    expect(mail.text).toContain(made.body.url);
    expect(mail.html).toContain(`<a href="${made.body.url}">`);
    const code = new URL(made.body.url).searchParams.get('invite')!;
    expect((await api.request('POST', '/invitations/check', { json: { code } })).body).toMatchObject({
      valid: true,
      role: 'editor',
    });

    const count = sink.messages.length;
    const open = await api.request('POST', '/invitations', { token: ownerToken, json: { role: 'author' } });
    expect(open.status).toBe(201);
    expect(open.body).toMatchObject({ email: null, mailed: false });
    // Another invitation's mail is the marker that the one for anyone would have arrived by now.
    await api.request('POST', '/invitations', {
      token: ownerToken,
      json: { role: 'author', email: 'marker@example.com' },
    });
    await sink.waitForMail('marker@example.com', { after: count });
    expect(sink.messages.slice(count).map((message) => message.to)).toEqual([['marker@example.com']]);
  });
});
