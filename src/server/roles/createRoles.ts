import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { Identity, MemberChangedListener, SignUpGate } from '../identity/createIdentity.ts';
import type { RateLimiter } from '../rateLimit/rateLimiter.ts';
import type { Role } from '../../shared/roles.ts';
import { createInvitations, invitationUrl } from './invitations.ts';
import { memberChangeEvents, type RoleEventRecorder } from './roleEvents.ts';
import { rolesRoutes } from './rolesRoutes.ts';
import { signUpPolicy } from './signUpPolicy.ts';

export interface Roles {
  /** Identity's sign-up gate: SIGNUP, NEW_ACCOUNT_ROLE and invitations. */
  signUpGate: SignUpGate;
  /** For identity's members.onChanged: role changes, disables and enables go in the audit log. */
  recordMemberChange: MemberChangedListener;
  /** The operator's invitation (`npm run admin -- invite`): audited with no actor; answers its link. */
  createInvitation(input: { role: Role; email: string | null }): Promise<{ url: string; expiresAt: number }>;
  /** The invitations and members APIs; made once identity and articles exist. */
  routes(deps: {
    members: Identity['members'];
    countArticles: (uids: readonly string[]) => Promise<Map<string, number>>;
  }): FastifyPluginAsync;
}

const CHECK_WINDOW_MS = 15 * 60 * 1000;

/** Roles, the sign-up policy and invitations (docs/product.md, Roles). */
export function createRoles(deps: {
  config: Config;
  database: Database;
  rateLimiter: RateLimiter;
  clock?: (() => number) | undefined;
  /** The audit log's recorder (services.ts passes it): invitations made, used, revoked; member changes. */
  recordEvent: RoleEventRecorder;
}): Roles {
  const now = deps.clock ?? Date.now;
  const invitations = createInvitations({ database: deps.database, now, recordEvent: deps.recordEvent });
  return {
    signUpGate: signUpPolicy({
      policy: deps.config.signup,
      newAccountRole: deps.config.newAccountRole,
      invitations,
    }),
    async createInvitation({ role, email }) {
      const { invitation, code } = await invitations.create({ role, email, createdBy: null });
      return { url: invitationUrl(deps.config.publicUrl, code), expiresAt: invitation.expires_at };
    },
    async recordMemberChange(change, trx) {
      for (const event of memberChangeEvents(change)) await deps.recordEvent(trx, event);
    },
    routes: (wiring) =>
      rolesRoutes({
        ...wiring,
        publicUrl: deps.config.publicUrl,
        invitations,
        rateLimiter: deps.rateLimiter,
        checkRule: { name: 'invitations:check', limit: 60, windowMs: CHECK_WINDOW_MS },
      }),
  };
}
