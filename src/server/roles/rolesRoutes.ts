import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type {
  CreatedInvitationJson,
  InvitationCheckJson,
  InvitationJson,
  MemberJson,
} from '../../shared/invitations.ts';
import { requires } from '../http/apiScope.ts';
import { callerOf } from '../http/callerAuth.ts';
import { parseBody } from '../http/requestBody.ts';
import { sendProblem } from '../http/problem.ts';
import { LastOwnerError, type Identity, type MemberRow } from '../identity/createIdentity.ts';
import type { RateLimiter, RateLimitRule } from '../rateLimit/rateLimiter.ts';
import { invitationUrl, type Invitations } from './invitations.ts';
import type { InvitationRow } from './invitationsTables.ts';
import { encodeKeysetCursor, keysetCursorParameter } from '../http/keysetCursor.ts';
import { queryValidation } from '../http/queryValidation.ts';
import { keysetPage } from '../http/keysetPage.ts';
import { mayGrant, mayManage } from '../../shared/roles.ts';
import { createInvitationBody, invitationCheckBody, memberChangeBody } from './requestBodies.ts';

export const MEMBERS_PAGE_SIZE = 50;

// Firebase-imported uids may be up to 128 characters.
const MEMBER_UID_MAX_LENGTH = 128;
const NOT_ALLOWED = 'Your role does not allow this.';
const iso = (ms: number) => new Date(ms).toISOString();

class Forbidden extends Error {}

/** The invitations and members APIs (docs/product.md, Roles), in the `/api` scope. */
export function rolesRoutes(deps: {
  publicUrl: string;
  invitations: Invitations;
  members: Identity['members'];
  countArticles: (uids: readonly string[]) => Promise<Map<string, number>>;
  rateLimiter: RateLimiter;
  checkRule: RateLimitRule;
}): FastifyPluginAsync {
  const { invitations, members } = deps;

  const invitationJson = (row: InvitationRow): InvitationJson => ({
    id: row.id,
    role: row.role,
    email: row.email,
    createdAt: iso(row.created_at),
    expiresAt: iso(row.expires_at),
  });

  async function membersJson(rows: MemberRow[]): Promise<MemberJson[]> {
    const counts = await deps.countArticles(rows.map((row) => row.uid));
    return rows.map((row) => ({
      uid: row.uid,
      displayName: row.displayName,
      email: row.email,
      role: row.role,
      disabled: row.disabled,
      emailVerified: row.emailVerified,
      articleCount: counts.get(row.uid) ?? 0,
      createdAt: iso(row.createdAt),
    }));
  }

  return async (app) => {
    // Editors and owners only (else 403).
    const managers = requires('members:manage', NOT_ALLOWED);
    app.post('/invitations', managers, async (request, reply) => {
      const caller = callerOf(request);
      const body = parseBody(createInvitationBody, request.body);
      if (!body.success) return sendProblem(reply, 400, 'The invitation is not valid.', body.errors);
      if (!mayGrant(caller.role, body.data.role)) return sendProblem(reply, 403, NOT_ALLOWED);
      const { invitation, code, mailed } = await invitations.create({
        role: body.data.role,
        email: body.data.email ?? null,
        createdBy: caller.uid,
      });
      const created: CreatedInvitationJson = {
        id: invitation.id,
        url: invitationUrl(deps.publicUrl, code),
        role: invitation.role,
        email: invitation.email,
        expiresAt: iso(invitation.expires_at),
        mailed,
      };
      return reply.code(201).header('cache-control', 'no-store').send(created);
    });

    app.get('/invitations', managers, async (_request, reply) => {
      const pending = await invitations.listPending();
      return reply.header('cache-control', 'no-store').send({ invitations: pending.map(invitationJson) });
    });

    app.delete<{ Params: { id: string } }>('/invitations/:id', managers, async (request, reply) => {
      const caller = callerOf(request);
      const found = await invitations.store.findById(request.params.id);
      if (!found || found.used_at !== null || found.revoked_at !== null) {
        return sendProblem(reply, 404, 'There is no pending invitation with this id.');
      }
      // Whoever may make an invitation for a role may take one back.
      if (!mayGrant(caller.role, found.role)) return sendProblem(reply, 403, NOT_ALLOWED);
      if (!(await invitations.revoke(found.id, caller.uid))) {
        return sendProblem(reply, 404, 'There is no pending invitation with this id.');
      }
      return reply.code(204).send();
    });

    // Anonymous: what an invitation link grants, before signing up. The code travels in the
    // body so that it is in no access log line; tries are limited per client address.
    app.post('/invitations/check', async (request, reply) => {
      const limited = await deps.rateLimiter.consume(deps.checkRule, request.ip);
      if (!limited.allowed) {
        reply.header('retry-after', String(limited.retryAfterSeconds));
        return sendProblem(reply, 429, 'Too many invitation checks from your address. Please wait and try again.');
      }
      const body = parseBody(invitationCheckBody, request.body);
      if (!body.success) return sendProblem(reply, 400, 'The request is not valid.', body.errors);
      const found = await invitations.lookUp(body.data.code);
      const answer: InvitationCheckJson = found.ok
        ? {
            valid: true,
            role: found.invitation.role,
            forAddress: found.invitation.email !== null,
            expiresAt: iso(found.invitation.expires_at),
          }
        : { valid: false, reason: found.reason };
      return reply.header('cache-control', 'no-store').send(answer);
    });

    const membersQuery = z.object({
      q: z.string({ error: 'At most 200 characters.' }).max(200, 'At most 200 characters.').optional(),
      cursor: keysetCursorParameter(MEMBER_UID_MAX_LENGTH),
    });
    const membersQueryDetail = (field: string) =>
      field === 'q' ? 'The search is not valid.' : 'The cursor is not valid.';
    app.get(
      '/members',
      { ...managers, preValidation: queryValidation(membersQuery, membersQueryDetail) },
      async (request, reply) => {
        const { q, cursor: position } = request.query as z.output<typeof membersQuery>;
        const after = position && { createdAt: position.at, uid: position.id };
        const page = await keysetPage(
          MEMBERS_PAGE_SIZE,
          (rows) => members.search({ q, after, limit: rows }),
          (last) => encodeKeysetCursor({ at: last.createdAt, id: last.uid }),
        );
        return reply
          .header('cache-control', 'no-store')
          .send({ members: await membersJson(page.rows), nextCursor: page.nextCursor });
      },
    );

    app.patch<{ Params: { uid: string } }>('/members/:uid', managers, async (request, reply) => {
      const caller = callerOf(request);
      const body = parseBody(memberChangeBody, request.body);
      if (!body.success) return sendProblem(reply, 400, 'The change is not valid.', body.errors);
      const change = body.data;
      if (change.role !== undefined && !mayGrant(caller.role, change.role)) return sendProblem(reply, 403, NOT_ALLOWED);
      let changed: MemberRow | undefined;
      try {
        changed = await members.change(request.params.uid, change, {
          actorUid: caller.uid,
          authorise: (current) => {
            if (!mayManage(caller.role, current.role)) throw new Forbidden();
          },
        });
      } catch (error) {
        if (error instanceof Forbidden) return sendProblem(reply, 403, NOT_ALLOWED);
        if (error instanceof LastOwnerError) {
          return sendProblem(reply, 409, 'This is the last owner: make another member owner first.');
        }
        throw error;
      }
      if (!changed) return sendProblem(reply, 404, 'There is no member with this id.');
      const [json] = await membersJson([changed]);
      return reply.header('cache-control', 'no-store').send(json);
    });
  };
}
