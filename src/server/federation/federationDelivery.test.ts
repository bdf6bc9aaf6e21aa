import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { articlesApi, sampleArticle, signUp } from '../../../test/support/articlesTestClient.ts';
import { startTestApp } from '../../../test/support/testApp.ts';
import {
  postgresDatabase,
  storageDatabases,
  type DialectCase,
  type TestDatabase,
} from '../../../test/support/testDatabases.ts';
import { eventually, freePort, startTestPeer, type TestPeer } from './federationTestPeer.ts';

const fediverseApp = async (
  dialectCase: DialectCase,
  publicPort: number,
  options: { port?: number; database?: TestDatabase } = {},
) =>
  startTestApp(
    dialectCase,
    { FEDERATION: 'on', PUBLIC_URL: `http://127.0.0.1:${publicPort}` },
    {
      port: options.port ?? publicPort,
      transport: 'socket',
      federationAllowPrivateAddress: true,
      ...(options.database ? { database: options.database } : {}),
    },
  );

// DESIGN.md §9.4: dead followers are dropped (410, or failing for 7 days), on both engines.
describe.each(storageDatabases())('dead followers on $dialect', (dialectCase) => {
  const closing: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const one of closing.splice(0).reverse()) await one.close();
  });

  it('drops a follower whose server answers 410 and one whose deliveries fail for 7 days', async () => {
    const gone = await startTestPeer({ host: 'localhost', users: ['ghost'] });
    const kept = await startTestPeer({ host: '127.0.0.1', users: ['keeper'] });
    closing.push(gone, kept);
    const port = await freePort();
    const server = await fediverseApp(dialectCase, port);
    closing.push(server);
    const actor = `${server.url}/ap/actor/blog`;
    await gone.follow('ghost', actor);
    await kept.follow('keeper', actor);
    const followers = () => server.database.db.selectFrom('federation_followers').select('actor_id').execute();
    await eventually(async () => (await followers()).length === 2, 'two followers');

    // A hundred more on the gone server, older than the keeper: a delivery walks past the
    // followers collection's first page (100) to reach the keeper.
    await server.database.db
      .insertInto('federation_followers')
      .values(
        Array.from({ length: 100 }, (_, i) => ({
          actor_id: `${gone.origin}/users/extra${i}`,
          handle: `@extra${i}@${gone.host}`,
          domain: gone.host,
          inbox: `${gone.origin}/users/extra${i}/inbox`,
          shared_inbox: `${gone.origin}/inbox`,
          follow_id: `${gone.origin}/users/extra${i}#follow`,
          created_at: i,
        })),
      )
      .execute();
    gone.answerWith(410);
    const author = await signUp(server.url, 'Author');
    const made = await articlesApi(server.url).create(author.idToken, sampleArticle('Anyone there?'));
    const url = `${server.url}/article/${made.body.id}`;
    await eventually(() => kept.received.some((one) => one.type === 'Create' && one.objectId === url), 'the Create');
    await eventually(async () => (await followers()).length === 1, 'the 410 follower dropped');
    expect((await followers()).map((row) => row.actor_id)).toEqual([kept.actorUri('keeper')]);

    // A delivery to the keeper's server still being retried 7 days after it started.
    const started = new Date(Date.now() - 7 * 24 * 60 * 60 * 1000 - 60_000).toISOString();
    await server.database.db
      .insertInto('federation_queue')
      .values({
        id: randomUUID(),
        message: JSON.stringify({
          type: 'outbox',
          id: randomUUID(),
          baseUrl: server.url,
          keys: [],
          activity: {},
          activityType: 'https://www.w3.org/ns/activitystreams#Create',
          inbox: `${kept.origin}/inbox`,
          sharedInbox: true,
          actorIds: [kept.actorUri('keeper')],
          started,
          attempt: 30,
          headers: {},
          traceContext: {},
        }),
        run_at: Date.now(),
        claims: 0,
        created_at: Date.now(),
      })
      .execute();
    await eventually(async () => (await followers()).length === 0, 'the follower failing for 7 days dropped');
  });
});

const postgres = postgresDatabase();

// Two Inkwell servers on one PostgreSQL (behind one public address) share the delivery queue and
// the keys: each delivery is made once, signed with the same key, whichever took it.
describe.runIf(postgres)('two servers on one PostgreSQL', () => {
  const closing: { close(): Promise<void> }[] = [];
  let testDatabase: TestDatabase | undefined;
  afterAll(async () => {
    for (const one of closing.splice(0).reverse()) await one.close();
    await testDatabase?.dispose();
  });

  it('deliver each publication once per shared inbox, signed with the same keys', async () => {
    testDatabase = await postgres!.create();
    const peers = [
      await startTestPeer({ host: 'localhost', users: ['a1', 'a2', 'a3'] }),
      await startTestPeer({ host: '127.0.0.1', users: ['b1', 'b2'] }),
    ];
    closing.push(...peers);
    const publicPort = await freePort();
    const first = await fediverseApp(postgres!, publicPort, { database: testDatabase });
    const second = await fediverseApp(postgres!, publicPort, { port: await freePort(), database: testDatabase });
    closing.push(first, second);
    const actor = `${first.url}/ap/actor/blog`;
    for (const [peer, users] of [
      [peers[0]!, ['a1', 'a2', 'a3']],
      [peers[1]!, ['b1', 'b2']],
    ] as const) {
      for (const user of users) await peer.follow(user, actor);
    }
    await eventually(
      async () => (await first.database.db.selectFrom('federation_followers').selectAll().execute()).length === 5,
      'five followers',
    );
    // The second server publishes; its key is the first's (the actor both serve).
    const author = await signUp(second.url, 'Shared Author');
    const urls: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const made = await articlesApi(second.url).create(author.idToken, sampleArticle(`Shared ${i}`));
      urls.push(`${first.url}/article/${made.body.id}`);
    }
    const creates = (peer: TestPeer) => peer.received.filter((one) => one.type === 'Create').map((one) => one.objectId);
    await eventually(() => peers.every((peer) => creates(peer).length >= 4), 'every Create at both peers');
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const peer of peers) expect(creates(peer).sort()).toEqual([...urls].sort());
    const firstKey = (
      (await (await fetch(actor, { headers: { accept: 'application/activity+json' } })).json()) as {
        publicKey: { publicKeyPem: string };
      }
    ).publicKey;
    const secondKey = (
      (await (
        await fetch(`${second.url}/ap/actor/blog`, { headers: { accept: 'application/activity+json' } })
      ).json()) as { publicKey: { publicKeyPem: string } }
    ).publicKey;
    expect(secondKey.publicKeyPem).toBe(firstKey.publicKeyPem);
  });
});
