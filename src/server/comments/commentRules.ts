import type { ArticleStatus } from '../../shared/articleSchema.ts';
import type { Caller } from '../http/callerAuth.ts';
import { can } from '../../shared/roles.ts';
import type { CommentView } from './commentsStore.ts';

/**
 * Who may do what with comments (DESIGN.md §9.2), from the permission table
 * (src/shared/roles.ts): `comment:write` (every role, readers included), `comment:moderate`
 * (editors up: any article's comments). The article's author moderates their own article's
 * comments whatever their role.
 */
export interface CommentedArticle {
  id: string;
  title: string;
  authorId: string;
  status: ArticleStatus;
}

/** The article as `caller` may see it: published ones everyone; others their author and editors. */
export function maySeeArticle(caller: Caller | null, article: CommentedArticle): boolean {
  if (article.status === 'published') return true;
  return caller !== null && (caller.uid === article.authorId || can(caller.role, 'article:moderate'));
}

/** Approve, hide, restore and delete any comment of the article: editors and its author. */
export function mayModerate(caller: Caller | null, article: CommentedArticle): boolean {
  return caller !== null && (caller.uid === article.authorId || can(caller.role, 'comment:moderate'));
}

/** Which comments of the article `caller` sees. */
export function viewOf(caller: Caller | null, article: CommentedArticle): CommentView {
  if (caller === null) return { kind: 'public' };
  if (mayModerate(caller, article)) return { kind: 'staff' };
  return { kind: 'own', uid: caller.uid };
}
