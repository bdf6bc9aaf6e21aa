import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  articlesApi,
  identityCall,
  sampleArticle,
  signUp,
  type TestUser,
} from '../../../test/support/articlesTestClient.ts';
import { setRole } from '../../../test/support/operatorActions.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';

/**
 * The Reports tab says who reported (issue 39, decision 0822): `GET /api/reports` gives each
 * report its reporter's name as of now and their author page's slug. An HTTP contract: SQLite only.
 */
describe.each(contractDatabases())('who reported, on $dialect', (dialectCase) => {
  let server: TestApp;
  let api: ReturnType<typeof articlesApi>;
  let editor: TestUser;
  let author: TestUser;

  beforeAll(async () => {
    server = await startTestApp(dialectCase, {});
    api = articlesApi(server.url);
    editor = await signUp(server.url, 'Eddie Editor');
    author = await signUp(server.url, 'Ann Author');
    await setRole(server, editor.email, 'editor');
  });
  afterAll(() => server?.close());

  it('names each reporter as they are called now, with the slug of their author page', async () => {
    const id = (await api.create(author.idToken, sampleArticle('Reported twice'))).body.id as string;
    const first = await signUp(server.url, 'Rita Reader');
    const second = await signUp(server.url, 'Sam Second');
    for (const reporter of [first, second]) {
      const made = await api.request('POST', `/articles/${id}/reports`, {
        token: reporter.idToken,
        json: { reason: 'Rude' },
      });
      expect(made.status, made.text).toBe(201);
      // What the reporter is answered names nobody: they know who they are.
      expect(made.body).not.toHaveProperty('reporterName');
    }
    const renamed = await identityCall(server.url, 'accounts:update', {
      idToken: second.idToken,
      displayName: 'Sam Renamed',
    });
    expect(renamed.status, renamed.text).toBe(200);
    const listed = await api.request('GET', '/reports', { token: editor.idToken });
    expect(listed.status).toBe(200);
    const reporters = (listed.body.reports as { reporterUid: string; reporterName: string; reporterSlug: string }[])
      .filter((report) => report.reporterUid === first.uid || report.reporterUid === second.uid)
      .map(({ reporterName, reporterSlug }) => ({ reporterName, reporterSlug }));
    expect(reporters).toEqual([
      { reporterName: 'Rita Reader', reporterSlug: 'rita-reader' },
      { reporterName: 'Sam Renamed', reporterSlug: 'sam-renamed' },
    ]);
    for (const slug of ['rita-reader', 'sam-renamed']) {
      expect((await api.request('GET', `/authors/${slug}`)).status, slug).toBe(200);
    }
    // Who may see reports is as before: editors and owners.
    expect((await api.request('GET', '/reports', { token: author.idToken })).status).toBe(403);
    expect((await api.request('GET', '/reports', { token: first.idToken })).status).toBe(403);
  });
});
