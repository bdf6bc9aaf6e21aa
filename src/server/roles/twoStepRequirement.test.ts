import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, sampleArticle } from '../../../test/support/articlesTestClient.ts';
import { identityClient, uniqueEmail } from '../../../test/support/identityTestClient.ts';
import { setRole } from '../../../test/support/operatorActions.ts';
import { startSmtpSink, type SmtpSink } from '../../../test/support/smtpSink.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';
import { signUpVerified, totpCode } from '../../../test/support/twoStepTestSupport.ts';
import type { Role } from '../../shared/roles.ts';

const REFUSAL = 'Turn on two-step verification on your profile first: this site requires it for editors and owners.';

// DESIGN §8.4, REQUIRE_TWO_STEP; docs/product.md, Roles.
describe.each(contractDatabases())('REQUIRE_TWO_STEP on $dialect', (dialectCase) => {
  let sink: SmtpSink;
  let required: TestApp;
  let unset: TestApp;

  beforeAll(async () => {
    sink = await startSmtpSink();
    const env = { SMTP_URL: sink.url, RATE_LIMIT_ARTICLE_CREATE_PER_USER: '1000' };
    [required, unset] = await Promise.all([
      startTestApp(dialectCase, { ...env, REQUIRE_TWO_STEP: 'editors' }),
      startTestApp(dialectCase, env),
    ]);
  });
  afterAll(async () => {
    await required?.close();
    await unset?.close();
    await sink?.close();
  });

  /**
   * A verified account with `role` on `server`, signed in, two-step not on, with an article of
   * its own written while it was an author.
   */
  async function member(server: TestApp, role: Role) {
    const client = identityClient(server.url);
    const email = uniqueEmail(role);
    const signedUp = await signUpVerified(client, sink, email, 'secret-1');
    const article = await articlesApi(server.url).create(signedUp.idToken, sampleArticle('Written as an author'));
    expect(article.status).toBe(201);
    if (role !== 'author') await setRole(server, email, role);
    return { client, email, uid: signedUp.localId, idToken: signedUp.idToken, articleId: article.body.id as string };
  }

  /** Turns two-step on the way the profile does (mfaEnrollment:start, then :finalize with the app's code). */
  async function enroll(server: TestApp, idToken: string): Promise<string> {
    const client = identityClient(server.url);
    const started = await client.call('/v2/accounts/mfaEnrollment:start', { idToken, totpEnrollmentInfo: {} });
    expect(started.status).toBe(200);
    const { sharedSecretKey, sessionInfo } = started.body.totpSessionInfo;
    const done = await client.call('/v2/accounts/mfaEnrollment:finalize', {
      idToken,
      displayName: 'Phone',
      totpVerificationInfo: { sessionInfo, verificationCode: totpCode(sharedSecretKey, Date.now()) },
    });
    expect(done.status).toBe(200);
    return done.body.idToken as string;
  }

  /** Every kind of Bearer-authenticated /api call an editor makes, with their statuses. */
  async function editorCalls(server: TestApp, token: string, ownArticleId: string) {
    const api = articlesApi(server.url);
    const created = await api.create(token, sampleArticle('An editor writes'));
    const updated = await api.update(token, ownArticleId, sampleArticle('Edited by an editor'));
    const members = await api.request('GET', '/members', { token });
    const invited = await api.request('POST', '/invitations', { token, json: { role: 'author' } });
    const invitations = await api.request('GET', '/invitations', { token });
    const removed = await api.remove(token, ownArticleId);
    return { created, updated, members, invited, invitations, removed };
  }

  it('refuses every action of an editor without two-step with 403 and the reason, and allows them once it is on', async () => {
    const api = articlesApi(required.url);
    const editor = await member(required, 'editor');

    const refused = await editorCalls(required, editor.idToken, editor.articleId);
    for (const [call, answer] of Object.entries(refused)) {
      expect({ call, status: answer.status }).toEqual({ call, status: 403 });
      expect(answer.body.detail).toBe(REFUSAL);
    }
    const upload = await api.request('POST', '/images', {
      token: editor.idToken,
      raw: 'not read',
      headers: { 'content-type': 'image/png' },
    });
    expect(upload.status).toBe(403);
    expect(upload.body.detail).toBe(REFUSAL);
    // Nothing was written; reading, the profile and the way to comply keep working.
    const kept = await api.list(`?author=${editor.uid}`);
    expect(kept.status).toBe(200);
    expect(kept.body.articles.map((article: { title: string }) => article.title)).toEqual(['Written as an author']);
    expect((await editor.client.lookup(editor.idToken)).status).toBe(200);
    const renamed = await editor.client.call('/v1/accounts:update', { idToken: editor.idToken, displayName: 'Eddie' });
    expect(renamed.status).toBe(200);

    const token = await enroll(required, editor.idToken);
    const allowed = await editorCalls(required, token, editor.articleId);
    expect(allowed.created.status).toBe(201);
    expect(allowed.updated.status).toBe(200);
    expect(allowed.updated.body.title).toBe('Edited by an editor');
    expect(allowed.members.status).toBe(200);
    expect(allowed.invited.status).toBe(201);
    expect(allowed.invitations.status).toBe(200);
    expect(allowed.removed.status).toBe(204);
  });

  it('refuses an owner without two-step too, and an author never', async () => {
    const api = articlesApi(required.url);
    const owner = await member(required, 'owner');
    const members = await api.request('GET', '/members', { token: owner.idToken });
    expect(members.status).toBe(403);
    expect(members.body.detail).toBe(REFUSAL);
    expect((await api.create(owner.idToken, sampleArticle())).status).toBe(403);

    const author = await member(required, 'author');
    expect((await api.create(author.idToken, sampleArticle('Not held back'))).status).toBe(201);
    expect((await api.update(author.idToken, author.articleId, sampleArticle('Still not'))).status).toBe(200);
    expect((await api.remove(author.idToken, author.articleId)).status).toBe(204);
  });

  it('applies a change of role at the next request, with the same token', async () => {
    const api = articlesApi(required.url);
    const person = await member(required, 'author');
    expect((await api.create(person.idToken, sampleArticle('Before'))).status).toBe(201);
    await setRole(required, person.email, 'editor');
    const after = await api.create(person.idToken, sampleArticle('After'));
    expect(after.status).toBe(403);
    expect(after.body.detail).toBe(REFUSAL);
    await setRole(required, person.email, 'author');
    expect((await api.create(person.idToken, sampleArticle('Back'))).status).toBe(201);
  });

  it('changes nothing when REQUIRE_TWO_STEP is not set: an editor without two-step may do everything', async () => {
    const editor = await member(unset, 'editor');
    const calls = await editorCalls(unset, editor.idToken, editor.articleId);
    expect(calls.created.status).toBe(201);
    expect(calls.updated.status).toBe(200);
    expect(calls.members.status).toBe(200);
    expect(calls.invited.status).toBe(201);
    expect(calls.invitations.status).toBe(200);
    expect(calls.removed.status).toBe(204);
  });
});
