import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, signUp, type TestUser } from '../../../test/support/articlesTestClient.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';
import { SERVED_SCREEN_ELEMENT_ID } from '../../shared/servedScreen.ts';

/** The HTML inside the app's root element, and the page's served data block. */
function rendered(html: string) {
  const root = /<div id="root">([\s\S]*?)<\/div><script type="application\/json" id="served-screen">/.exec(html);
  const data = new RegExp(`<script type="application/json" id="${SERVED_SCREEN_ELEMENT_ID}">(.*?)</script>`).exec(html);
  return { root: root?.[1] ?? '', data: data ? JSON.parse(data[1]!) : undefined };
}

describe.each(contractDatabases())('reading screens rendered by the server, on $dialect', (dialectCase) => {
  let server: TestApp;
  let alice: TestUser;
  let id: string;

  beforeAll(async () => {
    // The real build: its server renderer is what these tests are about.
    server = await startTestApp(dialectCase, { SITE_TITLE: 'Margit’s Kitchen' }, { webDist: 'built' });
    alice = await signUp(server.url, 'Margit Ås');
    const created = await articlesApi(server.url).create(alice.idToken, {
      image: 'https://pictures.example/dab.jpg',
      title: 'Dab in brown butter </script><b>',
      description: '## The first hour\n\nSkin the *dab* while the butter browns.\n\n- 4 small dab\n- 60 g butter',
    });
    id = created.body.id;
  });
  afterAll(() => server.close());

  it('the article page carries the article: title, byline, cover and formatted body', async () => {
    const answer = await fetch(`${server.url}/article/${id}`);
    expect(answer.status).toBe(200);
    const html = await answer.text();
    const { root, data } = rendered(html);
    expect(root).toContain('Dab in brown butter &lt;/script&gt;&lt;b&gt;</h1>');
    expect(root).toContain('>Margit Ås</a>');
    expect(root).toContain('src="https://pictures.example/dab.jpg"');
    expect(root).toContain('<h2>The first hour</h2>');
    expect(root).toContain('<li>4 small dab</li>');
    // The static boot frame is gone: the page is the screen itself.
    expect(html).not.toContain('id="boot-frame"');
    // The data the app takes the page over with, without the Markdown source, and unable to end its element.
    expect(data).toMatchObject({
      kind: 'article',
      article: { id, title: 'Dab in brown butter </script><b>', description: '' },
    });
    expect(html).not.toContain('</script><b>');
    // Nothing to fetch before the page shows: no preload of the article's API call.
    expect(html).not.toContain(`rel="preload" as="fetch" href="/api/articles/${id}"`);
  });

  it('the home page carries the masthead and the cards; the author page the name and cards', async () => {
    const home = rendered(await (await fetch(`${server.url}/`)).text());
    expect(home.root).toContain('Margit’s Kitchen</h1>');
    expect(home.root).toContain(`href="/article/${id}"`);
    expect(home.root).toContain('Skin the dab while the butter browns.');
    expect(home.data).toMatchObject({ kind: 'home', page: { nextCursor: null } });

    const author = rendered(await (await fetch(`${server.url}/author/margit-as`)).text());
    expect(author.root).toContain('Margit Ås</h1>');
    expect(author.root).toContain(`href="/article/${id}"`);
    expect(author.data).toMatchObject({
      kind: 'author',
      uid: alice.uid,
      author: { name: 'Margit Ås', slug: 'margit-as', articleCount: 1 },
    });
  });

  it('other screens come as the bare shell, and unknown articles as the 404 page', async () => {
    const login = await (await fetch(`${server.url}/login`)).text();
    expect(login).toContain('<div id="root"></div>');
    expect(login).not.toContain(SERVED_SCREEN_ELEMENT_ID);
    const missing = await fetch(`${server.url}/article/AAAAAAAAAAAAAAAAAAAA`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).not.toContain(SERVED_SCREEN_ELEMENT_ID);
  });
});
