import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { Identity, MemberChangedListener, SignUpGate } from '../identity/createIdentity.ts';
import type { RateLimiter } from '../rateLimit/rateLimiter.ts';
import type { Role } from '../../shared/roles.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { invitationMessage } from './invitationMail.ts';
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
  createInvitation(input: {
    role: Role;
    email: string | null;
  }): Promise<{ url: string; expiresAt: number; mailed: boolean }>;
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
  /** Sends a mail; throws when it could not be handed over (the mailer logs why, without the address). */
  sendMail: (message: MailMessage) => Promise<void>;
}): Roles {
  const now = deps.clock ?? Date.now;
  const made = createInvitations({ database: deps.database, now, recordEvent: deps.recordEvent });
  // An invitation for an address is mailed to it, by /admin and the admin command alike; a
  // mail that could not go leaves the invitation made (its link is shown to the inviter).
  const invitations: typeof made = {
    ...made,
    async create(input) {
      const result = await made.create(input);
      if (input.email === null) return { ...result, mailed: false };
      const message = invitationMessage({
        to: input.email,
        siteTitle: deps.config.site.title,
        role: input.role,
        url: invitationUrl(deps.config.publicUrl, result.code),
        expiresAt: result.invitation.expires_at,
      });
      const mailed = await deps.sendMail(message).then(
        () => true,
        () => false,
      );
      return { ...result, mailed };
    },
  };
  return {
    signUpGate: signUpPolicy({
      policy: deps.config.signup,
      newAccountRole: deps.config.newAccountRole,
      invitations,
    }),
    async createInvitation({ role, email }) {
      const { invitation, code, mailed } = await invitations.create({ role, email, createdBy: null });
      return { url: invitationUrl(deps.config.publicUrl, code), expiresAt: invitation.expires_at, mailed };
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
