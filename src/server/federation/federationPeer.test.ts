import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  articlesApi,
  identityCall,
  sampleArticle,
  signUp,
  type TestUser,
} from '../../../test/support/articlesTestClient.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { storageDatabases } from '../../../test/support/testDatabases.ts';
import { eventually, freePort, startTestPeer, type TestPeer } from './federationTestPeer.ts';

// DESIGN.md §9.4 with real peers on loopback: two servers (localhost and 127.0.0.1), each a
// Fedify instance whose users follow, like, boost, reply and receive deliveries.
describe.each(storageDatabases())('following from the fediverse, on $dialect', (dialectCase) => {
  let server: TestApp;
  let peerA: TestPeer;
  let peerB: TestPeer;
  let author: TestUser;
  let actor: string;
  const api = () => articlesApi(server.url);

  beforeAll(async () => {
    peerA = await startTestPeer({ host: 'localhost', users: ['alice', 'bob'] });
    peerB = await startTestPeer({ host: '127.0.0.1', users: ['carol'] });
    const port = await freePort();
    server = await startTestApp(
      dialectCase,
      { FEDERATION: 'on', PUBLIC_URL: `http://127.0.0.1:${port}`, SITE_TITLE: 'Peer Test Blog' },
      { port, transport: 'socket', federationAllowPrivateAddress: true },
    );
    actor = `${server.url}/ap/actor/blog`;
    author = await signUp(server.url, 'Fedi Author');
  });
  afterAll(async () => {
    await server?.close();
    await peerA?.close();
    await peerB?.close();
  });

  const followers = async () =>
    server.database.db.selectFrom('federation_followers').select('actor_id').orderBy('actor_id').execute();
  const commentsOf = async (id: string) => (await api().request('GET', `/articles/${id}/comments`)).body;
  const deliveriesOf = (peer: TestPeer, type: string, objectId: string) =>
    peer.received.filter((one) => one.type === type && one.objectId === objectId);

  it('accepts follows and delivers each publication, edit and unpublication once per shared inbox', async () => {
    await peerA.follow('alice', actor);
    await peerA.follow('bob', actor);
    await peerB.follow('carol', actor);
    await eventually(() => peerA.received.filter((one) => one.type === 'Accept').length === 2, 'two Accepts');
    await eventually(() => peerB.received.some((one) => one.type === 'Accept'), "carol's Accept");
    expect((await followers()).map((row) => row.actor_id)).toEqual(
      [peerA.actorUri('alice'), peerA.actorUri('bob'), peerB.actorUri('carol')].sort(),
    );

    const made = await api().create(author.idToken, { ...sampleArticle('Hello, fediverse'), tags: ['Travel'] });
    expect(made.status, made.text).toBe(201);
    const url = `${server.url}/article/${made.body.id}`;
    // One Create at peer A's shared inbox for alice and bob together; one at peer B.
    await eventually(() => deliveriesOf(peerA, 'Create', url).length === 1, 'the Create at peer A');
    await eventually(() => deliveriesOf(peerB, 'Create', url).length === 1, 'the Create at peer B');
    const [create] = deliveriesOf(peerA, 'Create', url);
    expect(create!.path).toBe('/inbox');
    // What a Mastodon user sees: the Article with its title, link, summary and hashtag.
    expect(create!.json.object).toMatchObject({
      type: 'Article',
      id: url,
      name: 'Hello, fediverse',
      url,
      attributedTo: actor,
      to: 'as:Public',
      cc: `${actor}/followers`,
      tag: { type: 'Hashtag', name: '#Travel' },
    });

    const edited = await api().update(author.idToken, made.body.id, { ...sampleArticle('Hello again, fediverse') });
    expect(edited.status, edited.text).toBe(200);
    await eventually(() => deliveriesOf(peerA, 'Update', url).length === 1, 'the Update');
    expect(deliveriesOf(peerA, 'Update', url)[0]!.json.object).toMatchObject({ name: 'Hello again, fediverse' });

    const unpublished = await api().update(author.idToken, made.body.id, {
      ...sampleArticle('Hello again'),
      status: 'draft',
    });
    expect(unpublished.status, unpublished.text).toBe(200);
    await eventually(() => deliveriesOf(peerB, 'Delete', url).length === 1, 'the Delete at peer B');
    // The two servers' deliveries are not ordered: peer A's may come after peer B's.
    await eventually(() => deliveriesOf(peerA, 'Delete', url).length >= 1, 'the Delete at peer A');
    expect(deliveriesOf(peerA, 'Delete', url)).toHaveLength(1);
    expect(deliveriesOf(peerA, 'Delete', url)[0]!.json.object).toMatchObject({ type: 'Tombstone', id: url });
    expect(deliveriesOf(peerA, 'Create', url)).toHaveLength(1);
  });

  it('tells followers when an account is deleted with its articles', async () => {
    await peerA.follow('alice', actor);
    await eventually(async () => (await followers()).some((row) => row.actor_id === peerA.actorUri('alice')), 'alice');
    const leaving = await signUp(server.url, 'Leaving Author');
    const made = await api().create(leaving.idToken, sampleArticle('Here today'));
    const url = `${server.url}/article/${made.body.id}`;
    await eventually(() => deliveriesOf(peerA, 'Create', url).length === 1, 'the Create');
    const deleted = await identityCall(server.url, 'accounts:delete', { idToken: leaving.idToken });
    expect(deleted.status, deleted.text).toBe(200);
    await eventually(() => deliveriesOf(peerA, 'Delete', url).length === 1, 'the Delete');
    expect(deliveriesOf(peerA, 'Delete', url)[0]!.json.object).toMatchObject({ type: 'Tombstone', id: url });
  });

  it('counts likes and boosts, takes replies as comments (sanitised), edits and deletes them', async () => {
    const made = await api().create(author.idToken, sampleArticle('Answered from afar'));
    const id = made.body.id as string;
    const url = `${server.url}/article/${id}`;
    const like = await peerA.like('alice', actor, url);
    await peerA.boost('bob', actor, url);
    await peerA.like('alice', actor, url); // the same person again: still one like
    await eventually(async () => (await commentsOf(id)).fediverse?.reposts === 1, 'the boost counted');
    await eventually(async () => (await commentsOf(id)).fediverse?.likes === 1, 'the like counted');
    await peerA.undo('alice', actor, like);
    await eventually(async () => (await commentsOf(id)).fediverse?.likes === 0, 'the like undone');

    const note = await peerA.reply(
      'alice',
      actor,
      url,
      '<p><span class="h-card"><a href="x">@blog</a></span> Lovely <b>piece</b><script>alert(1)</script></p><p><a href="javascript:alert(1)">click</a></p>',
    );
    const page = await eventually(async () => {
      const answer = await commentsOf(id);
      return answer.comments?.length === 1 ? answer : undefined;
    }, 'the reply as a comment');
    const [comment] = page.comments;
    expect(comment.author).toMatchObject({
      uid: null,
      displayName: 'Alice Peer',
      url: `${peerA.origin}/@alice`,
      photoUrl: `${peerA.origin}/avatars/alice.png`,
    });
    expect(comment.bodyHtml).toBe('<p>@blog Lovely piece</p>\n<p>click</p>\n');

    await peerA.editReply('alice', actor, note, url, '<p>Lovely piece, edited</p>');
    await eventually(
      async () => (await commentsOf(id)).comments[0]?.bodyHtml === '<p>Lovely piece, edited</p>\n',
      'the edit',
    );
    // Bob cannot delete Alice's reply: only its author's Delete counts.
    await peerA.deleteReply('bob', actor, note);
    await peerA.deleteReply('alice', actor, note);
    await eventually(async () => (await commentsOf(id)).comments.length === 0, 'the reply deleted');
  });

  it('refuses replies to drafts and activities about another server’s objects', async () => {
    const draft = await api().create(author.idToken, { ...sampleArticle('Not yet'), status: 'draft' });
    const url = `${server.url}/article/${draft.body.id}`;
    await peerB.reply('carol', actor, url, '<p>First!</p>');
    await peerB.like('carol', actor, `${peerA.origin}/article/${draft.body.id}`);
    const published = await api().create(author.idToken, sampleArticle('Published now'));
    const marker = await peerB.reply('carol', actor, `${server.url}/article/${published.body.id}`, '<p>Marker</p>');
    // Activities are handled in order of arrival: once the marker is in, the others were handled.
    await eventually(async () => (await commentsOf(published.body.id)).comments.length === 1, 'the marker');
    expect(marker).toContain(peerB.origin);
    const rows = await server.database.db
      .selectFrom('comments')
      .select('article_id')
      .where('article_id', '=', draft.body.id)
      .execute();
    expect(rows).toEqual([]);
    const reactions = await server.database.db
      .selectFrom('federation_reactions')
      .selectAll()
      .where('article_id', '=', draft.body.id)
      .execute();
    expect(reactions).toEqual([]);
  });

  it('forgets an actor that deletes itself: its follow and replies', async () => {
    const made = await api().create(author.idToken, sampleArticle('Carol was here'));
    await peerB.reply('carol', actor, `${server.url}/article/${made.body.id}`, '<p>Bye</p>');
    await eventually(async () => (await commentsOf(made.body.id)).comments.length === 1, "carol's reply");
    await peerB.deleteAccount('carol', actor);
    await eventually(async () => (await commentsOf(made.body.id)).comments.length === 0, "carol's reply gone");
    expect((await followers()).map((row) => row.actor_id)).not.toContain(peerB.actorUri('carol'));
  });
});
