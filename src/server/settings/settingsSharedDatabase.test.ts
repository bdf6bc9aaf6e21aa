import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, identityCall, type TestUser } from '../../../test/support/articlesTestClient.ts';
import { startSecondServer, type SecondServer } from '../../../test/support/secondServer.ts';
import { startSmtpSink, type SmtpSink } from '../../../test/support/smtpSink.ts';
import { signUpAs } from '../../../test/support/staffAccounts.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { storageDatabases } from '../../../test/support/testDatabases.ts';

// Two servers on one database, as two processes behind a load balancer (DESIGN.md §9.6): a
// change through one shows on the other's next page, feed and mail, with no restart and no wait.
describe.each(storageDatabases())('site settings in every process at once on $dialect', (dialectCase) => {
  let sink: SmtpSink;
  let first: TestApp;
  let second: SecondServer;
  let owner: TestUser;

  beforeAll(async () => {
    sink = await startSmtpSink();
    first = await startTestApp(dialectCase, { SITE_TITLE: 'First Name', SMTP_URL: sink.url });
    second = await startSecondServer(first);
    owner = await signUpAs(first, 'Olive Owner', 'owner');
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await sink?.close();
  });

  it('shows a change made through one server in the other’s page head, masthead, navigation, footer, feed and mail', async () => {
    // The second server has served (and kept) its pages and feed with the first values.
    const before = await (await fetch(`${second.url}/`)).text();
    expect(before).toContain('<title>First Name</title>');
    expect(before).not.toContain('aria-label="Site"');
    expect(await (await fetch(`${second.url}/feed.xml`)).text()).toContain('<title type="text">First Name</title>');

    const changed = await articlesApi(first.url).request('PATCH', '/settings', {
      token: owner.idToken,
      json: {
        title: 'Second Name',
        description: 'Now with soup.',
        iconUrl: 'https://cdn.example/icon.png',
        accentColor: '#aa3300',
        navigation: [{ label: 'About us', url: '/about' }],
        footer: 'Baked in <Graz>.',
      },
    });
    expect(changed.status, changed.text).toBe(200);

    const page = await (await fetch(`${second.url}/`)).text();
    // Page head and link previews.
    expect(page).toContain('<title>Second Name</title>');
    expect(page).toContain('<meta name="description" content="Now with soup." />');
    expect(page).toContain('<meta property="og:site_name" content="Second Name" />');
    expect(page).toContain('<link rel="icon" href="https://cdn.example/icon.png">');
    expect(page).not.toContain('/favicon.svg');
    expect(page).toContain('<link rel="stylesheet" href="/site.css?accent=aa3300">');
    // The masthead: the data the app renders it from, and the frame painted before any script.
    expect(page).toContain('"title":"Second Name","description":"Now with soup."');
    expect(page).toContain('data-site-title="">Second Name</span>');
    expect(page).not.toContain('First Name');
    // The navigation above the top bar, and the footer's text, escaped.
    expect(page).toContain(
      '<nav aria-label="Site" class="site-links"><ul><li><a href="/about" dir="auto">About us</a></li></ul></nav>',
    );
    expect(page).toContain('<p dir="auto">Baked in &#60;Graz&#62;.</p>');

    const feed = await (await fetch(`${second.url}/feed.xml`)).text();
    expect(feed).toContain('<title type="text">Second Name</title>');
    expect(feed).toContain('Now with soup.');

    // A mail the other server sends names the site as it is now.
    const count = sink.messages.length;
    const reset = await identityCall(second.url, 'accounts:sendOobCode', {
      requestType: 'PASSWORD_RESET',
      email: owner.email,
    });
    expect(reset.status, reset.text).toBe(200);
    const mail = await sink.waitForMail(owner.email, { after: count, subject: /Reset your/ });
    expect(mail.subject).toBe('Reset your Second Name password');

    const css = await fetch(`${second.url}/site.css?accent=aa3300`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toContain('text/css');
    expect(await css.text()).toContain('--color-blue-700:#aa3300');
    expect((await fetch(`${second.url}/site.css?accent=red;}`)).status).toBe(404);
  });
});
