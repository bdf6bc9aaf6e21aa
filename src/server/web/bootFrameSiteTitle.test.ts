import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';

// The app's static frame (index.html's boot frame: wordmark and footer) is painted before any
// script runs; it must already carry SITE_TITLE, or the name changes under the reader when the
// app takes over (and the top bar's Home link moves with it).

const SITE_TITLE = 'Notes from "Ada" & <friends>';
const ESCAPED = 'Notes from &quot;Ada&quot; &amp; &lt;friends&gt;';

describe.each(contractDatabases())('the shell’s static frame on $dialect', (dialectCase) => {
  let server: TestApp;
  beforeAll(async () => {
    // The real build: the home page arrives server-rendered, frame included.
    server = await startTestApp(dialectCase, { SITE_TITLE }, { webDist: 'built' });
  });
  afterAll(() => server?.close());

  // The home page arrives rendered by the server: its wordmark and footer are the app's own.
  it.each(['/', '/login', '/no-such-page'])('names the site in the wordmark and the footer of %s', async (path) => {
    const html = await (await fetch(`${server.url}${path}`)).text();
    const frame =
      (path === '/' ? /<div id="root">([\s\S]*?)<script/ : /<div id="boot-frame">([\s\S]*?)<div id="root">/).exec(
        html,
      )?.[1] ?? '';
    const names = [...frame.matchAll(/<span\b[^>]*data-site-title=""[^>]*>([^<]*)<\/span>/g)].map((match) => match[1]);
    expect(names).toEqual([ESCAPED, ESCAPED]);
    // The feed link every page head carries is offered under the site's name too.
    expect(html).toContain(`<link rel="alternate" type="application/atom+xml" title="${ESCAPED}" href="/feed.xml"`);
    expect(html).not.toContain('title="Inkwell"');
    expect(frame).not.toContain('>Inkwell<');
  });
});
