import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';
import { createArticlesApi, type ArticlesApi } from './articlesApi.ts';
import { ArticlesApiError } from './articlesApiError.ts';

// The web app's client against the real server (the client has no database of its own: SQLite suffices).
describe('the web articles client against the real server', () => {
  let server: TestApp;
  let api: ArticlesApi;
  let token: () => Promise<string | null>;
  let otherToken: () => Promise<string | null>;
  // Failed calls are logged to the console (as the original product did): captured here, checked below.
  let logged: MockInstance<typeof console.error>;

  async function signUp(name: string) {
    const response = await fetch(`${server.url}/identity/v1/accounts:signUp?key=test`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `${name.toLowerCase()}-${Math.random().toString(36).slice(2, 8)}@example.com`,
        password: 'correct horse battery',
        displayName: name,
        returnSecureToken: true,
      }),
    });
    expect(response.status).toBe(200);
    const { idToken } = (await response.json()) as { idToken: string };
    return async () => idToken;
  }

  async function failureOf(call: Promise<unknown>): Promise<ArticlesApiError> {
    const error = await call.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ArticlesApiError);
    return error as ArticlesApiError;
  }

  beforeAll(async () => {
    logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    server = await startTestApp(contractDatabases()[0]!);
    api = createArticlesApi(server.url);
    token = await signUp('Ada');
    otherToken = await signUp('Bo');
  });
  afterAll(async () => {
    await server?.close();
    logged.mockRestore();
  });

  it('creates, reads, updates and deletes an article', async () => {
    const input = { image: 'https://example.com/a.png', title: 'Hello', description: 'Two\nlines' };
    const created = await api.create(input, token);
    expect(created).toMatchObject({ ...input, authorName: 'Ada' });
    expect(await api.get(created.id)).toEqual(created);

    const updated = await api.update(created.id, { ...input, title: 'Hello again' }, token);
    expect(updated).toEqual({ ...created, title: 'Hello again' });

    await expect(api.delete(created.id, token)).resolves.toBeUndefined();
    const error = await failureOf(api.get(created.id));
    expect(error.status).toBe(404);
  });

  it('pages through the list with the cursor, newest first, each article once', async () => {
    const titles = ['one', 'two', 'three', 'four', 'five'];
    for (const title of titles) {
      await api.create({ image: 'https://example.com/p.png', title, description: 'x' }, token);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await api.list({ limit: 2, cursor });
      expect(page.articles.length).toBeLessThanOrEqual(2);
      seen.push(...page.articles.map((article) => article.title));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...titles].reverse());
  });

  it('turns a problem response into a typed error with field errors, and logs it', async () => {
    const error = await failureOf(api.create({ image: 'ftp://x', title: 'ok', description: 'ok' }, token));
    expect(error.status).toBe(400);
    expect(error.fieldErrors.map((entry) => entry.field)).toEqual(['image']);
    expect(logged).toHaveBeenCalledWith('Articles API: POST /articles failed', error);
  });

  it('refuses without a token before calling, and says 403 to someone else', async () => {
    const signedOut = await failureOf(
      api.create({ image: 'https://e.com/i.png', title: 't', description: 'd' }, async () => null),
    );
    expect(signedOut.status).toBe(401);

    const mine = await api.create({ image: 'https://e.com/i.png', title: 'mine', description: 'd' }, token);
    expect((await failureOf(api.delete(mine.id, otherToken))).status).toBe(403);
    expect(
      (await failureOf(api.update(mine.id, { image: 'https://e.com/i.png', title: 'x', description: 'd' }, otherToken)))
        .status,
    ).toBe(403);
  });

  it('reports an unreachable server as status 0', async () => {
    const unreachable = createArticlesApi('http://127.0.0.1:9');
    expect((await failureOf(unreachable.list())).status).toBe(0);
  });
});
