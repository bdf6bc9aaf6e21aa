import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, signUp, type TestUser } from '../../../test/support/articlesTestClient.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';

// What a crawler, a feed reader or a link preview sees: plain HTTP, no JavaScript.

const PUBLIC_URL = 'https://blog.example.org';
const NASTY_TITLE = '</title><script>alert(1)</script> & "quoted" \'single\'';
const NASTY_DESCRIPTION = `Starts plainly. </script><!-- <b>bold</b> & more\u0001\u000b text. ${'Long words here '.repeat(30)}`;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  isArray: (name) => ['entry', 'url', 'sitemap', 'link'].includes(name),
});

interface HeadTag {
  attributes: Record<string, string>;
}

const decodeEntities = (text: string) =>
  text.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]!,
  );

/** The <head> of a shell, read the way a crawler reads it. */
function readHead(html: string) {
  const head = /<head>([\s\S]*?)<\/head>/.exec(html)?.[1] ?? '';
  const tags: HeadTag[] = [...head.matchAll(/<(meta|link)\s([^>]*?)\/?>/g)].map((match) => ({
    attributes: Object.fromEntries(
      [...match[2]!.matchAll(/([\w:-]+)="([^"]*)"/g)].map((attribute) => [
        attribute[1]!,
        decodeEntities(attribute[2]!),
      ]),
    ),
  }));
  const find = (key: 'name' | 'property' | 'rel', value: string) =>
    tags.filter((tag) => tag.attributes[key] === value).map((tag) => tag.attributes.content ?? tag.attributes.href);
  const titles = [...head.matchAll(/<title>([\s\S]*?)<\/title>/g)].map((match) => decodeEntities(match[1]!));
  const jsonLd = [...head.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  return {
    head,
    titles,
    meta: (name: string) => find('name', name),
    property: (name: string) => find('property', name),
    link: (rel: string) => find('rel', rel),
    jsonLd,
  };
}

