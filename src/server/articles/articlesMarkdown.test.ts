import { describe, expect, it } from 'vitest';
import { articleDetailSchema, articlePageSchema } from '../../shared/articleSchema.ts';
import { articlesTestApp, sampleArticle } from '../../../test/support/articlesTestClient.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';

const HOSTILE = [
  '<script>alert("x")</script>',
  '<img src=x onerror="alert(1)">',
  '<iframe src="https://evil.example"></iframe>',
  '[click me](javascript:alert(document.cookie))',
  '[encoded](jav&#x61;script:alert(1))',
  '<javascript:alert(1)>',
  '![pixel](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  '[ref][r]',
  '',
  '[r]: javascript:alert(2)',
  '<a href="https://evil.example" onclick="steal()">html link</a>',
].join('\n\n');

/** Tags and attributes that could run script or load something in the rendered body. */
function expectInert(html: string) {
  // Text never holds a literal '<' (it is escaped), so every '<' starts a real tag.
  const tags = html.match(/<[^>]*>/g) ?? [];
  const names = new Set(tags.map((tag) => /^<\/?([a-z0-9]+)/i.exec(tag)?.[1]?.toLowerCase()));
  for (const name of names) expect(['p', 'a', 'br', 'img', 'strong', 'em', 'code', 'pre']).toContain(name);
  for (const tag of tags) {
    expect(tag).not.toMatch(/\son[a-z]+=/i);
    for (const [, url] of tag.matchAll(/\s(?:href|src)="([^"]*)"/g)) expect(url).toMatch(/^https?:\/\//);
  }
}

describe.each(contractDatabases())('Markdown articles on $dialect', (dialectCase) => {
  const app = articlesTestApp(dialectCase);

  it('stores the rendered body and excerpt on create and on edit, and serves them', async () => {
    const created = await app.api.create(app.alice.idToken, {
      ...sampleArticle('Formatted'),
      description:
        '# Heading\n\nSome **bold** and *italic*, ~~struck~~, a [link](https://example.com).\n\n- one\n- two',
    });
    expect(created.status, created.text).toBe(201);
    const article = articleDetailSchema.parse(created.body);
    expect(article.descriptionHtml).toBe(
      '<h2>Heading</h2>\n<p>Some <strong>bold</strong> and <em>italic</em>, <s>struck</s>, a ' +
        '<a href="https://example.com" rel="nofollow ugc noopener">link</a>.</p>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n',
    );
    expect(article.excerpt).toBe('Heading · Some bold and italic, struck, a link. one · two');
    expect((await app.api.get(article.id)).body).toEqual(article);

    const edited = await app.api.update(app.alice.idToken, article.id, {
      ...sampleArticle('Formatted'),
      description: 'Now `code`\nand a break',
    });
    expect(edited.status).toBe(200);
    expect(edited.body.descriptionHtml).toBe('<p>Now <code>code</code><br>\nand a break</p>\n');
    expect(edited.body.excerpt).toBe('Now code and a break');
    expect((await app.api.get(article.id)).body).toEqual(edited.body);

    // Lists carry the excerpt but not the body: the home page renders no Markdown and loads no HTML.
    const page = articlePageSchema.parse((await app.api.list('?limit=100')).body);
    const listed = page.articles.find((item) => item.id === article.id);
    expect(listed).toMatchObject({ excerpt: 'Now code and a break', description: 'Now `code`\nand a break' });
    expect(listed).not.toHaveProperty('descriptionHtml');
  });

  it('renders hostile Markdown inert: no script, no handler, no javascript: or data: URL', async () => {
    const created = await app.api.create(app.alice.idToken, { ...sampleArticle('Hostile'), description: HOSTILE });
    expect(created.status, created.text).toBe(201);
    for (const body of [created.body, (await app.api.get(created.body.id)).body]) {
      expectInert(body.descriptionHtml);
      // Raw HTML is shown as the text it is.
      expect(body.descriptionHtml).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
      expect(body.descriptionHtml).toContain('[click me](javascript:alert(document.cookie))');
      expect(body.excerpt).toMatch(/^<script>alert\("x"\)<\/script>/);
    }
  });

  it('uses the excerpt for the meta description, JSON-LD and the feed summary', async () => {
    const created = await app.api.create(app.alice.idToken, {
      ...sampleArticle('Summarised'),
      description: '## Why\n\nBecause **Markdown** reads well & [links](https://example.com) work.',
    });
    const excerpt = 'Why · Because Markdown reads well & links work.';
    expect(created.body.excerpt).toBe(excerpt);
    const page = await (await fetch(`${app.server.url}/article/${created.body.id}`)).text();
    expect(page).toContain('<meta name="description" content="Why · Because Markdown reads well &amp; links work." />');
    expect(page).toContain('"description":"Why · Because Markdown reads well \\u0026 links work."');
    const feed = await (await fetch(`${app.server.url}/feed.xml`)).text();
    expect(feed).toContain('<summary type="text">Why · Because Markdown reads well &amp; links work.</summary>');
  });
});
