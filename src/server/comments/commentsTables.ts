import type { Selectable } from 'kysely';
import type { CommentStatus } from '../../shared/comments.ts';

/** The comments feature's table (migration 0600). Times are epoch milliseconds. */
export interface CommentsTables {
  comments: CommentsTable;
}

export interface CommentsTable {
  id: string;
  article_id: string;
  /** The top-level comment this one replies to; NULL for a top-level comment. */
  parent_id: string | null;
  /** A local author's account; NULL for a remote author and once deleted. */
  author_uid: string | null;
  remote_author_id: string | null;
  remote_author_name: string | null;
  remote_author_url: string | null;
  remote_author_photo_url: string | null;
  remote_object_id: string | null;
  body: string;
  body_html: string;
  status: CommentStatus;
  hidden_reason: string | null;
  created_at: number;
  edited_at: number | null;
}

export type CommentRow = Selectable<CommentsTable>;