async function get(url: string) {
  const response = await fetch(url);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe.each(contractDatabases())('publishing on $dialect', (dialectCase) => {
  let server: TestApp;
  let author: TestUser;
  let nasty: { id: string; date: string };
  const created: { id: string; title: string }[] = [];

  beforeAll(async () => {
    server = await startTestApp(
      dialectCase,
      { PUBLIC_URL, RATE_LIMIT_ARTICLE_CREATE_PER_USER: '1000' },
      // The real build: its server renderer puts the reading screens in the page.
      { sitemapPageSize: 10, webDist: 'built' },
    );
    author = await signUp(server.url, 'Ada <Lovelace> & Co');
    const api = articlesApi(server.url);
    for (let index = 0; index < 52; index += 1) {
      const title = `Article number ${index}`;
      const answer = await api.create(author.idToken, {
        image: `https://img.example.org/${index}.png`,
        title,
        description: `Body ${index}`,
      });
      expect(answer.status).toBe(201);
      created.push({ id: answer.body.id, title });
    }
    const answer = await api.create(author.idToken, {
      image: 'https://img.example.org/a.png?x=1&y="2"',
      title: NASTY_TITLE,
      description: NASTY_DESCRIPTION,
    });
    expect(answer.status).toBe(201);
    nasty = answer.body;
    created.push({ id: nasty.id, title: NASTY_TITLE });
  });
  afterAll(() => server?.close());

  it('gives the home page its site-level tags and the feed link', async () => {
    const page = await get(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const head = readHead(page.text);
    expect(head.titles).toEqual(['Inkwell']);
    expect(head.meta('description')).toEqual(['Articles worth reading.']);
    expect(head.link('canonical')).toEqual([`${PUBLIC_URL}/`]);
    expect(head.property('og:site_name')).toEqual(['Inkwell']);
    expect(head.property('og:type')).toEqual(['website']);
    expect(head.property('og:url')).toEqual([`${PUBLIC_URL}/`]);
    expect(head.link('alternate')).toEqual(['/feed.xml']);
    // The screen is in the page (ssrScreens.test.ts), not an empty root for the app to fill.
    expect(page.text).not.toContain('<div id="root"></div>');
  });

  it('describes an article for crawlers and link previews, with everything escaped', async () => {
    const page = await get(`${server.url}/article/${nasty.id}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    // The title is text: nothing in it opens a tag.
    expect(page.text).not.toContain('<script>alert');
    expect(page.text).not.toContain('</script><!--');
    const head = readHead(page.text);
    const url = `${PUBLIC_URL}/article/${nasty.id}`;
    expect(head.titles).toEqual([`${NASTY_TITLE} – Inkwell`]);
    expect(head.property('og:site_name')).toEqual(['Inkwell']);
    const [description] = head.meta('description');
    expect([...description!].length).toBeLessThanOrEqual(160);
    expect(description).toMatch(/^Starts plainly\. <\/script><!-- <b>bold<\/b> & more text\. Long words/);
    expect(description).toMatch(/…$/);
    expect(head.link('canonical')).toEqual([url]);
    expect(head.property('og:type')).toEqual(['article']);
    expect(head.property('og:title')).toEqual([NASTY_TITLE]);
    expect(head.property('og:description')).toEqual([description]);
    expect(head.property('og:image')).toEqual(['https://img.example.org/a.png?x=1&y="2"']);
    expect(head.property('og:url')).toEqual([url]);
    expect(head.property('article:published_time')).toEqual([nasty.date]);
    expect(head.meta('twitter:card')).toEqual(['summary_large_image']);
    expect(head.meta('twitter:title')).toEqual([NASTY_TITLE]);
    expect(head.meta('twitter:image')).toEqual(['https://img.example.org/a.png?x=1&y="2"']);

    expect(head.jsonLd).toHaveLength(1);
    expect(head.jsonLd[0]).not.toContain('<');
    const data = JSON.parse(head.jsonLd[0]!);
    expect(data).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'BlogPosting',
      headline: NASTY_TITLE,
      description,
      datePublished: nasty.date,
      url,
      author: { '@type': 'Person', name: 'Ada <Lovelace> & Co' },
    });
    // The shell's own defaults make way for the article's.
    expect(page.text).not.toContain('<title>Inkwell</title>');
    // The screen is in the page (ssrScreens.test.ts), not an empty root for the app to fill.
    expect(page.text).not.toContain('<div id="root"></div>');
  });

  it('answers an unknown article with 404 and the 404 page', async () => {
    const page = await get(`${server.url}/article/AAAAAAAAAAAAAAAAAAAA`);
    expect(page.status).toBe(404);
    expect(readHead(page.text).titles).toEqual(['Page not found – Inkwell']);
    expect(readHead(page.text).property('og:site_name')).toEqual(['Inkwell']);
    expect((await get(`${server.url}/article-update/AAAAAAAAAAAAAAAAAAAA`)).status).toBe(404);
  });

  it('publishes the newest 50 articles as a well-formed Atom feed', async () => {
    const feed = await get(`${server.url}/feed.xml`);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    expect(XMLValidator.validate(feed.text)).toBe(true);
    const parsed = parser.parse(feed.text);
    const entries = parsed.feed.entry as { id: string; title: { '#text': string }; content: { '#text': string } }[];
    expect(entries).toHaveLength(50);
    const newestFirst = [...created].reverse().slice(0, 50);
    expect(entries.map((entry) => entry.id)).toEqual(
      newestFirst.map((article) => `${PUBLIC_URL}/article/${article.id}`),
    );
    expect(entries[0]!.title['#text']).toBe(NASTY_TITLE);
    // Characters XML 1.0 cannot carry are dropped; the rest of the text survives.
    expect(feed.text.includes('\u0001') || feed.text.includes('\u000b')).toBe(false);
    // The rendered body (type="html"): the source's markup was escaped when it was rendered.
    expect(entries[0]!.content['#text']).toContain('&lt;/script&gt;&lt;!-- &lt;b&gt;bold&lt;/b&gt; &amp; more text.');
    expect(entries[0]!.content['#text']).not.toContain('<script');
  });

  it('pages the sitemap behind an index when it outgrows one file', async () => {
    const index = await get(`${server.url}/sitemap.xml`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(XMLValidator.validate(index.text)).toBe(true);
    const files = (parser.parse(index.text).sitemapindex.sitemap as { loc: string }[]).map((entry) => entry.loc);
    // Home plus 53 articles, 10 per file, then one file of author pages.
    expect(files).toHaveLength(7);
    expect(files.slice(0, 6).every((file) => file.startsWith(`${PUBLIC_URL}/sitemaps/articles.xml`))).toBe(true);
    expect(files[6]).toBe(`${PUBLIC_URL}/sitemaps/authors.xml`);
    const urls: string[] = [];
    for (const file of files) {
      const sitemap = await get(`${server.url}${file.slice(PUBLIC_URL.length)}`);
      expect(sitemap.status, file).toBe(200);
      expect(XMLValidator.validate(sitemap.text)).toBe(true);
      const locs = ((parser.parse(sitemap.text).urlset.url as { loc: string }[] | undefined) ?? []).map(
        (entry) => entry.loc,
      );
      expect(locs.length).toBeLessThanOrEqual(10);
      urls.push(...locs);
    }
    const expected = [
      `${PUBLIC_URL}/`,
      ...[...created].reverse().map((article) => `${PUBLIC_URL}/article/${article.id}`),
      // At the slug of the name (decision 0420).
      `${PUBLIC_URL}/author/ada-lovelace-co`,
    ];
    expect(urls).toEqual(expected);
  });

  it('refuses a sitemap cursor it did not issue', async () => {
    expect((await get(`${server.url}/sitemaps/articles.xml?after=bogus`)).status).toBe(404);
    expect((await get(`${server.url}/sitemaps/articles.xml?after=`)).status).toBe(404);
  });

  it('points robots.txt at the sitemap by its absolute URL', async () => {
    const robots = await get(`${server.url}/robots.txt`);
    expect(robots.status).toBe(200);
    expect(robots.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(robots.text).toContain('User-agent: *');
    expect(robots.text).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
    expect(robots.text).toContain('Disallow: /profile');
  });
});

describe.each(contractDatabases())('publishing a small blog on $dialect', (dialectCase) => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp(dialectCase, { PUBLIC_URL });
  });
  afterAll(() => server?.close());

  it('serves an empty but well-formed feed and a one-file sitemap', async () => {
    const feed = await get(`${server.url}/feed.xml`);
    expect(XMLValidator.validate(feed.text)).toBe(true);
    expect(parser.parse(feed.text).feed.entry).toBeUndefined();

    const author = await signUp(server.url, 'Grace');
    const answer = await articlesApi(server.url).create(author.idToken, {
      image: 'https://img.example.org/g.png',
      title: 'Only one',
      description: 'Short.',
    });
    const sitemap = await get(`${server.url}/sitemap.xml`);
    expect(XMLValidator.validate(sitemap.text)).toBe(true);
    const locs = (parser.parse(sitemap.text).urlset.url as { loc: string }[]).map((entry) => entry.loc);
    expect(locs).toEqual([`${PUBLIC_URL}/`, `${PUBLIC_URL}/article/${answer.body.id}`, `${PUBLIC_URL}/author/grace`]);

    const page = readHead((await get(`${server.url}/article/${answer.body.id}`)).text);
    expect(page.meta('description')).toEqual(['Short.']);
    expect(page.titles).toEqual(['Only one – Inkwell']);
  });

  it("carries tables and links to the site's own paths in the feed, made absolute (issue 39.3)", async () => {
    const author = await signUp(server.url, 'Tabular');
    const answer = await articlesApi(server.url).create(author.idToken, {
      image: 'https://img.example.org/t.png',
      title: 'With a table',
      description:
        '| Time | Step |\n| --- | --- |\n| 5 min | Soak |\n\nThe [Atom feed](/feed.xml) and [step two](#two).',
    });
    expect(answer.status).toBe(201);
    const entries = [parser.parse((await get(`${server.url}/feed.xml`)).text).feed.entry].flat() as {
      title: { '#text': string };
      summary: { '#text': string };
      content: { '#text': string };
    }[];
    const entry = entries.find((candidate) => candidate.title['#text'] === 'With a table')!;
    expect(entry.content['#text']).toContain('<th>Time</th>');
    expect(entry.content['#text']).toContain(`<a href="${PUBLIC_URL}/feed.xml">Atom feed</a>`);
    expect(entry.content['#text']).toContain(`<a href="${PUBLIC_URL}/article/${answer.body.id}#two">step two</a>`);
    expect(entry.summary['#text']).toBe('Time · Step · 5 min · Soak · The Atom feed and step two.');
  });
});
