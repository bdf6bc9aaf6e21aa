import { callApi, type TokenSource } from './callApi.ts';
import type { Comment, CommentNotificationSettings, CommentPage } from '../../shared/comments.ts';

/** A pending comment as the editors' queue lists it. */
export type QueuedComment = Comment & { articleTitle: string | null };

const commentPath = (id: string) => `/comments/${encodeURIComponent(id)}`;

/** The comments API (DESIGN.md §9.2). */
export const commentsApi = {
  list: (articleId: string, cursor: string | null, token?: TokenSource) =>
    callApi<CommentPage>(
      'GET',
      `/articles/${encodeURIComponent(articleId)}/comments${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
      token ? { token } : {},
    ),
  create: (token: TokenSource, articleId: string, body: string, parentId?: string) =>
    callApi<Comment>('POST', `/articles/${encodeURIComponent(articleId)}/comments`, {
      token,
      body: parentId ? { body, parentId } : { body },
    }),
  edit: (token: TokenSource, id: string, body: string) =>
    callApi<Comment>('PUT', commentPath(id), { token, body: { body } }),
  remove: (token: TokenSource, id: string) => callApi<undefined>('DELETE', commentPath(id), { token }),
  approve: (token: TokenSource, id: string) => callApi<Comment>('POST', `${commentPath(id)}/approve`, { token }),
  restore: (token: TokenSource, id: string) => callApi<Comment>('POST', `${commentPath(id)}/restore`, { token }),
  hide: (token: TokenSource, id: string, reason: string) =>
    callApi<Comment>('POST', `${commentPath(id)}/hide`, { token, body: { reason } }),
  report: (token: TokenSource, id: string, reason: string) =>
    callApi<unknown>('POST', `${commentPath(id)}/reports`, { token, body: { reason } }),
  pending: (token: TokenSource) => callApi<{ comments: QueuedComment[] }>('GET', '/comments/pending', { token }),
  settings: (token: TokenSource) => callApi<CommentNotificationSettings>('GET', '/comments/notifications', { token }),
  changeSettings: (token: TokenSource, change: Partial<CommentNotificationSettings>) =>
    callApi<CommentNotificationSettings>('PUT', '/comments/notifications', { token, body: change }),
};
