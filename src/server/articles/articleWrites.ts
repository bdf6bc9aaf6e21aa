import type { Kysely } from 'kysely';
import type { AuditEvent } from '../../shared/moderation.ts';
import { missingForPublication, type ArticleInput } from '../../shared/articleSchema.ts';
import type { FieldError } from '../../shared/fieldError.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import type { Caller } from '../http/callerAuth.ts';
import {
  decideDelete,
  decideEdit,
  decideHide,
  decideRestore,
  statusOnCreate,
  type ModerationRefusal,
  type WriteRefusal,
} from './articleRules.ts';
import { AuthorGoneError, type ArticlesRepository, type CurrentArticle } from './articlesRepository.ts';
import { articleHiddenMail, draftPublishedMail, type AuthorMail } from './moderationEmails.ts';

/**
 * A moderation event for the audit log (shared/moderation.ts; features do not import each
 * other: the composition root passes the audit log's `record`).
 */
export type ModerationEvent = AuditEvent<'article.hide' | 'article.restore' | 'article.delete', 'article'>;

/** Appends one audit row inside the caller's transaction (never outside it). */
export type ModerationEventRecorder = (trx: Kysely<DatabaseSchema>, event: ModerationEvent) => Promise<void>;

/** Sends `mail` to the account `uid`'s address (the composition root knows it). May reject: the mailer logs why. */
export type MailAuthor = (uid: string, mail: AuthorMail) => Promise<void>;

export interface ArticleWritesDeps {
  repository: ArticlesRepository;
  recordAudit?: ModerationEventRecorder | undefined;
  mailAuthor?: MailAuthor | undefined;
  site: { title: string; publicUrl: string };
  now?: () => number;
}

export type ArticleWrites = ReturnType<typeof createArticleWrites>;

/** A body that is valid but not for the status it would have: each field with its sentence (a 400). */
export interface Incomplete {
  invalid: FieldError[];
}

/** A scheduled time must be ahead of the server's clock. */
function pastPublishAt(input: ArticleInput, now: number): Incomplete | undefined {
  if (input.status !== 'scheduled' || input.publishAt === undefined || input.publishAt > now) return undefined;
  return { invalid: [{ field: 'publishAt', message: 'publishAt must be a time in the future.' }] };
}

/** A draft needs only its title; any other status needs what docs/product.md requires (DESIGN.md §9.6). */
function incompleteFor(status: string, input: ArticleInput): Incomplete | undefined {
  const missing = status === 'draft' ? [] : missingForPublication(input);
  return missing.length === 0 ? undefined : { invalid: missing };
}

/**
 * Every change of an article, with the role rules (articleRules.ts) decided on the stored article
 * inside the write's transaction, the audit row in that same transaction, and the author's mail
 * after it has committed (sent in the background: the answer does not wait for SMTP).
 */
export function createArticleWrites(deps: ArticleWritesDeps) {
  const { repository } = deps;
  const now = deps.now ?? Date.now;
  const recordAudit: ModerationEventRecorder = deps.recordAudit ?? (async () => undefined);
  // Read at each mail: the site's name is a setting an owner may change (decision 0840).
  const site = () => ({ siteTitle: deps.site.title, publicUrl: deps.site.publicUrl });
  const mailAuthor = (uid: string, mail: AuthorMail) => {
    // The mailer logs a failure (without the address); the change stands either way.
    deps.mailAuthor?.(uid, mail).catch(() => undefined);
  };
  const audit =
    (caller: Caller, action: ModerationEvent['action'], detail?: Record<string, unknown>) =>
    async (trx: Kysely<DatabaseSchema>, before: CurrentArticle) =>
      recordAudit(trx, {
        actorUid: caller.uid,
        action,
        targetType: 'article',
        targetId: before.id,
        ...(detail ? { detail } : {}),
      });

  return {
    /** Creates an article by `caller` with a new id; its status from the role when not asked for. */
    async create(
      caller: Caller,
      id: string,
      input: ArticleInput,
    ): Promise<'created' | WriteRefusal | 'author-gone' | Incomplete> {
      const status = statusOnCreate(caller, input.status);
      if (status === 'no-write-role' || status === 'may-not-publish') return status;
      const incomplete = incompleteFor(status, input) ?? pastPublishAt(input, now());
      if (incomplete) return incomplete;
      try {
        await repository.insert({ ...input, id, authorId: caller.uid, date: now(), status });
      } catch (error) {
        if (error instanceof AuthorGoneError) return 'author-gone';
        throw error;
      }
      return 'created';
    },

    async edit(
      caller: Caller,
      id: string,
      input: ArticleInput,
    ): Promise<'done' | WriteRefusal | 'not-found' | Incomplete> {
      const past = pastPublishAt(input, now());
      if (past) return past;
      let incomplete: Incomplete | undefined;
      const decide = (current: CurrentArticle) => {
        const plan = decideEdit(caller, current, input.status, input.publishAt);
        if (typeof plan === 'string') return plan;
        incomplete = incompleteFor(plan.status, input);
        return incomplete ? ('incomplete' as const) : plan;
      };
      const outcome = await repository.change(id, decide, {
        fields: input,
        now: now(),
        // An editor giving a hidden article another status restores it: the log says so.
        inTransaction: async (trx, before) => {
          if (before.status === 'hidden' && input.status !== undefined) {
            await audit(caller, 'article.restore', { status: input.status })(trx, before);
          }
        },
      });
      if (outcome === 'incomplete') return incomplete!;
      if (typeof outcome === 'string') return outcome;
      const { before } = outcome;
      if (before.status === 'submitted' && input.status === 'published' && before.authorId !== caller.uid) {
        mailAuthor(before.authorId, draftPublishedMail({ ...site(), articleId: id, title: input.title }));
      }
      return 'done';
    },

    async remove(caller: Caller, id: string): Promise<'done' | WriteRefusal | 'not-found'> {
      const outcome = await repository.remove(
        id,
        (current) => decideDelete(caller, current),
        // Only the deletion of another person's article is an editor's act worth a record.
        async (trx, before) => {
          if (before.authorId !== caller.uid)
            await audit(caller, 'article.delete', { title: before.title })(trx, before);
        },
      );
      return typeof outcome === 'string' ? outcome : 'done';
    },

    /** Hides an article with the reason (already checked: 1–500 characters for the API). */
    async hide(caller: Caller, id: string, reason: string): Promise<'done' | ModerationRefusal | 'not-found'> {
      const outcome = await repository.change(id, (current) => decideHide(caller, current, reason, now()), {
        now: now(),
        inTransaction: audit(caller, 'article.hide', { reason }),
      });
      if (typeof outcome === 'string') return outcome;
      const { before } = outcome;
      if (before.authorId !== caller.uid) {
        mailAuthor(before.authorId, articleHiddenMail({ ...site(), articleId: id, title: before.title, reason }));
      }
      return 'done';
    },

    async restore(caller: Caller, id: string): Promise<'done' | ModerationRefusal | 'not-found'> {
      const outcome = await repository.change(id, (current) => decideRestore(caller, current), {
        now: now(),
        inTransaction: audit(caller, 'article.restore'),
      });
      return typeof outcome === 'string' ? outcome : 'done';
    },
  };
}
