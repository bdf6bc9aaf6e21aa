import type { AuditEvent } from '../../shared/moderation.ts';
import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import {
  COMMENT_BODY_MAX_LENGTH,
  COMMENTS_PAGE_SIZE,
  type Comment,
  type CommentMode,
  type CommentNotificationSettings,
  type CommentPage,
} from '../../shared/comments.ts';
import type { Database } from '../db/database.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import type { Caller } from '../http/callerAuth.ts';
import { toJsonResource, type JsonResource } from '../http/cachedResource.ts';
import { decodeKeysetCursor, encodeKeysetCursor } from '../http/keysetCursor.ts';
import type { MailMessage } from '../mail/mailer.ts';
import type { RateLimiter, RateLimitRule } from '../rateLimit/rateLimiter.ts';
import { can } from '../../shared/roles.ts';
import { renderCommentMarkdown } from './commentMarkdown.ts';
import { commentMail, NOTIFICATION_LISTS } from './commentMails.ts';
import { mayModerate, maySeeArticle, viewOf, type CommentedArticle } from './commentRules.ts';
import { createCommentsStore, type CommentView, type CommentWithAuthor } from './commentsStore.ts';
import type { CommentRow } from './commentsTables.ts';
import { paths } from '../../shared/routes.ts';
import { keysetPage } from '../http/keysetPage.ts';

/** What the comments feature puts in the audit log. */
export type CommentEvent = AuditEvent<
  'comment.hide' | 'comment.restore' | 'comment.approve' | 'comment.delete',
  'comment'
>;
/** Structurally the audit feature's RecordAudit, passed in by services.ts. */
export type CommentEventRecorder = (trx: Kysely<DatabaseSchema>, event: CommentEvent) => Promise<void>;

/** The unsubscribe feature as comments use it (services.ts passes it in). */
export interface NotificationLists {
  link(list: string, recipient: string): Promise<{ url: string; headers: Record<string, string> }>;
  wants(list: string, recipient: string): Promise<boolean>;
  optedOut(recipient: string, lists: readonly string[]): Promise<Set<string>>;
  setWants(list: string, recipient: string, wants: boolean): Promise<void>;
}

export interface CommentsDeps {
  database: Database;
  rateLimiter: RateLimiter;
  clock?: (() => number) | undefined;
  mode: CommentMode;
  commentsPerUser: number;
  site: { title: string; publicUrl: string };
  /** The article whatever its status (through the articles' read cache); undefined when there is none. */
  findArticle(id: string): Promise<CommentedArticle | undefined>;
  /** Whether the account's address is verified. */
  isVerified(uid: string): Promise<boolean>;
  /** A stored picture URL as served (uploads are stored without the origin, decision 0300). */
  servedPhotoUrl(url: string): string;
  recordEvent: CommentEventRecorder;
  /** Mails an account (its address is identity's business); rejects when it could not be sent. */
  mailAccount(uid: string, mail: Omit<MailMessage, 'to'>): Promise<void>;
  lists: NotificationLists;
  /** Likes and reposts from the fediverse, shown with the comments; none while FEDERATION=off. */
  reactions?: ((articleId: string) => Promise<{ likes: number; reposts: number } | undefined>) | undefined;
  /** A public answer kept in the read cache until the database changes (the articles' cache). */
  cached(key: string, build: () => Promise<JsonResource>): Promise<JsonResource>;
}

const WINDOW_MS = 10 * 60 * 1000;
const ID_SHAPE = /^[A-Za-z0-9_-]{16}$/;
export const isCommentId = (id: string) => ID_SHAPE.test(id);
const newCommentId = () => randomBytes(12).toString('base64url');
const iso = (ms: number) => new Date(ms).toISOString();

export type CreateOutcome =
  | { ok: true; comment: Comment }
  | {
      ok: false;
      reason:
        | 'article_not_found'
        | 'article_not_published'
        | 'parent_not_found'
        | 'parent_elsewhere'
        | 'unverified'
        | 'rate_limited';
      retryAfterSeconds?: number;
    };

export type ChangeOutcome =
  { ok: true; comment: Comment } | { ok: false; reason: 'not_found' | 'forbidden' | 'conflict' };

