import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, sampleArticle, signUp, type TestUser } from '../../../test/support/articlesTestClient.ts';
import { signUpAs } from '../../../test/support/staffAccounts.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';

/**
 * An article that is not published, loaded as a page (decision 0830): its author and editors,
 * whose browser sends the viewer cookie, get it (theirs alone, never kept by a cache); anyone
 * else gets what an unknown id gets.
 */
describe.each(contractDatabases())('unpublished article pages by viewer on $dialect', (dialectCase) => {
  let server: TestApp;
  let writer: TestUser;
  let editor: TestUser;
  let other: TestUser;
  const drafts: Record<'draft' | 'submitted', string> = { draft: '', submitted: '' };

  beforeAll(async () => {
    server = await startTestApp(dialectCase, {}, { webDist: 'built' });
    writer = await signUp(server.url, 'Writer');
    other = await signUp(server.url, 'Other');
    editor = await signUpAs(server, 'Editor', 'editor');
    const api = articlesApi(server.url);
    for (const status of ['draft', 'submitted'] as const) {
      const created = await api.create(writer.idToken, { ...sampleArticle(`Zq${status}xv`), status });
      expect(created.status).toBe(201);
      drafts[status] = created.body.id;
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  const page = async (id: string, cookie?: string) => {
    const response = await fetch(`${server.url}/article/${id}`, cookie ? { headers: { cookie } } : {});
    return {
      status: response.status,
      cacheControl: response.headers.get('cache-control'),
      text: await response.text(),
    };
  };

  it('shows the article to its author and editors, privately', async () => {
    for (const [status, id] of Object.entries(drafts)) {
      for (const viewer of [writer, editor]) {
        const answer = await page(id, `theme=dark; inkwell_viewer=${viewer.idToken}`);
        expect(answer.status, `${status} for ${viewer.email === writer.email ? 'its author' : 'an editor'}`).toBe(200);
        expect(answer.cacheControl).toBe('private, no-store');
        expect(answer.text).toContain(`Zq${status}xv`);
      }
    }
  });

  it('answers anyone else as it answers an unknown id, and keeps nothing for them', async () => {
    const unknown = await page('nosucharticle0000000');
    expect(unknown.status).toBe(404);
    for (const id of Object.values(drafts)) {
      // Seen by its author just before: nothing of that page was kept.
      expect((await page(id, `inkwell_viewer=${writer.idToken}`)).status).toBe(200);
      for (const cookie of [
        undefined,
        `inkwell_viewer=${other.idToken}`,
        'inkwell_viewer=not.a.token',
        'inkwell_viewer=',
      ]) {
        const answer = await page(id, cookie);
        expect(answer, String(cookie)).toEqual({ ...unknown, text: unknown.text });
      }
    }
  });

  it('opens the editor of an unpublished article to whoever may view it, and answers anyone else as an unknown id (decision 0862)', async () => {
    const editorPage = async (id: string, cookie?: string) => {
      const response = await fetch(`${server.url}/article-update/${id}`, cookie ? { headers: { cookie } } : {});
      return { status: response.status, text: await response.text() };
    };
    const unknown = await editorPage('nosucharticle0000000');
    expect(unknown.status).toBe(404);
    for (const id of Object.values(drafts)) {
      for (const viewer of [writer, editor]) {
        expect((await editorPage(id, `theme=dark; inkwell_viewer=${viewer.idToken}`)).status).toBe(200);
      }
      for (const cookie of [undefined, `inkwell_viewer=${other.idToken}`, 'inkwell_viewer=not.a.token']) {
        expect(await editorPage(id, cookie), String(cookie)).toEqual(unknown);
      }
    }
  });
});
