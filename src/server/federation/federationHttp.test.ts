import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, sampleArticle, signUp, type TestUser } from '../../../test/support/articlesTestClient.ts';
import { setRole } from '../../../test/support/operatorActions.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';
import { loadConfig } from '../config.ts';
import { eventually, freePort, startTestPeer, type TestPeer } from './federationTestPeer.ts';

const AS = 'application/activity+json';
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
type Json = any;
const [sqlite] = contractDatabases();

describe('FEDERATION=off (the default)', () => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp(sqlite!);
  });
  afterAll(async () => server?.close());

  it('routes nothing of the fediverse and shows no follow line', async () => {
    const author = await signUp(server.url, 'Off Author');
    const made = await articlesApi(server.url).create(author.idToken, sampleArticle('Not federated'));
    expect((await fetch(`${server.url}/.well-known/webfinger?resource=acct:blog@127.0.0.1`)).status).toBe(404);
    expect((await fetch(`${server.url}/ap/actor/blog`, { headers: { accept: AS } })).status).toBe(404);
    expect((await fetch(`${server.url}/ap/inbox`, { method: 'POST', body: '{}' })).status).toBe(404);
    const page = await fetch(`${server.url}/article/${made.body.id}`, { headers: { accept: AS } });
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).not.toContain('Follow @blog@');
    expect((await fetch(`${server.url}/api/federation/blocks`)).status).toBe(404);
  });
});

describe('FEDERATION=on: configuration', () => {
  it('refuses to start without an https PUBLIC_URL (http only on this machine), in one line', () => {
    expect(() => loadConfig({ FEDERATION: 'on', PUBLIC_URL: 'http://blog.example' })).toThrow(
      /^Invalid configuration: FEDERATION=on needs an https:\/\/ PUBLIC_URL \(http:\/\/ only for localhost or 127\.0\.0\.1\)$/,
    );
    expect(loadConfig({ FEDERATION: 'on', PUBLIC_URL: 'https://blog.example' }).federation).toBe('on');
    expect(loadConfig({ FEDERATION: 'on', PUBLIC_URL: 'http://127.0.0.1:3000' }).federationHandle).toBe('blog');
    expect(() => loadConfig({ FEDERATION_HANDLE: 'no spaces' })).toThrow(/FEDERATION_HANDLE/);
  });
});