/** A comment found with its article, as `caller` may see it. */
interface Found {
  row: CommentRow;
  article: CommentedArticle;
}

/**
 * The part of a first page the article page's HTML carries (decision 0600): whole threads, oldest
 * first, while they hold at most SERVED_COMMENTS_MAX comments (the first thread always, its replies
 * cut to fit); nextCursor then points after the last thread kept. The comments' code reads the
 * API's whole page when they come near the screen. Keeps a page with hundreds of comments within
 * the budget of DESIGN.md §9.2 (HTML <= 2x the same page without comments).
 */
export const SERVED_COMMENTS_MAX = 15;
export function servedPart(full: CommentPage): CommentPage {
  const kept: Comment[] = [];
  let shown = 0;
  for (const thread of full.comments) {
    const size = 1 + thread.replies.length;
    if (kept.length > 0 && shown + size > SERVED_COMMENTS_MAX) break;
    const replies = thread.replies.slice(0, Math.max(0, SERVED_COMMENTS_MAX - 1));
    kept.push(replies.length === thread.replies.length ? thread : { ...thread, replies });
    shown += 1 + replies.length;
  }
  if (kept.length === full.comments.length && kept.every((thread, i) => thread === full.comments[i])) return full;
  const last = kept.at(-1)!;
  return {
    comments: kept,
    nextCursor: encodeKeysetCursor({ at: Date.parse(last.createdAt), id: last.id }),
    count: full.count,
    ...(full.fediverse ? { fediverse: full.fediverse } : {}),
  };
}

