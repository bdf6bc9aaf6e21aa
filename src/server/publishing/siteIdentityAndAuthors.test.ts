import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSiteIdentity, SITE_IDENTITY_ELEMENT_ID } from '../../shared/siteIdentity.ts';
import { articlesApi, sampleArticle, signUp, type TestUser } from '../../../test/support/articlesTestClient.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';

// SITE_TITLE and SITE_DESCRIPTION (docs/architecture.md, Configuration) and the author pages (§5), as a crawler sees them.

const PUBLIC_URL = 'https://notes.example.org';
const SITE_TITLE = 'Notes from "Ada" & <friends>';
const SITE_DESCRIPTION = 'Essays on engines, looms & numbers.';

const decode = (text: string) =>
  text.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]!,
  );

async function page(url: string) {
  const response = await fetch(url);
  const html = await response.text();
  const head = /<head>([\s\S]*?)<\/head>/.exec(html)?.[1] ?? '';
  const attribute = (pattern: RegExp) => [...head.matchAll(pattern)].map((match) => decode(match[1]!));
  const identityBlock = new RegExp(
    `<script type="application/json" id="${SITE_IDENTITY_ELEMENT_ID}">([\\s\\S]*?)</script>`,
  );
  return {
    status: response.status,
    titles: attribute(/<title>([\s\S]*?)<\/title>/g),
    description: attribute(/<meta name="description" content="([^"]*)"/g),
    siteName: attribute(/<meta property="og:site_name" content="([^"]*)"/g),
    ogType: attribute(/<meta property="og:type" content="([^"]*)"/g),
    ogUrl: attribute(/<meta property="og:url" content="([^"]*)"/g),
    canonical: attribute(/<link rel="canonical" href="([^"]*)"/g),
    identity: identityBlock.exec(head)?.[1],
  };
}

describe.each(contractDatabases())('the site’s name and its author pages on $dialect', (dialectCase) => {
  let server: TestApp;
  let writer: TestUser;
  let quiet: TestUser;

  beforeAll(async () => {
    server = await startTestApp(dialectCase, { PUBLIC_URL, SITE_TITLE, SITE_DESCRIPTION });
    [writer, quiet] = await Promise.all([signUp(server.url, 'Ada <Lovelace>'), signUp(server.url, 'Quiet')]);
    expect((await articlesApi(server.url).create(writer.idToken, sampleArticle('Engines'))).status).toBe(201);
  });
  afterAll(() => server?.close());

  it('names the home page after the site and hands the web app its title and description', async () => {
    const home = await page(`${server.url}/`);
    expect(home.status).toBe(200);
    expect(home.titles).toEqual([SITE_TITLE]);
    expect(home.description).toEqual([SITE_DESCRIPTION]);
    expect(home.siteName).toEqual([SITE_TITLE]);
    // The data block cannot close its <script>: the title's "<" is escaped inside the JSON.
    expect(home.identity).not.toContain('<');
    expect(readSiteIdentity(home.identity)).toEqual({
      title: SITE_TITLE,
      description: SITE_DESCRIPTION,
      signup: 'open',
    });
  });

  it.each(['/login', '/signup', '/profile', '/no/such/page'])(
    'ends the title of %s with the site’s name',
    async (path) => {
      const screen = await page(`${server.url}${path}`);
      expect(screen.titles).toHaveLength(1);
      expect(screen.titles[0]!.endsWith(SITE_TITLE)).toBe(true);
      expect(screen.siteName).toEqual([SITE_TITLE]);
      expect(readSiteIdentity(screen.identity).title).toBe(SITE_TITLE);
    },
  );

  it('describes an author page with their name, canonical URL and Open Graph tags', async () => {
    // The page lives at the slug of the name (decision 0420); the uid URL redirects there.
    const author = await page(`${server.url}/author/${writer.uid}`);
    const url = `${PUBLIC_URL}/author/ada-lovelace`;
    expect(author.status).toBe(200);
    expect(author.titles).toEqual([`Ada <Lovelace> – ${SITE_TITLE}`]);
    expect(author.canonical).toEqual([url]);
    expect(author.ogUrl).toEqual([url]);
    expect(author.ogType).toEqual(['profile']);
    expect(author.siteName).toEqual([SITE_TITLE]);
  });

  it('serves the page of an account without articles, and 404 with the 404 page for an unknown uid', async () => {
    expect((await page(`${server.url}/author/${quiet.uid}`)).status).toBe(200);
    const unknown = await page(`${server.url}/author/nobody-has-this-uid`);
    expect(unknown.status).toBe(404);
    expect(unknown.titles).toEqual([`Page not found – ${SITE_TITLE}`]);
  });

  it('carries each article in the feed as rendered, sanitised HTML with absolute URLs, not as Markdown', async () => {
    const created = await articlesApi(server.url).create(writer.idToken, {
      image: 'https://pictures.example/dab.jpg',
      title: 'Dab',
      description:
        '## The first hour\n\nSkin the *dab*; see [the market](https://market.example/fish).\n\n' +
        '![A dab on ice](https://pictures.example/ice.jpg)\n\n<script>alert(1)</script> [bad](javascript:alert(1))',
    });
    expect(created.status).toBe(201);
    const text = await (await fetch(`${server.url}/feed.xml`)).text();
    const entry = (
      new XMLParser({ ignoreAttributes: false }).parse(text).feed.entry as Array<{
        title: { '#text': string };
        content: { '@_type': string; '#text': string };
      }>
    ).find((candidate) => candidate.title['#text'] === 'Dab')!;
    expect(entry.content['@_type']).toBe('html');
    const html: string = entry.content['#text'];
    expect(html).toContain('<h2>The first hour</h2>');
    expect(html).toContain('<em>dab</em>');
    expect(html).toContain('<a href="https://market.example/fish" rel="nofollow ugc noopener">the market</a>');
    expect(html).toContain('<img src="https://pictures.example/ice.jpg" alt="A dab on ice"');
    expect(html).not.toContain('##');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('href="javascript:');
  });

  it('titles the feed with the site’s name and description', async () => {
    const feed = new XMLParser().parse(await (await fetch(`${server.url}/feed.xml`)).text());
    expect(feed.feed.title).toBe(SITE_TITLE);
    expect(feed.feed.subtitle).toBe(SITE_DESCRIPTION);
  });

  it('lists the pages of authors with articles in the sitemap', async () => {
    const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
    expect(sitemap).toContain(`<loc>${PUBLIC_URL}/author/ada-lovelace</loc>`);
    expect(sitemap).not.toContain(`/author/quiet<`);
  });
});
