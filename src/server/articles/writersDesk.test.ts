import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articleDetailSchema, articlePageSchema } from '../../shared/articleSchema.ts';
import { articlesApi, sampleArticle, type TestUser } from '../../../test/support/articlesTestClient.ts';
import { signUpAs } from '../../../test/support/staffAccounts.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';

/**
 * The writer's desk through the real API (DESIGN.md §9.6): an author's own excerpt on cards and
 * in the page head, a draft with only a title, and who may schedule what.
 */
describe.each(contractDatabases())('the writer’s desk on $dialect', (dialectCase) => {
  let server: TestApp;
  let api: ReturnType<typeof articlesApi>;
  let author: TestUser;
  let contributor: TestUser;
  let editor: TestUser;
  const now = Date.parse('2026-12-02T10:00:00.000Z');

  beforeAll(async () => {
    server = await startTestApp(
      dialectCase,
      { RATE_LIMIT_ARTICLE_CREATE_PER_USER: '100000', RATE_LIMIT_SIGNUP_PER_IP: '100000' },
      { clock: () => now },
    );
    api = articlesApi(server.url);
    author = await signUpAs(server, 'Ann Author');
    contributor = await signUpAs(server, 'Cid Contributor', 'contributor');
    editor = await signUpAs(server, 'Eddie Editor', 'editor');
  });
  afterAll(async () => server?.close());

  const created = async (token: string, json: object) => {
    const answer = await api.create(token, json);
    expect(answer.status, answer.text).toBe(201);
    return articleDetailSchema.parse(answer.body);
  };
  const fieldsOf = (answer: { body: { errors?: { field: string; message: string }[] } }) => answer.body.errors;

  it('shows the author’s own excerpt on cards and as the meta description, keeps it through edits, and can go back', async () => {
    const article = await created(author.idToken, {
      ...sampleArticle('Sharpening'),
      description: 'The long body that would make its own excerpt.',
      excerpt: '  Ten minutes on a stone, every week.  ',
    });
    expect(article).toMatchObject({
      excerpt: 'Ten minutes on a stone, every week.',
      customExcerpt: 'Ten minutes on a stone, every week.',
    });
    const listed = articlePageSchema.parse((await api.list()).body).articles.find((a) => a.id === article.id);
    expect(listed?.excerpt).toBe('Ten minutes on a stone, every week.');
    const page = await fetch(`${server.url}/article/${article.id}`);
    expect(await page.text()).toContain('<meta name="description" content="Ten minutes on a stone, every week." />');

    // A PUT without an excerpt keeps it, whatever the new text makes.
    const edited = await api.update(author.idToken, article.id, {
      ...sampleArticle('Sharpening'),
      description: 'New body.',
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({ excerpt: 'Ten minutes on a stone, every week.', description: 'New body.' });
    // '' goes back to the excerpt made from the text.
    const cleared = await api.update(author.idToken, article.id, {
      ...sampleArticle('Sharpening'),
      description: 'New body.',
      excerpt: '',
    });
    expect(cleared.body).toMatchObject({ excerpt: 'New body.', customExcerpt: null });
  });

  it('refuses an excerpt over 300 characters, naming the field, and stores nothing', async () => {
    const long = await api.create(author.idToken, { ...sampleArticle('Too long'), excerpt: 'é'.repeat(301) });
    expect(long.status).toBe(400);
    expect(fieldsOf(long)).toEqual([{ field: 'excerpt', message: 'Excerpt must be at most 300 characters.' }]);
    const notText = await api.create(author.idToken, { ...sampleArticle('Not text'), excerpt: 7 });
    expect(fieldsOf(notText)).toEqual([{ field: 'excerpt', message: 'Excerpt must be text.' }]);
    const titles = articlePageSchema.parse((await api.list()).body).articles.map((a) => a.title);
    expect(titles).not.toContain('Too long');
    expect(titles).not.toContain('Not text');
  });

  it('saves a draft with only a title, and asks for the cover and body only when it is published', async () => {
    const draft = await created(author.idToken, { title: 'Just an idea', status: 'draft' });
    expect(draft).toMatchObject({ title: 'Just an idea', image: '', description: '', status: 'draft' });
    expect((await api.update(author.idToken, draft.id, { title: 'Just an idea, renamed' })).status).toBe(200);

    const publish = await api.update(author.idToken, draft.id, { title: 'Just an idea', status: 'published' });
    expect(publish.status).toBe(400);
    expect(fieldsOf(publish)).toEqual([
      { field: 'image', message: 'Image URL is required.' },
      { field: 'description', message: 'Description is required.' },
    ]);
    // Still the draft it was.
    expect((await api.get(draft.id, { authorization: `Bearer ${author.idToken}` })).body).toMatchObject({
      title: 'Just an idea, renamed',
      status: 'draft',
    });
    // An author's default status is published: the same fields are asked for.
    const published = await api.create(author.idToken, { title: 'No body' });
    expect(published.status).toBe(400);
    expect(fieldsOf(published)?.map((error) => error.field)).toEqual(['image', 'description']);
    // Submitting for review needs them too.
    const submitted = await api.create(contributor.idToken, {
      title: 'For review',
      image: 'https://images.example.com/a.jpg',
      status: 'submitted',
    });
    expect(fieldsOf(submitted)).toEqual([{ field: 'description', message: 'Description is required.' }]);
    // A cover, when given, is still checked.
    const badCover = await api.create(author.idToken, { title: 'Bad cover', image: 'ftp://x', status: 'draft' });
    expect(fieldsOf(badCover)).toEqual([
      { field: 'image', message: 'Image URL must be an http:// or https:// address.' },
    ]);
  });

  it('schedules for those who may publish, in the future only, visible only as drafts are', async () => {
    const at = '2026-12-24T09:00:00.000Z';
    const noTime = await api.create(author.idToken, { ...sampleArticle('No time'), status: 'scheduled' });
    expect(fieldsOf(noTime)).toEqual([
      { field: 'publishAt', message: 'publishAt is required with status scheduled: say when to publish it.' },
    ]);
    const past = await api.create(author.idToken, {
      ...sampleArticle('Past'),
      status: 'scheduled',
      publishAt: '2026-12-01T09:00:00Z',
    });
    expect(fieldsOf(past)).toEqual([{ field: 'publishAt', message: 'publishAt must be a time in the future.' }]);
    const garbled = await api.create(author.idToken, {
      ...sampleArticle('Garbled'),
      status: 'scheduled',
      publishAt: 'tomorrow',
    });
    expect(fieldsOf(garbled)?.[0]?.field).toBe('publishAt');
    const withoutStatus = await api.create(author.idToken, { ...sampleArticle('Stray'), publishAt: at });
    expect(fieldsOf(withoutStatus)).toEqual([
      { field: 'publishAt', message: 'publishAt goes only with status scheduled.' },
    ]);
    const incomplete = await api.create(author.idToken, { title: 'Bare', status: 'scheduled', publishAt: at });
    expect(fieldsOf(incomplete)?.map((error) => error.field)).toEqual(['image', 'description']);
    // A contributor's work is published by an editor: scheduling is publishing.
    const byContributor = await api.create(contributor.idToken, {
      ...sampleArticle('Mine'),
      status: 'scheduled',
      publishAt: at,
    });
    expect(byContributor.status).toBe(403);

    const scheduled = await created(author.idToken, {
      ...sampleArticle('Christmas'),
      status: 'scheduled',
      publishAt: '2026-12-24T10:00:00+01:00',
    });
    expect(scheduled).toMatchObject({ status: 'scheduled', publishAt: at });
    // Nobody else sees it, nor the public list.
    expect((await api.get(scheduled.id)).status).toBe(404);
    expect(articlePageSchema.parse((await api.list()).body).articles.map((a) => a.id)).not.toContain(scheduled.id);
    // The author's and the editors' lists have it under its status, not among the drafts.
    const mine = await api.list(`?author=${author.uid}&status=scheduled`, {
      authorization: `Bearer ${author.idToken}`,
    });
    expect(mine.body.articles).toMatchObject([{ id: scheduled.id, status: 'scheduled', publishAt: at }]);
    const drafts = await api.list(`?author=${author.uid}&status=draft`, { authorization: `Bearer ${author.idToken}` });
    expect(drafts.body.articles.map((a: { id: string }) => a.id)).not.toContain(scheduled.id);
    const staff = await api.list('?status=scheduled', { authorization: `Bearer ${editor.idToken}` });
    expect(staff.body.articles.map((a: { id: string }) => a.id)).toContain(scheduled.id);
    // An edit without a status keeps the time; a draft status takes it off the schedule.
    const edited = await api.update(author.idToken, scheduled.id, sampleArticle('Christmas Eve'));
    expect(edited.body).toMatchObject({ status: 'scheduled', publishAt: at, title: 'Christmas Eve' });
    const unscheduled = await api.update(author.idToken, scheduled.id, {
      ...sampleArticle('Christmas Eve'),
      status: 'draft',
    });
    expect(unscheduled.body.status).toBe('draft');
    expect(unscheduled.body.publishAt).toBeUndefined();
    // A published article is out already: it is not scheduled.
    const live = await created(author.idToken, sampleArticle('Live'));
    const reschedule = await api.update(author.idToken, live.id, {
      ...sampleArticle('Live'),
      status: 'scheduled',
      publishAt: at,
    });
    expect(reschedule.status).toBe(409);
    expect((await api.get(live.id)).body.status).toBe('published');
  });
});
