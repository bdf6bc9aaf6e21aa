import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { DatabaseSchema } from '../db/schema.ts';

export interface Follower {
  actorId: string;
  handle: string;
  domain: string;
  inbox: string;
  sharedInbox: string | null;
  followId: string;
  createdAt: number;
}

export interface Block {
  kind: 'domain' | 'actor';
  value: string;
  createdAt: number;
}

/** Followers, likes and reposts, and blocks (migration 0700). */
export function createFederationStore(database: Database, now: () => number) {
  const { db } = database;
  return {
    async addFollower(follower: Omit<Follower, 'createdAt'>): Promise<void> {
      const row = {
        actor_id: follower.actorId,
        handle: follower.handle,
        domain: follower.domain,
        inbox: follower.inbox,
        shared_inbox: follower.sharedInbox,
        follow_id: follower.followId,
        created_at: now(),
      };
      await db
        .insertInto('federation_followers')
        .values(row)
        .onConflict((conflict) =>
          conflict.column('actor_id').doUpdateSet({
            handle: row.handle,
            inbox: row.inbox,
            shared_inbox: row.shared_inbox,
            follow_id: row.follow_id,
          }),
        )
        .execute();
    },
    async removeFollower(actorId: string): Promise<void> {
      await db.deleteFrom('federation_followers').where('actor_id', '=', actorId).execute();
    },
    /** Followers delivered to at `inbox` (theirs or their server's shared one): a 410, or failing for 7 days. */
    async removeFollowersAt(inbox: string): Promise<number> {
      const result = await db
        .deleteFrom('federation_followers')
        .where((eb) => eb.or([eb('inbox', '=', inbox), eb('shared_inbox', '=', inbox)]))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async removeFollowers(actorIds: readonly string[]): Promise<number> {
      if (actorIds.length === 0) return 0;
      const result = await db.deleteFrom('federation_followers').where('actor_id', 'in', actorIds).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async removeDomain(trx: Kysely<DatabaseSchema>, domain: string): Promise<void> {
      await trx.deleteFrom('federation_followers').where('domain', '=', domain).execute();
      await trx.deleteFrom('federation_reactions').where('domain', '=', domain).execute();
    },
    /** A remote actor gone (its Delete) or blocked: its follow and its likes and reposts. */
    async removeActor(trx: Kysely<DatabaseSchema>, actorId: string): Promise<void> {
      await trx.deleteFrom('federation_followers').where('actor_id', '=', actorId).execute();
      await trx.deleteFrom('federation_reactions').where('actor_id', '=', actorId).execute();
    },
    /** Oldest first, after `after` (a follower's created_at and actor id). */
    async followers(limit: number, after?: { at: number; id: string }): Promise<Follower[]> {
      let query = db.selectFrom('federation_followers').selectAll();
      if (after) {
        query = query.where((eb) =>
          eb.or([
            eb('created_at', '>', after.at),
            eb.and([eb('created_at', '=', after.at), eb('actor_id', '>', after.id)]),
          ]),
        );
      }
      const rows = await query.orderBy('created_at').orderBy('actor_id').limit(limit).execute();
      return rows.map((row) => ({
        actorId: row.actor_id,
        handle: row.handle,
        domain: row.domain,
        inbox: row.inbox,
        sharedInbox: row.shared_inbox,
        followId: row.follow_id,
        createdAt: Number(row.created_at),
      }));
    },
    async countFollowers(): Promise<number> {
      const row = await db
        .selectFrom('federation_followers')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    async react(reaction: {
      activityId: string;
      articleId: string;
      actorId: string;
      domain: string;
      kind: 'like' | 'announce';
    }) {
      await db
        .insertInto('federation_reactions')
        .values({
          activity_id: reaction.activityId,
          article_id: reaction.articleId,
          actor_id: reaction.actorId,
          domain: reaction.domain,
          kind: reaction.kind,
          created_at: now(),
        })
        .onConflict((conflict) => conflict.doNothing())
        .execute();
    },
    /** An Undo of a Like or Announce: by its id, and only the actor's own. */
    async unreact(activityId: string, actorId: string): Promise<void> {
      await db
        .deleteFrom('federation_reactions')
        .where('activity_id', '=', activityId)
        .where('actor_id', '=', actorId)
        .execute();
    },
    async reactionCounts(articleId: string): Promise<{ likes: number; reposts: number }> {
      const rows = await db
        .selectFrom('federation_reactions')
        .select(['kind', (eb) => eb.fn.countAll<string | number>().as('n')])
        .where('article_id', '=', articleId)
        .groupBy('kind')
        .execute();
      const count = (kind: string) => Number(rows.find((row) => row.kind === kind)?.n ?? 0);
      return { likes: count('like'), reposts: count('announce') };
    },
    async isBlocked(actorId: string, domain: string): Promise<boolean> {
      const row = await db
        .selectFrom('federation_blocks')
        .select('kind')
        .where((eb) =>
          eb.or([
            eb.and([eb('kind', '=', 'domain'), eb('value', '=', domain)]),
            eb.and([eb('kind', '=', 'actor'), eb('value', '=', actorId)]),
          ]),
        )
        .executeTakeFirst();
      return row !== undefined;
    },
    async isDomainBlocked(domain: string): Promise<boolean> {
      const row = await db
        .selectFrom('federation_blocks')
        .select('kind')
        .where('kind', '=', 'domain')
        .where('value', '=', domain)
        .executeTakeFirst();
      return row !== undefined;
    },
    async blocks(): Promise<Block[]> {
      const rows = await db
        .selectFrom('federation_blocks')
        .selectAll()
        .orderBy('created_at')
        .orderBy('value')
        .execute();
      return rows.map((row) => ({ kind: row.kind, value: row.value, createdAt: Number(row.created_at) }));
    },
    async addBlock(trx: Kysely<DatabaseSchema>, block: { kind: 'domain' | 'actor'; value: string }): Promise<boolean> {
      const result = await trx
        .insertInto('federation_blocks')
        .values({ ...block, created_at: now() })
        .onConflict((conflict) => conflict.doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async removeBlock(
      trx: Kysely<DatabaseSchema>,
      block: { kind: 'domain' | 'actor'; value: string },
    ): Promise<boolean> {
      const result = await trx
        .deleteFrom('federation_blocks')
        .where('kind', '=', block.kind)
        .where('value', '=', block.value)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type FederationStore = ReturnType<typeof createFederationStore>;
