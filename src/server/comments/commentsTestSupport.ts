import { expect } from 'vitest';
import {
  articlesApi,
  identityCall,
  sampleArticle,
  signUp,
  type Answer,
  type TestUser,
} from '../../../test/support/articlesTestClient.ts';
import { setRole } from '../../../test/support/operatorActions.ts';
import type { SmtpSink } from '../../../test/support/smtpSink.ts';
import type { TestApp } from '../../../test/support/testApp.ts';
import type { Role } from '../../shared/roles.ts';

/** The comments API of one test app, over real HTTP, and people to call it as. */
export function commentsClient(server: TestApp, sink: SmtpSink) {
  const api = articlesApi(server.url);
  const as = (user: TestUser | undefined) => user?.idToken;
  return {
    api,
    /** A signed-up account with its address verified through the mail the sink got, and a role. */
    async member(name: string, role?: Role, verified = true): Promise<TestUser> {
      const before = sink.messages.length;
      const user = await signUp(server.url, name);
      if (verified) {
        const mail = await sink.waitForMail(user.email, { after: before, subject: /Verify/ });
        const code = /oobCode=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
        const applied = await identityCall(server.url, 'accounts:update', { oobCode: code });
        expect(applied.status, applied.text).toBe(200);
      }
      if (role) await setRole(server, user.email, role);
      return user;
    },
    async publish(by: TestUser, title = 'Commented article', status?: 'draft'): Promise<string> {
      const made = await api.create(by.idToken, { ...sampleArticle(title), ...(status ? { status } : {}) });
      expect(made.status, made.text).toBe(201);
      return made.body.id as string;
    },
    list: (user: TestUser | undefined, articleId: string, query = ''): Promise<Answer> =>
      api.request('GET', `/articles/${articleId}/comments${query}`, { token: as(user) }),
    post: (user: TestUser | undefined, articleId: string, json: unknown): Promise<Answer> =>
      api.request('POST', `/articles/${articleId}/comments`, { token: as(user), json }),
    async comment(user: TestUser, articleId: string, body: string, parentId?: string): Promise<string> {
      const made = await api.request('POST', `/articles/${articleId}/comments`, {
        token: user.idToken,
        json: { body, ...(parentId ? { parentId } : {}) },
      });
      expect(made.status, made.text).toBe(201);
      return made.body.id as string;
    },
    edit: (user: TestUser | undefined, id: string, json: unknown) =>
      api.request('PUT', `/comments/${id}`, { token: as(user), json }),
    remove: (user: TestUser | undefined, id: string) => api.request('DELETE', `/comments/${id}`, { token: as(user) }),
    act: (user: TestUser | undefined, id: string, action: 'approve' | 'hide' | 'restore', json?: unknown) =>
      api.request('POST', `/comments/${id}/${action}`, {
        token: as(user),
        json: json ?? (action === 'hide' ? { reason: 'Off topic' } : {}),
      }),
    report: (user: TestUser | undefined, id: string, reason = 'Spam') =>
      api.request('POST', `/comments/${id}/reports`, { token: as(user), json: { reason } }),
  };
}

/** The ids of a page's comments and their replies, as [id, [reply ids]]. */
export function threads(page: { comments: { id: string; replies: { id: string }[] }[] }) {
  return page.comments.map((comment) => [comment.id, comment.replies.map((reply) => reply.id)]);
}