// HTTP contracts of DESIGN.md §9.4 (SQLite only: no storage question here).
describe('FEDERATION=on over HTTP', () => {
  let server: TestApp;
  let peer: TestPeer;
  let author: TestUser;
  let editor: TestUser;
  let reader: TestUser;
  let host: string;
  let actor: string;

  beforeAll(async () => {
    peer = await startTestPeer({ host: 'localhost', users: ['alice', 'bob', 'mallory'] });
    const port = await freePort();
    host = `127.0.0.1:${port}`;
    server = await startTestApp(
      sqlite!,
      {
        FEDERATION: 'on',
        FEDERATION_HANDLE: 'journal',
        PUBLIC_URL: `http://${host}`,
        SITE_TITLE: 'The Journal',
        SITE_DESCRIPTION: 'Notes from the field',
      },
      { port, transport: 'socket', federationAllowPrivateAddress: true },
    );
    actor = `${server.url}/ap/actor/journal`;
    author = await signUp(server.url, 'Author');
    editor = await signUp(server.url, 'Editor');
    await setRole(server, editor.email, 'editor');
    reader = await signUp(server.url, 'Reader');
    await setRole(server, reader.email, 'reader');
  });
  afterAll(async () => {
    await server?.close();
    await peer?.close();
  });

  const json = async (path: string, accept = AS) => {
    const response = await fetch(`${server.url}${path}`, { headers: { accept } });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
    const body: any = await response.json();
    return { status: response.status, type: response.headers.get('content-type'), body };
  };
  const admin = (method: string, path: string, user: TestUser | undefined, body?: unknown) =>
    fetch(`${server.url}/api${path}`, {
      method,
      headers: {
        ...(user ? { authorization: `Bearer ${user.idToken}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it('answers WebFinger and NodeInfo 2.1', async () => {
    const finger = await json(`/.well-known/webfinger?resource=acct:journal@${host}`, 'application/jrd+json');
    expect(finger.status).toBe(200);
    expect(finger.body.subject).toBe(`acct:journal@${host}`);
    expect(finger.body.links).toContainEqual(expect.objectContaining({ rel: 'self', type: AS, href: actor }));
    expect((await fetch(`${server.url}/.well-known/webfinger?resource=acct:nobody@${host}`)).status).toBe(404);
    const links = await json('/.well-known/nodeinfo', 'application/json');
    const href = links.body.links.find((link: { rel: string }) => link.rel.endsWith('/2.1')).href as string;
    const info = await json(new URL(href).pathname, 'application/json');
    expect(info.body).toMatchObject({ version: '2.1', software: { name: 'inkwell' }, protocols: ['activitypub'] });
  });

  it('serves the actor with its keys, inboxes and collections', async () => {
    const answer = await json('/ap/actor/journal');
    expect(answer.type).toContain('application/activity+json');
    expect(answer.body).toMatchObject({
      type: 'Service',
      id: actor,
      preferredUsername: 'journal',
      name: 'The Journal',
      summary: 'Notes from the field',
      url: `${server.url}/`,
      inbox: `${actor}/inbox`,
      outbox: `${actor}/outbox`,
      followers: `${actor}/followers`,
      following: `${actor}/following`,
      endpoints: { sharedInbox: `${server.url}/ap/inbox` },
    });
    expect(answer.body.publicKey.publicKeyPem).toContain('BEGIN PUBLIC KEY');
    expect(JSON.stringify(answer.body.assertionMethod)).toContain('Multikey');
    // The keys are the database's: the same on every read (and in every process).
    const again = await json('/ap/actor/journal');
    expect(again.body.publicKey.publicKeyPem).toBe(answer.body.publicKey.publicKeyPem);
    expect((await json('/ap/actor/someone-else')).status).toBe(404);
  });

  it('serves a published article as an Article by content negotiation, and nothing else', async () => {
    const made = await articlesApi(server.url).create(author.idToken, {
      ...sampleArticle('Negotiated'),
      tags: ['Field Notes'],
    });
    const url = `${server.url}/article/${made.body.id}`;
    for (const accept of [AS, 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"']) {
      const answer = await json(`/article/${made.body.id}`, accept);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        type: 'Article',
        id: url,
        url,
        name: 'Negotiated',
        summary: made.body.excerpt,
        content: made.body.descriptionHtml,
        attributedTo: actor,
        to: 'as:Public',
        cc: `${actor}/followers`,
        image: { type: 'Image', url: made.body.image },
        tag: { type: 'Hashtag', name: '#Field Notes', href: `${server.url}/tag/field-notes` },
      });
      expect(Date.parse(answer.body.published)).toBe(Date.parse(made.body.date));
    }
    // Browsers still get the page.
    const page = await fetch(url);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain(`Follow @journal@${host}`);
    const draft = await articlesApi(server.url).create(author.idToken, { ...sampleArticle('Draft'), status: 'draft' });
    expect((await fetch(`${server.url}/article/${draft.body.id}`, { headers: { accept: AS } })).status).toBe(404);
    expect((await fetch(`${server.url}/article/nope`, { headers: { accept: AS } })).status).toBe(404);
  });

  it('refuses unsigned, forged and replayed activities with 401, and bad bodies with a 4xx', async () => {
    const follow = {
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: `${peer.origin}/users/alice/follows/forged`,
      type: 'Follow',
      actor: peer.actorUri('alice'),
      object: actor,
    };
    const inbox = `${server.url}/ap/inbox`;
    const unsigned = await fetch(inbox, {
      method: 'POST',
      headers: { 'content-type': AS },
      body: JSON.stringify(follow),
    });
    expect(unsigned.status).toBe(401);
    // Signed by alice, then the body changed on the way.
    const signed = await peer.signedPost('alice', inbox, follow);
    const tampered = await fetch(inbox, {
      method: 'POST',
      headers: signed.headers,
      body: JSON.stringify({ ...follow, id: `${follow.id}-changed` }),
    });
    expect(tampered.status).toBe(401);
    // Signed by mallory, claiming to be alice.
    const impostor = await fetch(await peer.signedPost('mallory', inbox, follow));
    expect(impostor.status).toBe(401);
    // A real signature made two hours ago: a replay.
    const replay = await fetch(
      await peer.signedPost('alice', inbox, follow, new Date(Date.now() - 2 * 60 * 60 * 1000)),
    );
    expect(replay.status).toBe(401);
    for (const body of ['{', '[]', 'null', '{"type":"Follow"}']) {
      const answer = await fetch(inbox, { method: 'POST', headers: { 'content-type': AS }, body });
      expect(answer.status, body).toBeGreaterThanOrEqual(400);
      expect(answer.status, body).toBeLessThan(500);
    }
    const huge = await fetch(inbox, {
      method: 'POST',
      headers: { 'content-type': AS },
      body: JSON.stringify({ ...follow, content: 'x'.repeat(100_000) }),
    });
    expect(huge.status).toBe(413);
    expect(await server.database.db.selectFrom('federation_followers').selectAll().execute()).toEqual([]);
  });

  it('gives editors the followers and blocks; a domain block removes its followers, refuses it and is audited', async () => {
    await peer.follow('alice', actor);
    await peer.follow('bob', actor);
    const list = await eventually(async () => {
      const answer = (await (await admin('GET', '/federation/followers', editor)).json()) as Json;
      return answer.count === 2 ? answer : undefined;
    }, 'two followers');
    expect(list.handle).toBe(`@journal@${host}`);
    expect(list.followers.map((one: { handle: string }) => one.handle).sort()).toEqual([
      `@alice@${new URL(peer.origin).host}`,
      `@bob@${new URL(peer.origin).host}`,
    ]);
    expect((await admin('GET', '/federation/followers', reader)).status).toBe(403);
    expect((await admin('GET', '/federation/followers', undefined)).status).toBe(401);
    expect((await admin('POST', '/federation/blocks', reader, { kind: 'domain', value: 'localhost' })).status).toBe(
      403,
    );
    for (const bad of [
      { kind: 'domain', value: 'not a domain' },
      { kind: 'actor', value: 'ftp://x' },
      { kind: 'server' },
      [],
    ]) {
      const answer = await admin('POST', '/federation/blocks', editor, bad);
      expect(answer.status, JSON.stringify(bad)).toBe(400);
    }

    const blocked = await admin('POST', '/federation/blocks', editor, { kind: 'domain', value: 'LocalHost' });
    expect(blocked.status).toBe(201);
    expect(((await (await admin('GET', '/federation/followers', editor)).json()) as Json).count).toBe(0);
    expect(((await (await admin('GET', '/federation/blocks', editor)).json()) as Json).blocks).toEqual([
      expect.objectContaining({ kind: 'domain', value: 'localhost' }),
    ]);
    const audit = await server.database.db
      .selectFrom('audit_log')
      .select(['actor_uid', 'action', 'target_id'])
      .where('action', 'like', 'federation.%')
      .execute();
    expect(audit).toEqual([{ actor_uid: editor.uid, action: 'federation.block', target_id: 'domain:localhost' }]);
    // Its activities are refused from now on.
    const refused = await fetch(
      await peer.signedPost('alice', `${server.url}/ap/inbox`, {
        '@context': 'https://www.w3.org/ns/activitystreams',
        id: `${peer.origin}/users/alice/follows/again`,
        type: 'Follow',
        actor: peer.actorUri('alice'),
        object: actor,
      }),
    );
    expect(refused.status).toBe(403);

    expect((await admin('DELETE', '/federation/blocks?kind=domain&value=localhost', editor)).status).toBe(204);
    expect((await admin('DELETE', '/federation/blocks?kind=domain&value=localhost', editor)).status).toBe(404);
  });
});

describe('FEDERATION=on: the inbox per remote server', () => {
  let server: TestApp;
  let peer: TestPeer;
  beforeAll(async () => {
    peer = await startTestPeer({ host: 'localhost', users: ['alice'] });
    const port = await freePort();
    server = await startTestApp(
      sqlite!,
      { FEDERATION: 'on', PUBLIC_URL: `http://127.0.0.1:${port}` },
      { port, transport: 'socket', federationAllowPrivateAddress: true, federationInboxPerServerPerMinute: 3 },
    );
  });
  afterAll(async () => {
    await server?.close();
    await peer?.close();
  });

  it('is rate-limited by the signing server: 429 with Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const request = await peer.signedPost('alice', `${server.url}/ap/inbox`, {
        '@context': 'https://www.w3.org/ns/activitystreams',
        id: `${peer.origin}/users/alice/likes/${i}`,
        type: 'Like',
        actor: peer.actorUri('alice'),
        object: `${server.url}/article/none`,
      });
      const answer = await fetch(request);
      statuses.push(answer.status);
      if (answer.status === 429) expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(statuses.slice(0, 3).every((status) => status === 202)).toBe(true);
    expect(statuses.slice(3)).toEqual([429, 429]);
  });
});