export function createComments(deps: CommentsDeps) {
  const { db } = deps.database;
  const now = deps.clock ?? Date.now;
  const store = createCommentsStore(db);
  const rule: RateLimitRule = { name: 'comments:create', limit: deps.commentsPerUser, windowMs: WINDOW_MS };

  const toJson = (row: CommentWithAuthor, replies: Comment[] = [], viewerUid: string | null = null): Comment => {
    const deleted = row.status === 'deleted';
    const local = row.author_uid !== null;
    return {
      id: row.id,
      articleId: row.article_id,
      parentId: row.parent_id,
      author: deleted
        ? null
        : local
          ? {
              uid: row.author_uid,
              displayName: row.authorName,
              photoUrl: row.authorPhotoUrl === null ? null : deps.servedPhotoUrl(row.authorPhotoUrl),
              slug: row.authorSlug,
            }
          : {
              uid: null,
              displayName: row.remote_author_name,
              photoUrl: row.remote_author_photo_url,
              slug: null,
              ...(row.remote_author_url ? { url: row.remote_author_url } : {}),
            },
      bodyHtml: deleted ? '' : row.body_html,
      ...(!deleted && viewerUid !== null && row.author_uid === viewerUid ? { body: row.body } : {}),
      createdAt: iso(row.created_at),
      editedAt: row.edited_at === null || deleted ? null : iso(row.edited_at),
      status: row.status,
      ...(row.status === 'hidden' && row.hidden_reason !== null ? { hiddenReason: row.hidden_reason } : {}),
      replies,
    };
  };

  const page = async (
    article: CommentedArticle,
    view: CommentView,
    cursor: string | undefined,
    viewerUid: string | null = null,
  ): Promise<CommentPage> => {
    const after = cursor === undefined ? undefined : decodeKeysetCursor(cursor, 16);
    const { rows: top, nextCursor } = await keysetPage(
      COMMENTS_PAGE_SIZE,
      (rows) => store.topLevel(article.id, view, rows, after),
      (last) => encodeKeysetCursor({ at: last.created_at, id: last.id }),
    );
    const replies = await store.replies(
      top.map((row) => row.id),
      view,
    );
    const byParent = new Map<string, Comment[]>();
    for (const reply of replies) {
      const list = byParent.get(reply.parent_id!) ?? [];
      list.push(toJson(reply, [], viewerUid));
      byParent.set(reply.parent_id!, list);
    }
    return {
      comments: top.map((row) => toJson(row, byParent.get(row.id) ?? [], viewerUid)),
      nextCursor,
      count: await store.countPublished(article.id),
      ...(await fediverseOf(article.id)),
    };
  };
  const fediverseOf = async (articleId: string) => {
    const fediverse = deps.reactions ? await deps.reactions(articleId) : undefined;
    return fediverse ? { fediverse } : {};
  };

  /** The comment and its article when `caller` may see them; deleted ones are not found. */
  const findVisible = async (caller: Caller | null, id: string): Promise<Found | undefined> => {
    if (!isCommentId(id)) return undefined;
    const row = await store.find(id);
    if (!row || row.status === 'deleted') return undefined;
    const article = await deps.findArticle(row.article_id);
    if (!article || !maySeeArticle(caller, article)) return undefined;
    const view = viewOf(caller, article);
    const seen =
      row.status === 'published' ||
      view.kind === 'staff' ||
      (view.kind === 'own' && row.status === 'pending' && row.author_uid === view.uid);
    return seen ? { row, article } : undefined;
  };

  const fresh = async (id: string, viewerUid: string): Promise<Comment | undefined> => {
    const row = await store.findWithAuthor(id);
    return row && toJson(row, [], viewerUid);
  };

  const mailOnce = async (
    uid: string,
    list: string,
    mail: (unsubscribeUrl: string) => Omit<MailMessage, 'to' | 'headers'>,
  ) => {
    if (!(await deps.lists.wants(list, uid))) return;
    const link = await deps.lists.link(list, uid);
    await deps.mailAccount(uid, { ...mail(link.url), headers: link.headers });
  };

  /**
   * The mails a comment that has just been published brings (DESIGN.md §9.2): the article's
   * author, and the writer of the comment replied to; never the comment's own writer, and one
   * mail at most per person. Sent in the background: a failure is logged by the mailer.
   */
  const notify = (row: CommentRow, article: CommentedArticle, parent: CommentRow | undefined) => {
    const writer = row.author_uid;
    const task = async () => {
      const name = row.author_uid ? ((await store.findWithAuthor(row.id))?.authorName ?? 'Someone') : 'Someone';
      const link = `${deps.site.publicUrl}${paths.article(article.id)}#comment-${encodeURIComponent(row.id)}`;
      const replyTo = parent?.author_uid ?? null;
      if (replyTo !== null && replyTo !== writer) {
        await mailOnce(replyTo, NOTIFICATION_LISTS.reply, (unsubscribeUrl) =>
          commentMail({
            kind: 'reply',
            site: deps.site,
            articleTitle: article.title,
            who: name,
            body: row.body,
            link,
            unsubscribeUrl,
          }),
        );
      }
      if (article.authorId !== writer && article.authorId !== replyTo) {
        await mailOnce(article.authorId, NOTIFICATION_LISTS.onArticle, (unsubscribeUrl) =>
          commentMail({
            kind: 'comment',
            site: deps.site,
            articleTitle: article.title,
            who: name,
            body: row.body,
            link,
            unsubscribeUrl,
          }),
        );
      }
    };
    task().catch(() => undefined);
  };

  const moderate = async (
    caller: Caller,
    id: string,
    action: 'approve' | 'hide' | 'restore',
    reason?: string,
  ): Promise<ChangeOutcome> => {
    const found = await findVisible(caller, id);
    if (!found) return { ok: false, reason: 'not_found' };
    if (!mayModerate(caller, found.article)) return { ok: false, reason: 'forbidden' };
    const { row } = found;
    const from =
      action === 'approve'
        ? (['pending'] as const)
        : action === 'restore'
          ? (['hidden'] as const)
          : (['published', 'pending', 'hidden'] as const);
    const change =
      action === 'hide'
        ? { status: 'hidden' as const, hidden_reason: reason ?? null }
        : { status: 'published' as const, hidden_reason: null };
    const done = await db.transaction().execute(async (trx) => {
      if (!(await store.update(row.id, change, trx, from))) return false;
      await deps.recordEvent(trx, {
        actorUid: caller.uid,
        action: `comment.${action}`,
        targetType: 'comment',
        targetId: row.id,
        detail: { articleId: row.article_id, ...(reason !== undefined ? { reason } : {}) },
      });
      return true;
    });
    if (!done) return { ok: false, reason: 'conflict' };
    if (action === 'approve') {
      const parent = row.parent_id === null ? undefined : await store.find(row.parent_id);
      notify(row, found.article, parent);
    }
    const comment = await fresh(row.id, caller.uid);
    return comment ? { ok: true, comment } : { ok: false, reason: 'not_found' };
  };

  return {
    mode: deps.mode,
    isCommentId,
    /** One page of the article's comments as `caller` sees them; undefined when they may not see the article. */
    async list(caller: Caller | null, articleId: string, cursor: string | undefined): Promise<CommentPage | undefined> {
      const article = await deps.findArticle(articleId);
      if (!article || !maySeeArticle(caller, article)) return undefined;
      return page(article, viewOf(caller, article), cursor, caller?.uid ?? null);
    },
    /** The first page as everyone sees it, from the read cache (the article page's server rendering, anonymous reads). */
    async publicFirstPage(articleId: string): Promise<JsonResource | undefined> {
      if (deps.mode === 'off') return undefined;
      const article = await deps.findArticle(articleId);
      if (!article || article.status !== 'published') return undefined;
      return deps.cached(`comments:${articleId}`, async () =>
        toJsonResource(await page(article, { kind: 'public' }, undefined)),
      );
    },
    /**
     * The first page as everyone sees it, made afresh: for the article page's server rendering,
     * which runs inside the read cache's build of the page (whose bytes the cache keeps).
     */
    async publicPageOf(article: CommentedArticle): Promise<CommentPage | undefined> {
      if (deps.mode === 'off' || article.status !== 'published') return undefined;
      return servedPart(await page(article, { kind: 'public' }, undefined));
    },
    isCursor: (text: string) => decodeKeysetCursor(text, 16) !== undefined,
    countPublishedOf: (articleIds: readonly string[]) => store.countPublishedOf(articleIds),

    async create(
      caller: Caller,
      articleId: string,
      body: string,
      parentId: string | undefined,
    ): Promise<CreateOutcome> {
      const article = await deps.findArticle(articleId);
      if (!article || !maySeeArticle(caller, article)) return { ok: false, reason: 'article_not_found' };
      if (article.status !== 'published') return { ok: false, reason: 'article_not_published' };
      let parent: CommentRow | undefined;
      if (parentId !== undefined) {
        const found = await findVisible(caller, parentId);
        if (!found) return { ok: false, reason: 'parent_not_found' };
        if (found.row.article_id !== articleId) return { ok: false, reason: 'parent_elsewhere' };
        // One level of replies: a reply to a reply joins the same thread.
        parent = found.row.parent_id === null ? found.row : await store.find(found.row.parent_id);
        if (!parent) return { ok: false, reason: 'parent_not_found' };
      }
      if (!can(caller.role, 'comment:write') || !(await deps.isVerified(caller.uid)))
        return { ok: false, reason: 'unverified' };
      const limited = await deps.rateLimiter.consume(rule, caller.uid);
      if (!limited.allowed) return { ok: false, reason: 'rate_limited', retryAfterSeconds: limited.retryAfterSeconds };
      // Under COMMENTS=approval a comment waits, unless its writer is one who would approve it.
      const status = deps.mode === 'approval' && !mayModerate(caller, article) ? 'pending' : 'published';
      const row: CommentRow = {
        id: newCommentId(),
        article_id: articleId,
        parent_id: parent?.id ?? null,
        author_uid: caller.uid,
        remote_author_id: null,
        remote_author_name: null,
        remote_author_url: null,
        remote_author_photo_url: null,
        remote_object_id: null,
        body,
        body_html: renderCommentMarkdown(body),
        status,
        hidden_reason: null,
        created_at: now(),
        edited_at: null,
      };
      await store.insert(row);
      if (status === 'published') {
        // The writer of the comment replied to (the one named, which may be a reply itself).
        const repliedTo = parentId !== undefined && parentId !== parent?.id ? await store.find(parentId) : parent;
        notify(row, article, repliedTo);
      }
      const comment = await fresh(row.id, caller.uid);
      return comment ? { ok: true, comment } : { ok: false, reason: 'article_not_found' };
    },

    async edit(caller: Caller, id: string, body: string): Promise<ChangeOutcome> {
      const found = await findVisible(caller, id);
      if (!found) return { ok: false, reason: 'not_found' };
      if (found.row.author_uid !== caller.uid) return { ok: false, reason: 'forbidden' };
      const changed = await store.update(id, { body, body_html: renderCommentMarkdown(body), edited_at: now() }, db, [
        'published',
        'pending',
        'hidden',
      ]);
      if (!changed) return { ok: false, reason: 'not_found' };
      const comment = await fresh(id, caller.uid);
      return comment ? { ok: true, comment } : { ok: false, reason: 'not_found' };
    },

    async remove(caller: Caller, id: string): Promise<'done' | 'not_found' | 'forbidden'> {
      const found = await findVisible(caller, id);
      if (!found) return 'not_found';
      const own = found.row.author_uid === caller.uid;
      if (!own && !mayModerate(caller, found.article)) return 'forbidden';
      await db.transaction().execute(async (trx) => {
        const current = await store.find(id, trx);
        if (!current || current.status === 'deleted') return;
        await store.remove(trx, current);
        if (!own) {
          await deps.recordEvent(trx, {
            actorUid: caller.uid,
            action: 'comment.delete',
            targetType: 'comment',
            targetId: id,
            detail: { articleId: current.article_id, authorUid: current.author_uid },
          });
        }
      });
      return 'done';
    },

    approve: (caller: Caller, id: string) => moderate(caller, id, 'approve'),
    hide: (caller: Caller, id: string, reason: string) => moderate(caller, id, 'hide', reason),
    restore: (caller: Caller, id: string) => moderate(caller, id, 'restore'),

    /** The pending queue for editors, with each comment's article title. */
    async pendingQueue(limit: number) {
      const rows = await store.pending(limit);
      const titles = new Map<string, string | null>();
      for (const articleId of new Set(rows.map((row) => row.article_id))) {
        titles.set(articleId, (await deps.findArticle(articleId))?.title ?? null);
      }
      return rows.map((row) => ({ ...toJson(row), articleTitle: titles.get(row.article_id) ?? null }));
    },

    /**
     * A short excerpt of each of these comments as written, whatever its status (the audit log
     * names its targets so); a deleted comment is left out.
     */
    async excerptsOf(ids: readonly string[]): Promise<Map<string, string>> {
      const bodies = await store.bodiesOf([...new Set(ids)].filter(isCommentId));
      return new Map([...bodies].map(([id, body]) => [id, commentExcerpt(body)]));
    },

    /** For reports: the comment when `caller` may see it. */
    async findForReport(caller: Caller, id: string): Promise<{ articleId: string } | undefined> {
      const found = await findVisible(caller, id);
      return found && { articleId: found.row.article_id };
    },

    async settings(uid: string): Promise<CommentNotificationSettings> {
      const out = await deps.lists.optedOut(uid, [NOTIFICATION_LISTS.onArticle, NOTIFICATION_LISTS.reply]);
      return {
        commentsOnMyArticles: !out.has(NOTIFICATION_LISTS.onArticle),
        repliesToMyComments: !out.has(NOTIFICATION_LISTS.reply),
      };
    },
    async changeSettings(
      uid: string,
      change: Partial<CommentNotificationSettings>,
    ): Promise<CommentNotificationSettings> {
      if (change.commentsOnMyArticles !== undefined)
        await deps.lists.setWants(NOTIFICATION_LISTS.onArticle, uid, change.commentsOnMyArticles);
      if (change.repliesToMyComments !== undefined)
        await deps.lists.setWants(NOTIFICATION_LISTS.reply, uid, change.repliesToMyComments);
      return this.settings(uid);
    },

    /**
     * A fediverse reply to a published article (DESIGN.md §9.4) as a comment by its remote author,
     * under COMMENTS as a local one (pending under `approval`, none under `off`), its text rendered
     * as a local comment is. The same Note arriving twice is one comment.
     */
    async createRemote(input: {
      articleId: string;
      objectId: string;
      author: { id: string; name: string; url: string | null; photoUrl: string | null };
      text: string;
    }): Promise<'created' | 'exists' | 'refused'> {
      if (deps.mode === 'off') return 'refused';
      const article = await deps.findArticle(input.articleId);
      if (!article || article.status !== 'published') return 'refused';
      const body = [...input.text.trim()].slice(0, COMMENT_BODY_MAX_LENGTH).join('');
      if (body === '') return 'refused';
      const result = await db
        .insertInto('comments')
        .values({
          id: newCommentId(),
          article_id: input.articleId,
          parent_id: null,
          author_uid: null,
          remote_author_id: input.author.id,
          remote_author_name: input.author.name,
          remote_author_url: input.author.url,
          remote_author_photo_url: input.author.photoUrl,
          remote_object_id: input.objectId,
          body,
          body_html: renderCommentMarkdown(body),
          status: deps.mode === 'approval' ? 'pending' : 'published',
          hidden_reason: null,
          created_at: now(),
          edited_at: null,
        })
        .onConflict((conflict) => conflict.column('remote_object_id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0 ? 'created' : 'exists';
    },

    /** An Update of a fediverse reply: only by the actor who wrote it. */
    async editRemote(objectId: string, actorId: string, text: string): Promise<boolean> {
      const body = [...text.trim()].slice(0, COMMENT_BODY_MAX_LENGTH).join('');
      if (body === '') return false;
      const result = await db
        .updateTable('comments')
        .set({ body, body_html: renderCommentMarkdown(body), edited_at: now() })
        .where('remote_object_id', '=', objectId)
        .where('remote_author_id', '=', actorId)
        .where('status', 'in', ['published', 'pending', 'hidden'])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** A Delete of a fediverse reply: only by the actor who wrote it. */
    async removeRemote(objectId: string, actorId: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('comments')
          .selectAll()
          .where('remote_object_id', '=', objectId)
          .where('remote_author_id', '=', actorId)
          .executeTakeFirst();
        if (row && row.status !== 'deleted') await store.remove(trx, row);
      });
    },

    /** Every comment of a remote actor (its Delete, or a block), in the caller's transaction. */
    async removeByRemoteAuthor(trx: Transaction<DatabaseSchema>, actorId: string): Promise<void> {
      const rows = await trx
        .selectFrom('comments')
        .selectAll()
        .where('remote_author_id', '=', actorId)
        .orderBy(sql`case when parent_id is null then 1 else 0 end`)
        .execute();
      for (const row of rows) await store.remove(trx, row);
    },

    /** Every comment of a blocked server's actors (their ids' host is `domain`). */
    async removeByRemoteDomain(trx: Transaction<DatabaseSchema>, domain: string): Promise<void> {
      const rows = await trx
        .selectFrom('comments')
        .selectAll()
        .where('remote_author_id', 'is not', null)
        .where('remote_author_id', 'like', `%${domain.replace(/[%_]/g, '')}%`)
        .orderBy(sql`case when parent_id is null then 1 else 0 end`)
        .execute();
      for (const row of rows) {
        if (URL.parse(row.remote_author_id ?? '')?.hostname.toLowerCase() === domain) await store.remove(trx, row);
      }
    },

    /** An account's comments, in the transaction that deletes it. */
    deleteByAuthor: (uid: string, trx: Parameters<typeof store.removeByAuthor>[0]) => store.removeByAuthor(trx, uid),
  };
}

export type Comments = ReturnType<typeof createComments>;

/** Characters of a comment the audit log shows. */
const COMMENT_EXCERPT_MAX = 80;

/** The comment's text on one line, cut at COMMENT_EXCERPT_MAX characters with an ellipsis. */
function commentExcerpt(body: string): string {
  const chars = [...body.replace(/\s+/g, ' ').trim()];
  return chars.length > COMMENT_EXCERPT_MAX
    ? `${chars
        .slice(0, COMMENT_EXCERPT_MAX - 1)
        .join('')
        .trimEnd()}…`
    : chars.join('');
}
