import type { FastifyPluginAsync } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/database.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import { requires } from '../http/apiScope.ts';
import { callerOf } from '../http/callerAuth.ts';
import { sendProblem } from '../http/problem.ts';
import type { AuditEvent } from '../../shared/moderation.ts';
import type { FederationStore } from './federationStore.ts';

/** What federation puts in the audit log: a block made or lifted (the one audit event shape, narrowed). */
export type FederationEvent = AuditEvent<'federation.block' | 'federation.unblock', 'fediverse'>;

const PAGE = 50;
const DOMAIN = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?)*$/;

/** A block as typed by staff, normalised; undefined when it is not one. */
export function parseBlock(body: unknown): { kind: 'domain' | 'actor'; value: string } | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { kind, value } = body as { kind?: unknown; value?: unknown };
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (kind === 'domain') {
    const domain = trimmed.toLowerCase().replace(/^@/, '');
    return DOMAIN.test(domain) ? { kind, value: domain } : undefined;
  }
  if (kind === 'actor') {
    const url = trimmed.length <= 2000 ? URL.parse(trimmed) : null;
    return url && (url.protocol === 'https:' || url.protocol === 'http:') ? { kind, value: url.href } : undefined;
  }
  return undefined;
}

/**
 * Staff's Fediverse (DESIGN.md §9.4), for editors, in the `/api` scope: the followers, and
 * blocks of domains and actors. A block removes what is there from them (follows, likes, reposts, replies) and
 * refuses what comes; making or lifting one is an audit row.
 */
export function federationAdminRoutes(deps: {
  database: Database;
  store: FederationStore;
  handle: string;
  recordEvent(trx: Kysely<DatabaseSchema>, event: FederationEvent): Promise<void>;
  comments: {
    removeByRemoteAuthor(trx: Transaction<DatabaseSchema>, actorId: string): Promise<void>;
    removeByRemoteDomain(trx: Transaction<DatabaseSchema>, domain: string): Promise<void>;
  };
}): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: { cursor?: string } }>(
      '/federation/followers',
      requires('fediverse:manage', 'Only editors can see the followers.'),
      async (request, reply) => {
        const after = decodeCursor(request.query.cursor);
        if (request.query.cursor !== undefined && !after) return sendProblem(reply, 400, 'The cursor is not valid.');
        const page = await deps.store.followers(PAGE + 1, after);
        const shown = page.slice(0, PAGE);
        const last = shown.at(-1);
        return reply.header('cache-control', 'no-store').send({
          handle: deps.handle,
          count: await deps.store.countFollowers(),
          followers: shown.map((follower) => ({
            actorId: follower.actorId,
            handle: follower.handle,
            domain: follower.domain,
            createdAt: new Date(follower.createdAt).toISOString(),
          })),
          nextCursor: page.length > PAGE && last ? encodeCursor(last.createdAt, last.actorId) : null,
        });
      },
    );

    app.get(
      '/federation/blocks',
      requires('fediverse:manage', 'Only editors can see the blocks.'),
      async (_request, reply) => {
        const blocks = await deps.store.blocks();
        return reply.header('cache-control', 'no-store').send({
          blocks: blocks.map((block) => ({ ...block, createdAt: new Date(block.createdAt).toISOString() })),
        });
      },
    );

    app.post('/federation/blocks', requires('fediverse:manage', 'Only editors can block.'), async (request, reply) => {
      const caller = callerOf(request);
      const block = parseBlock(request.body);
      if (!block) {
        return sendProblem(reply, 400, 'Enter a domain (example.social) or an actor address (https://…).', [
          { field: 'value', message: 'Enter a domain (example.social) or an actor address (https://…).' },
        ]);
      }
      await deps.database.db.transaction().execute(async (trx) => {
        if (!(await deps.store.addBlock(trx, block))) return;
        if (block.kind === 'domain') {
          await deps.store.removeDomain(trx, block.value);
          await deps.comments.removeByRemoteDomain(trx, block.value);
        } else {
          await deps.store.removeActor(trx, block.value);
          await deps.comments.removeByRemoteAuthor(trx, block.value);
        }
        await deps.recordEvent(trx, {
          actorUid: caller.uid,
          action: 'federation.block',
          targetType: 'fediverse',
          targetId: `${block.kind}:${block.value}`,
          detail: { kind: block.kind, value: block.value },
        });
      });
      return reply.code(201).header('cache-control', 'no-store').send({ block });
    });

    app.delete<{ Querystring: { kind?: string; value?: string } }>(
      '/federation/blocks',
      requires('fediverse:manage', 'Only editors can lift a block.'),
      async (request, reply) => {
        const caller = callerOf(request);
        const block = parseBlock(request.query);
        if (!block) return sendProblem(reply, 400, 'Name the block with kind (domain or actor) and value.');
        const removed = await deps.database.db.transaction().execute(async (trx) => {
          if (!(await deps.store.removeBlock(trx, block))) return false;
          await deps.recordEvent(trx, {
            actorUid: caller.uid,
            action: 'federation.unblock',
            targetType: 'fediverse',
            targetId: `${block.kind}:${block.value}`,
            detail: { kind: block.kind, value: block.value },
          });
          return true;
        });
        if (!removed) return sendProblem(reply, 404, 'There is no such block.');
        return reply.code(204).send();
      },
    );
  };
}

function encodeCursor(at: number, id: string): string {
  return Buffer.from(JSON.stringify([at, id])).toString('base64url');
}

function decodeCursor(cursor: string | undefined): { at: number; id: string } | undefined {
  if (cursor === undefined || cursor.length > 4000) return undefined;
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && Number.isSafeInteger(value[0]) && typeof value[1] === 'string') {
      return { at: value[0] as number, id: value[1] };
    }
  } catch {
    // not one of ours
  }
  return undefined;
}
