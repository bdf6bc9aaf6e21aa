import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, type TestUser } from '../../../test/support/articlesTestClient.ts';
import { staffAccounts } from '../../../test/support/staffAccounts.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';
import { SETTINGS_NAVIGATION_MAX_LINKS } from '../../shared/siteSettings.ts';

/** GET and PATCH /api/settings (DESIGN.md §9.6): an HTTP contract, SQLite only. */
describe.each(contractDatabases())('site settings API on $dialect', (dialectCase) => {
  let server: TestApp;
  let api: ReturnType<typeof articlesApi>;
  let owner: TestUser;
  let editor: TestUser;

  beforeAll(async () => {
    server = await startTestApp(dialectCase, { SITE_TITLE: 'Margit’s Kitchen', SITE_DESCRIPTION: 'Bread and soup.' });
    api = articlesApi(server.url);
    ({ owner, editor } = await staffAccounts(server));
  });
  afterAll(() => server?.close());

  const settings = async () => {
    const answer = await api.request('GET', '/settings');
    expect(answer.status, answer.text).toBe(200);
    return answer.body;
  };
  const patch = (json: unknown, token: string = owner.idToken) => api.request('PATCH', '/settings', { token, json });

  it('starts from SITE_TITLE and SITE_DESCRIPTION, for anyone to read', async () => {
    expect(await settings()).toEqual({
      title: 'Margit’s Kitchen',
      description: 'Bread and soup.',
      iconUrl: null,
      accentColor: null,
      navigation: [],
      footer: '',
    });
  });

  it('adds nothing to the pages while no setting is set', async () => {
    const page = await (await fetch(`${server.url}/`)).text();
    expect(page).toContain('<link rel="icon" type="image/svg+xml" href="/favicon.svg" />');
    expect(page).not.toContain('/site.css');
    expect(page).not.toContain('aria-label="Site"');
    expect(page).not.toContain('aria-label="About this site"');
  });

  it('writes labels, addresses and the footer into the page as text, never as markup', async () => {
    const written = await patch({
      navigation: [{ label: '<b>Bold</b> & "quoted"', url: '/a"onmouseover="alert(1)' }],
      footer: '<script>alert(1)</script>',
    });
    expect(written.status, written.text).toBe(200);
    const page = await (await fetch(`${server.url}/`)).text();
    expect(page).toContain(
      '<a href="/a&#34;onmouseover=&#34;alert(1)" dir="auto">&#60;b&#62;Bold&#60;/b&#62; &#38; &#34;quoted&#34;</a>',
    );
    expect(page).toContain('<p dir="auto">&#60;script&#62;alert(1)&#60;/script&#62;</p>');
    expect(page).not.toContain('<script>alert(1)');
    expect((await patch({ navigation: [], footer: '' })).status).toBe(200);
    expect(await (await fetch(`${server.url}/`)).text()).not.toContain('aria-label="Site"');
  });

  it('lets only an owner change them: 401 without a token, 403 for an editor, nothing stored', async () => {
    expect((await api.request('PATCH', '/settings', { json: { title: 'Nobody' } })).status).toBe(401);
    const refused = await patch({ title: 'Eddie’s' }, editor.idToken);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe('Only an owner can change the site settings.');
    expect((await settings()).title).toBe('Margit’s Kitchen');
  });

  it('changes the fields a PATCH names and keeps the others, and audits who changed which', async () => {
    const changed = await patch({
      title: '  Margit’s Bakery ',
      accentColor: '#AA3300',
      navigation: [
        { label: 'About', url: '/about' },
        { label: 'Shop', url: 'https://shop.example/bread' },
      ],
      footer: 'Baked in Graz.\nSince 1990.',
    });
    expect(changed.status, changed.text).toBe(200);
    const expected = {
      title: 'Margit’s Bakery',
      description: 'Bread and soup.',
      iconUrl: null,
      accentColor: '#aa3300',
      navigation: [
        { label: 'About', url: '/about' },
        { label: 'Shop', url: 'https://shop.example/bread' },
      ],
      footer: 'Baked in Graz.\nSince 1990.',
    };
    expect(changed.body).toEqual(expected);
    expect(await settings()).toEqual(expected);

    // An uploaded image of this site (PUBLIC_URL is http:// here) is an icon.
    const upload = `${server.config.publicUrl}/images/AAAAAAAAAAAAAAAAAAAAAA/64x64.png`;
    expect((await patch({ iconUrl: upload })).body.iconUrl).toBe(upload);
    expect((await patch({ iconUrl: '' })).body.iconUrl).toBeNull();

    // Reordered and one removed; clearing the accent gives the theme's own back.
    const again = await patch({ navigation: [{ label: 'Shop', url: 'https://shop.example/bread' }], accentColor: '' });
    expect(again.body).toMatchObject({ title: 'Margit’s Bakery', accentColor: null, navigation: [{ label: 'Shop' }] });

    const log = await api.request('GET', '/audit', { token: owner.idToken });
    const entries = (log.body.entries as Array<{ action: string; actorUid: string; detail: unknown }>).filter(
      (entry) => entry.action === 'settings.change',
    );
    // Newest first: this test's four changes.
    expect(entries.slice(0, 4).map((entry) => [entry.actorUid, entry.detail])).toEqual([
      [owner.uid, { fields: ['accentColor', 'navigation'] }],
      [owner.uid, { fields: ['iconUrl'] }],
      [owner.uid, { fields: ['iconUrl'] }],
      [owner.uid, { fields: ['title', 'accentColor', 'navigation', 'footer'] }],
    ]);
  });

  it('refuses bad input with a 400 naming each field, and stores nothing of it', async () => {
    const before = await settings();
    const cases: Array<[unknown, string, string]> = [
      [{ title: '' }, 'title', 'Title is required.'],
      [{ title: 'x'.repeat(101) }, 'title', 'Title must be at most 100 characters.'],
      [{ title: 'Two\nlines' }, 'title', 'Title must be one line.'],
      [{ description: 'd'.repeat(301) }, 'description', 'Description must be at most 300 characters.'],
      [{ footer: 'f'.repeat(501) }, 'footer', 'Footer must be at most 500 characters.'],
      [{ accentColor: 'red' }, 'accentColor', 'Accent colour must be a colour like #1d4ed8.'],
      [
        { iconUrl: 'http://elsewhere.example/icon.png' },
        'iconUrl',
        'Icon URL must be an uploaded image or an https:// address.',
      ],
      // An upload's shape, but another site's.
      [
        { iconUrl: 'http://elsewhere.example/images/AAAAAAAAAAAAAAAAAAAAAA/64x64.png' },
        'iconUrl',
        'Icon URL must be an uploaded image or an https:// address.',
      ],
      [
        { navigation: [{ label: 'Evil', url: 'javascript:alert(1)' }] },
        'navigation.0.url',
        'A link’s URL must be a path of this site starting with / or an http:// or https:// address.',
      ],
      [
        { navigation: [{ label: 'Away', url: '//evil.example' }] },
        'navigation.0.url',
        'A link’s URL must be a path of this site starting with / or an http:// or https:// address.',
      ],
      [{ navigation: [{ label: '', url: '/a' }] }, 'navigation.0.label', 'A link’s label is required.'],
      [
        { navigation: [{ label: 'L'.repeat(41), url: '/a' }] },
        'navigation.0.label',
        'A link’s label must be at most 40 characters.',
      ],
      [
        {
          navigation: Array.from({ length: SETTINGS_NAVIGATION_MAX_LINKS + 1 }, (_, i) => ({
            label: `L${i}`,
            url: '/a',
          })),
        },
        'navigation',
        `Navigation can have at most ${SETTINGS_NAVIGATION_MAX_LINKS} links.`,
      ],
      [
        { theme: 'dark' },
        'theme',
        'theme cannot be set: the settings are title, description, iconUrl, accentColor, navigation, footer.',
      ],
      [{ title: 42 }, 'title', 'Title must be text.'],
      [[], 'body', 'The settings must be an object.'],
    ];
    for (const [body, field, message] of cases) {
      const answer = await api.request('PATCH', '/settings', { token: owner.idToken, json: body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.errors, JSON.stringify(body)).toContainEqual({ field, message });
    }
    // A good field beside a bad one is not stored either.
    expect((await patch({ title: 'Half', accentColor: 'nope' })).status).toBe(400);
    expect(await settings()).toEqual(before);
  });
});
