import { HIDE_REASON_MAX_LENGTH } from './moderation.ts';
/**
 * Comments as the API sends them and the fields a person may set (DESIGN.md §9.2), shared by
 * the server (which enforces them) and the web app (which shows the same messages).
 */

/** COMMENTS: `on` at once, `approval` after an editor's or the article's author's approval, `off` none. */
export const COMMENT_MODES = ['on', 'approval', 'off'] as const;
export type CommentMode = (typeof COMMENT_MODES)[number];

/** `deleted` is kept only while the comment has replies ("This comment was deleted."). */
export const COMMENT_STATUSES = ['published', 'pending', 'hidden', 'deleted'] as const;
export type CommentStatus = (typeof COMMENT_STATUSES)[number];

export const COMMENT_BODY_MAX_LENGTH = 5000;
/** Top-level comments a page (each with all its replies). */
export const COMMENTS_PAGE_SIZE = 25;
/** A comment's hide reason is a hide reason (shared/moderation.ts). */
export const COMMENT_HIDE_REASON_MAX_LENGTH = HIDE_REASON_MAX_LENGTH;

/** What a deleted comment with replies shows instead of its author and body. */
export const DELETED_COMMENT_TEXT = 'This comment was deleted.';

export interface CommentAuthor {
  /** null for a remote (fediverse) author, who has no account here. */
  uid: string | null;
  displayName: string | null;
  photoUrl: string | null;
  /** The author page's slug; null for a remote author (their profile link is `url`). */
  slug: string | null;
  /** A remote author's profile page; absent for local accounts. */
  url?: string;
}

export interface Comment {
  id: string;
  articleId: string;
  parentId: string | null;
  /** null once deleted. */
  author: CommentAuthor | null;
  /** Empty once deleted. */
  bodyHtml: string;
  /** The Markdown as written: only in answers to the comment's writer (for Edit). */
  body?: string;
  createdAt: string;
  editedAt: string | null;
  status: CommentStatus;
  /** Only for the article's author and editors, on a hidden comment. */
  hiddenReason?: string;
  replies: Comment[];
}

export interface CommentPage {
  comments: Comment[];
  nextCursor: string | null;
  /** Published comments of the article (replies included). */
  count: number;
  /** Likes and reposts from the fediverse (DESIGN.md §9.4); absent while FEDERATION=off. */
  fediverse?: { likes: number; reposts: number };
}

/** Notification switches on the profile (DESIGN.md §9.2). */
export interface CommentNotificationSettings {
  /** Mail me when someone comments on my article. */
  commentsOnMyArticles: boolean;
  /** Mail me when someone replies to my comment. */
  repliesToMyComments: boolean;
}

export const commentTexts = {
  heading: 'Comments',
  count: (count: number) => (count === 1 ? '1 comment' : `${count.toLocaleString('en-US')} comments`),
  none: 'No comments yet.',
  signInToComment: 'Sign in to comment',
  verifyToComment: 'Verify your email to comment',
  verifyRequired:
    'Verify your email address to comment: the link is in the mail we sent you, or send it again from your profile.',
  waitingForApproval: 'Waiting for approval',
  hidden: 'Hidden',
  edited: 'edited',
  deleted: DELETED_COMMENT_TEXT,
  formLabel: 'Add a comment',
  replyLabel: 'Your reply',
  editLabel: 'Edit your comment',
  send: 'Comment',
  sendReply: 'Reply',
  save: 'Save',
  cancel: 'Cancel',
  reply: 'Reply',
  edit: 'Edit',
  delete: 'Delete',
  report: 'Report',
  hide: 'Hide',
  approve: 'Approve',
  restore: 'Restore',
  more: 'More comments',
  /** Under the part of the comments a page's HTML carries, for a reader without JavaScript. */
  moreBelow: (count: number) =>
    `The first comments of ${count.toLocaleString('en-US')}: the rest load with the page's script.`,
  sendFailed: 'Your comment could not be sent. What you wrote is still here: try again.',
  loadFailed: 'Comments could not be loaded.',
  confirmDelete: 'Delete this comment?',
  reported: 'Thank you: editors will look at it.',
  markdownHint: 'Markdown: *emphasis*, `code`, > quotes, lists and links.',
  offline: 'Comments are turned off on this site.',
} as const;
