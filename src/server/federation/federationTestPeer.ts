import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createFederation, generateCryptoKeyPair, MemoryKvStore, signRequest, type Federation } from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';
import {
  Activity,
  Announce,
  Create,
  Delete,
  Endpoints,
  Follow,
  Image,
  Like,
  Note,
  Person,
  PUBLIC_COLLECTION,
  Undo,
  Update,
  isActor,
  type Actor,
} from '@fedify/vocab';

/** An activity a peer's user (or its shared inbox) received. */
export interface Received {
  /** The inbox path it arrived at: `/users/NAME/inbox` or `/inbox` (the shared one). */
  path: string;
  type: string;
  id: string | null;
  objectId: string | null;
  json: Record<string, unknown>;
}

type KeyPair = Awaited<ReturnType<typeof generateCryptoKeyPair>>;

/**
 * A real ActivityPub server on loopback for tests (DESIGN.md §9.4: never the internet): a small
 * Fedify instance, like a Mastodon instance, whose users follow, like, boost and reply, and
 * which records every activity delivered to it. `host` is 'localhost' or '127.0.0.1', so two
 * peers are two servers (two domains, two shared inboxes).
 */
export async function startTestPeer(options: { host?: string; users?: readonly string[]; gone?: boolean } = {}) {
  const host = options.host ?? '127.0.0.1';
  const users = new Set(options.users ?? ['alice']);
  const keys = new Map<string, KeyPair[]>();
  const received: Received[] = [];
  let status: number | undefined = options.gone ? 410 : undefined;
  const federation: Federation<void> = createFederation<void>({ kv: new MemoryKvStore(), allowPrivateAddress: true });

  federation
    .setActorDispatcher('/users/{identifier}', async (ctx, identifier) => {
      if (!users.has(identifier)) return null;
      const pairs = await ctx.getActorKeyPairs(identifier);
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: identifier,
        name: `${identifier[0]!.toUpperCase()}${identifier.slice(1)} Peer`,
        url: new URL(`/@${identifier}`, ctx.origin),
        icon: new Image({ url: new URL(`/avatars/${identifier}.png`, ctx.origin) }),
        inbox: ctx.getInboxUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        publicKey: pairs[0]?.cryptographicKey ?? null,
        assertionMethods: pairs.map((pair) => pair.multikey),
      });
    })
    .setKeyPairsDispatcher(async (_ctx, identifier) => {
      if (!users.has(identifier)) return [];
      let pairs = keys.get(identifier);
      if (!pairs) {
        // 2048-bit RSA (Fedify makes 4096-bit keys, seconds each on a busy machine): a test peer's
        // keys only need to sign.
        const rsa = (await crypto.subtle.generateKey(
          {
            name: 'RSASSA-PKCS1-v1_5',
            modulusLength: 2048,
            publicExponent: new Uint8Array([1, 0, 1]),
            hash: 'SHA-256',
          },
          true,
          ['sign', 'verify'],
        )) as KeyPair;
        pairs = [rsa, await generateCryptoKeyPair('Ed25519')];
        keys.set(identifier, pairs);
      }
      return pairs;
    });

  const record = async (ctx: { recipient: string | null }, activity: Activity) => {
    received.push({
      path: ctx.recipient === null ? '/inbox' : `/users/${ctx.recipient}/inbox`,
      type: activity.constructor.name,
      id: activity.id?.href ?? null,
      objectId: activity.objectId?.href ?? null,
      json: (await activity.toJsonLd({ format: 'compact' })) as Record<string, unknown>,
    });
  };
  federation.setInboxListeners('/users/{identifier}/inbox', '/inbox').on(Activity, record);

  const server = http.createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const url = new URL(incoming.url ?? '/', origin);
    if (status !== undefined && incoming.method === 'POST') {
      outgoing.writeHead(status).end();
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
    const response = await federation.fetch(
      new Request(url, {
        method: incoming.method ?? 'GET',
        headers,
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      }),
      { contextData: undefined },
    );
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  const ctx = () => federation.createContext(new URL(origin));
  const actorUri = (user: string) => ctx().getActorUri(user);
  let sequence = 0;
  const newId = (user: string, kind: string) =>
    new URL(`/users/${user}/${kind}/${Date.now()}-${(sequence += 1)}`, origin);

  /** The Inkwell actor at `actorUrl` (looked up once per call: it is on loopback). */
  const target = async (actorUrl: string): Promise<Actor> => {
    const actor = await ctx().lookupObject(actorUrl);
    if (!actor || !isActor(actor)) throw new Error(`no actor at ${actorUrl}`);
    return actor;
  };
  const send = async (user: string, actorUrl: string, activity: Activity) => {
    await ctx().sendActivity({ identifier: user }, await target(actorUrl), activity);
    return activity;
  };
  const note = (user: string, id: URL, inReplyTo: string, content: string) =>
    new Note({
      id,
      attribution: actorUri(user),
      replyTarget: new URL(inReplyTo),
      content,
      to: PUBLIC_COLLECTION,
    });

  return {
    origin,
    host,
    received,
    actorUri: (user: string) => actorUri(user).href,
    /** From now on every POST is answered with `code` (410: the server says the account is gone). */
    answerWith(code: number | undefined) {
      status = code;
    },
    follow: (user: string, actorUrl: string) =>
      send(
        user,
        actorUrl,
        new Follow({ id: newId(user, 'follows'), actor: actorUri(user), object: new URL(actorUrl) }),
      ),
    unfollow: (user: string, actorUrl: string, follow: Activity) =>
      send(user, actorUrl, new Undo({ id: newId(user, 'undos'), actor: actorUri(user), object: follow })),
    like: (user: string, actorUrl: string, objectUrl: string) =>
      send(user, actorUrl, new Like({ id: newId(user, 'likes'), actor: actorUri(user), object: new URL(objectUrl) })),
    boost: (user: string, actorUrl: string, objectUrl: string) =>
      send(
        user,
        actorUrl,
        new Announce({
          id: newId(user, 'boosts'),
          actor: actorUri(user),
          object: new URL(objectUrl),
          to: PUBLIC_COLLECTION,
        }),
      ),
    undo: (user: string, actorUrl: string, activity: Activity) =>
      send(user, actorUrl, new Undo({ id: newId(user, 'undos'), actor: actorUri(user), object: activity })),
    /** A reply to `inReplyTo` (an article's URL); returns the Note's id. */
    async reply(user: string, actorUrl: string, inReplyTo: string, content: string): Promise<string> {
      const id = newId(user, 'statuses');
      await send(
        user,
        actorUrl,
        new Create({ id: newId(user, 'creates'), actor: actorUri(user), object: note(user, id, inReplyTo, content) }),
      );
      return id.href;
    },
    editReply: (user: string, actorUrl: string, noteId: string, inReplyTo: string, content: string) =>
      send(
        user,
        actorUrl,
        new Update({
          id: newId(user, 'updates'),
          actor: actorUri(user),
          object: note(user, new URL(noteId), inReplyTo, content),
        }),
      ),
    deleteReply: (user: string, actorUrl: string, noteId: string) =>
      send(user, actorUrl, new Delete({ id: newId(user, 'deletes'), actor: actorUri(user), object: new URL(noteId) })),
    /** The user's account deleted: its Delete of itself. */
    deleteAccount: (user: string, actorUrl: string) =>
      send(user, actorUrl, new Delete({ id: newId(user, 'deletes'), actor: actorUri(user), object: actorUri(user) })),
    /** Sends any activity as `user` (signed by `user`'s key): forgeries are built on it. */
    sendAs: (user: string, actorUrl: string, activity: Activity) => send(user, actorUrl, activity),
    newId,
    /**
     * A POST of `json` to `url` signed with `user`'s key as a server does (draft-cavage), made at
     * `signedAt` (default now): the raw material of forged and replayed requests.
     */
    async signedPost(user: string, url: string, json: unknown, signedAt?: Date): Promise<Request> {
      const [pair] = await ctx().getActorKeyPairs(user);
      const body = JSON.stringify(json);
      const request = new Request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/activity+json' },
        body,
      });
      return signRequest(request, keys.get(user)![0]!.privateKey, pair!.keyId, {
        spec: 'draft-cavage-http-signatures-12',
        ...(signedAt
          ? {
              currentTime: Temporal.Instant.fromEpochMilliseconds(
                signedAt.getTime(),
              ) as unknown as globalThis.Temporal.Instant,
            }
          : {}),
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type TestPeer = Awaited<ReturnType<typeof startTestPeer>>;

/** A free loopback port: PUBLIC_URL must name the port before the server starts. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Waits until `check` returns something truthy (deliveries and inbox work are queued). */
export async function eventually<T>(
  check: () => T | Promise<T>,
  what: string,
  timeoutMs = 15_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
