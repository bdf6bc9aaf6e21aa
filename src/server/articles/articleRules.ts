import type { ArticleStatus, WritableArticleStatus } from '../../shared/articleSchema.ts';
import type { Caller } from '../http/callerAuth.ts';
import { can } from '../../shared/roles.ts';
import type { ChangePlan, CurrentArticle } from './articlesRepository.ts';

/**
 * Who may see and change which article (DESIGN.md §8.2, docs/product.md, Drafts and review),
 * decided on the article as stored at the moment of the change. Roles come from the permission
 * table (src/shared/roles.ts): `article:write` (contributors up), `article:publish` (authors up),
 * `article:moderate` (editors up: any article).
 */

/** Why a write is refused; articlesRoutes.ts gives each its status and sentence. */
export type WriteRefusal =
  'no-write-role' | 'may-not-publish' | 'not-author' | 'hidden-by-editor' | 'published-by-editor' | 'already-published';

/** Publishing (now or at a time) is for those who may publish (src/shared/roles.ts). */
const publishes = (status: ArticleStatus) => status === 'published' || status === 'scheduled';

export type ModerationRefusal = 'not-editor' | 'not-hidden';

export function isEditor(caller: Caller): boolean {
  return can(caller.role, 'article:moderate');
}

/** Published articles are everyone's; any other status only their author's and editors'. */
export function mayView(caller: Caller | null, article: { authorId: string; status: ArticleStatus }): boolean {
  if (article.status === 'published') return true;
  return caller !== null && (caller.uid === article.authorId || isEditor(caller));
}

/**
 * Which lists a caller may read beyond the public one: an author's drafts, submitted or hidden
 * articles (or all of them) for that author and editors; the review queue (every author's
 * submitted drafts) for editors; every author's articles of any status, or searched by title
 * (the `/admin` Posts list, decision 0820), for editors.
 */
export function mayList(caller: Caller, authorId: string | undefined, status: ArticleStatus | 'all'): boolean {
  if (authorId === undefined) return status === 'submitted' ? can(caller.role, 'article:review') : isEditor(caller);
  return caller.uid === authorId || isEditor(caller);
}

/** A new article's status: asked for, else published for those who may publish and a draft for the rest. */
export function statusOnCreate(
  caller: Caller,
  requested: WritableArticleStatus | undefined,
): WritableArticleStatus | 'no-write-role' | 'may-not-publish' {
  if (!can(caller.role, 'article:write')) return 'no-write-role';
  const status = requested ?? (can(caller.role, 'article:publish') ? 'published' : 'draft');
  return publishes(status) && !can(caller.role, 'article:publish') ? 'may-not-publish' : status;
}

/**
 * An edit (with or without a new status). The author edits their own; editors any. A hidden
 * article stays hidden through its author's edits: only an editor changes its status (restore).
 */
export function decideEdit(
  caller: Caller,
  current: CurrentArticle,
  requested: WritableArticleStatus | undefined,
  publishAt?: number,
): ChangePlan | WriteRefusal | 'not-found' {
  // Someone who may not see it is told what they would be told of an unknown id.
  if (!mayView(caller, current)) return 'not-found';
  if (!can(caller.role, 'article:write')) return 'no-write-role';
  const editor = isEditor(caller);
  if (!editor && current.authorId !== caller.uid) return 'not-author';
  if (current.status === 'hidden' && !editor)
    return requested === undefined ? { status: 'hidden' } : 'hidden-by-editor';
  // A contributor's article is published only by an editor, and stays as the editor published
  // it: moving it back to a draft would let its text be rewritten (or the article deleted) with
  // nobody reviewing it (issue 35, finding 7).
  if (current.status === 'published' && !can(caller.role, 'article:publish')) return 'published-by-editor';
  const status = requested ?? current.status;
  if (publishes(status) && !can(caller.role, 'article:publish')) return 'may-not-publish';
  // A published article is already out: scheduling it would take it down until then.
  if (status === 'scheduled' && current.status === 'published') return 'already-published';
  // A scheduled article edited without a new status keeps its time.
  return status === 'scheduled' ? { status, publishAt: publishAt ?? current.publishAt ?? undefined } : { status };
}

/** Editors delete any article; a contributor may delete their own only while nobody else can see it. */
export function decideDelete(caller: Caller, current: CurrentArticle): 'delete' | WriteRefusal | 'not-found' {
  if (!mayView(caller, current)) return 'not-found';
  if (!can(caller.role, 'article:write')) return 'no-write-role';
  if (isEditor(caller)) return 'delete';
  if (current.authorId !== caller.uid) return 'not-author';
  return current.status === 'published' && !can(caller.role, 'article:publish') ? 'published-by-editor' : 'delete';
}

/** A hide by an editor, with the reason and the time. An already hidden article takes the new reason. */
export function decideHide(
  caller: Caller,
  current: CurrentArticle,
  reason: string,
  now: number,
): ChangePlan | ModerationRefusal | 'not-found' {
  if (!mayView(caller, current)) return 'not-found';
  return isEditor(caller) ? { status: 'hidden', moderation: { reason, at: now } } : 'not-editor';
}

/** A restore by an editor: a hidden article is published again, with the date it had. */
export function decideRestore(caller: Caller, current: CurrentArticle): ChangePlan | ModerationRefusal | 'not-found' {
  if (!mayView(caller, current)) return 'not-found';
  if (!isEditor(caller)) return 'not-editor';
  return current.status === 'hidden' ? { status: 'published' } : 'not-hidden';
}
