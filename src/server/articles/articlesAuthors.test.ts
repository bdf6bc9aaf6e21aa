import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';
import {
  articlesApi,
  identityCall,
  sampleArticle,
  signUp,
  type TestUser,
} from '../../../test/support/articlesTestClient.ts';

describe.each(contractDatabases())('articles and their authors on $dialect', (dialectCase) => {
  let server: TestApp;
  let api: ReturnType<typeof articlesApi>;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;

  beforeAll(async () => {
    server = await startTestApp(dialectCase, { RATE_LIMIT_ARTICLE_CREATE_PER_USER: '3' });
    api = articlesApi(server.url);
    [alice, bob, carol, dave] = await Promise.all([
      signUp(server.url, 'Alice'),
      signUp(server.url, 'Bob'),
      signUp(server.url, 'Carol'),
      signUp(server.url, 'Dave'),
    ]);
  });
  afterAll(() => server.close());

  it("shows the author's current display name, following a change", async () => {
    const { body: article } = await api.create(alice.idToken, sampleArticle('Named'));
    expect(article.authorName).toBe('Alice');

    const renamed = await identityCall(server.url, 'accounts:update', {
      idToken: alice.idToken,
      displayName: 'Alice Liddell',
      returnSecureToken: true,
    });
    expect(renamed.status, renamed.text).toBe(200);

    expect((await api.get(article.id)).body.authorName).toBe('Alice Liddell');
    const listed = (await api.list('?limit=100')).body.articles.find((a: { id: string }) => a.id === article.id);
    expect(listed.authorName).toBe('Alice Liddell');
  });

  it("deletes a user's articles with the user, and refuses that user's token afterwards", async () => {
    const own = [
      (await api.create(carol.idToken, sampleArticle('Carol 1'))).body.id,
      (await api.create(carol.idToken, sampleArticle('Carol 2'))).body.id,
    ];
    const { body: others } = await api.create(bob.idToken, sampleArticle("Bob's stays"));

    // Deleting an account needs a recent sign-in: use a fresh token.
    const signedIn = await identityCall(server.url, 'accounts:signInWithPassword', {
      email: carol.email,
      password: carol.password,
      returnSecureToken: true,
    });
    expect(signedIn.status, signedIn.text).toBe(200);
    const deleted = await identityCall(server.url, 'accounts:delete', { idToken: signedIn.body.idToken });
    expect(deleted.status, deleted.text).toBe(200);

    for (const id of own) expect((await api.get(id)).status).toBe(404);
    const remaining = (await api.list('?limit=100')).body.articles.map((a: { id: string }) => a.id);
    for (const id of own) expect(remaining).not.toContain(id);
    expect(remaining).toContain(others.id);

    const refused = await api.create(carol.idToken, sampleArticle('From beyond'));
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  });

  it('refuses a token issued before the password changed, and accepts the new one', async () => {
    const { body: article } = await api.create(dave.idToken, sampleArticle("Dave's"));
    const changed = await identityCall(server.url, 'accounts:update', {
      idToken: dave.idToken,
      password: 'a brand new password',
      returnSecureToken: true,
    });
    expect(changed.status, changed.text).toBe(200);
    const stale = await api.update(dave.idToken, article.id, sampleArticle('Stale'));
    expect(stale.status).toBe(401);
    expect(stale.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    const fresh = await api.update(changed.body.idToken, article.id, sampleArticle('Fresh'));
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body.title).toBe('Fresh');
  });

  it('limits how many articles one user creates in a window: 429 with Retry-After', async () => {
    // Carol used 2 and Alice 1 of their 3; Bob has used 1.
    expect((await api.create(bob.idToken, sampleArticle('Bob 2'))).status).toBe(201);
    expect((await api.create(bob.idToken, sampleArticle('Bob 3'))).status).toBe(201);
    const limited = await api.create(bob.idToken, sampleArticle('Bob 4'));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(600);
    // The limit is per user, and reading, editing and deleting are not limited.
    expect((await api.create(alice.idToken, sampleArticle('Alice 2'))).status).toBe(201);
    const { articles } = (await api.list('?limit=100')).body;
    const bobs = articles.find((a: { authorId: string }) => a.authorId === bob.uid);
    expect((await api.update(bob.idToken, bobs.id, sampleArticle('Bob edited'))).status).toBe(200);
    expect((await api.remove(bob.idToken, bobs.id)).status).toBe(204);
  });

  it('does not count invalid creates against the limit', async () => {
    const erin = await signUp(server.url, 'Erin');
    for (let i = 0; i < 5; i++) {
      expect((await api.create(erin.idToken, { ...sampleArticle('Erin'), title: ' ' })).status).toBe(400);
    }
    for (let i = 0; i < 3; i++) {
      const created = await api.create(erin.idToken, sampleArticle(`Erin ${i}`));
      expect(created.status, created.text).toBe(201);
    }
  });

  it('answers 401, not 500, when the author is deleted between the token check and the insert', async () => {
    const frank = await signUp(server.url, 'Frank');
    // The database itself deletes the author just before the row goes in: the race, made certain.
    const { db, dialect } = server.database;
    if (dialect === 'sqlite') {
      await sql`create trigger author_vanishes before insert on articles
        begin delete from users where id = new.author_id; end`.execute(db);
    } else {
      await sql`create function author_vanishes() returns trigger language plpgsql as
        $$ begin delete from users where id = new.author_id; return new; end $$`.execute(db);
      await sql`create trigger author_vanishes before insert on articles
        for each row execute function author_vanishes()`.execute(db);
    }
    try {
      const answer = await api.create(frank.idToken, sampleArticle('Too late'));
      expect(answer.status, answer.text).toBe(401);
      expect(answer.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      expect(answer.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    } finally {
      if (dialect === 'sqlite') {
        await sql`drop trigger author_vanishes`.execute(db);
      } else {
        await sql`drop trigger author_vanishes on articles`.execute(db);
        await sql`drop function author_vanishes()`.execute(db);
      }
    }
  });
});
