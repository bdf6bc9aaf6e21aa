import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, sampleArticle, signUp } from '../../../test/support/articlesTestClient.ts';
import { setRole } from '../../../test/support/operatorActions.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';
import { FIRST_OWNER_HINT } from '../identity/firstOwner.ts';

// A site with no owner says on its empty home page how to name one (DESIGN.md §9.6).

const COMMAND = 'npm run admin -- users create you@example.com --role owner';

describe.each(contractDatabases())('the ownerless home page on $dialect', (dialectCase) => {
  let server: TestApp;

  beforeAll(async () => {
    // The real build: what the reader sees is the server renderer's markup.
    server = await startTestApp(dialectCase, {}, { webDist: 'built' });
  });
  afterAll(() => server.close());

  /** The home page's rendered root and its data block's hint. */
  const home = async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    const root = /<div id="root">([\s\S]*?)<\/div><script type="application\/json" id="served-screen">/.exec(html)?.[1];
    const data = /<script type="application\/json" id="served-screen">(.*?)<\/script>/.exec(html)?.[1];
    return { root: root ?? '', hint: (JSON.parse(data ?? '{}') as { ownerHint?: string }).ownerHint };
  };

  it('tells how to name the owner while the site has none and no articles, and not once an owner exists', async () => {
    const fresh = await home();
    expect(fresh.hint).toBe(FIRST_OWNER_HINT);
    expect(fresh.root).toContain(COMMAND);
    expect(fresh.root).toContain('OWNER_EMAIL');

    // Articles to read: the page is for readers, not the operator.
    const writer = await signUp(server.url, 'Wanda Writer');
    const created = await articlesApi(server.url).create(writer.idToken, sampleArticle('First light'));
    expect(created.status, created.text).toBe(201);
    const withArticle = await home();
    expect(withArticle.hint).toBeUndefined();
    expect(withArticle.root).toContain('First light');
    expect(withArticle.root).not.toContain(COMMAND);

    // Empty again and still no owner: the hint is back.
    expect((await articlesApi(server.url).remove(writer.idToken, created.body.id)).status).toBe(204);
    expect((await home()).root).toContain(COMMAND);

    // An owner named: gone, though the empty page was kept by the shell cache a moment ago.
    await setRole(server, writer.email, 'owner');
    const owned = await home();
    expect(owned.hint).toBeUndefined();
    expect(owned.root).not.toContain(COMMAND);
    expect(owned.root).toContain('No articles yet');
  });
});
