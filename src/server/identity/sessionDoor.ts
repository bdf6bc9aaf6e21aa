import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimitRule } from '../rateLimit/rateLimiter.ts';
import type { SignInProvider } from './idTokens.ts';
import { deliverTokens, replacedCookieSession, requireUser, type IdentityContext } from './identityContext.ts';
import { consumeOrThrow, emailKey } from './identityRateLimits.ts';
import { ProtocolError } from './protocolErrors.ts';

/** An account as a sign-in door other than the password sees it. */
export interface DoorAccount {
  uid: string;
  email: string;
  displayName: string | null;
  disabled: boolean;
}

/** A counted sign-in attempt (rate limits); issueSession forgives it when it succeeds. */
export interface SignInAttempt {
  readonly counted: [RateLimitRule, string][];
}

/**
 * What a sign-in door besides the password (passkeys) needs from identity: check ID tokens,
 * count attempts against the sign-in limits, and start a session answered like
 * signInWithPassword (browser session mode included). Every rule a password sign-in follows
 * (limits, disabled accounts, the replaced cookie session) lives here, not in the door.
 */
export function createSessionDoor(context: IdentityContext) {
  const { users, sessions, rateLimiter, rules } = context;
  return {
    /** Rejects with the protocol error for a bad, expired or ended token, or a disabled account. */
    async verifyIdToken(idToken: unknown) {
      const token = await requireUser(context, idToken);
      return {
        uid: token.user.id,
        email: token.user.email,
        displayName: token.user.display_name,
        sessionId: token.sessionId,
        authTime: token.authTime,
      };
    },

    /** Whether a sign-in at `authTime` (epoch ms) is recent enough for sensitive changes. */
    isRecentSignIn(authTime: number): boolean {
      return context.now() - authTime <= context.config.recentSignInSeconds * 1000;
    },

    async findAccount(uid: string): Promise<DoorAccount | undefined> {
      const user = await users.findById(uid);
      return user && { uid: user.id, email: user.email, displayName: user.display_name, disabled: user.disabled === 1 };
    },

    /**
     * Counts an attempt against the per-IP limit, and the per-email limit of the account it is
     * for when known, before anything is checked. Throws 429 TOO_MANY_ATTEMPTS_TRY_LATER.
     */
    async countSignInAttempt(request: FastifyRequest, email: string | undefined): Promise<SignInAttempt> {
      const counted: [RateLimitRule, string][] = [[rules.signInPerIp, request.ip]];
      if (email !== undefined) counted.unshift([rules.signInPerEmail, emailKey(email)]);
      await consumeOrThrow(rateLimiter, counted);
      return { counted };
    },

    /**
     * Starts a session for an account whose credential the door has verified: refuses a disabled
     * account (USER_DISABLED), forgives the attempt, ends the cookie session this one replaces.
     */
    async issueSession(options: {
      uid: string;
      provider: SignInProvider;
      attempt: SignInAttempt;
      request: FastifyRequest;
      reply: FastifyReply;
    }) {
      const { request, reply, attempt } = options;
      // As for a password: the right credential clears the account's failures and gives the IP's back.
      const forgive = {
        reset: attempt.counted.filter(([rule]) => rule === rules.signInPerEmail),
        refund: attempt.counted.filter(([rule]) => rule === rules.signInPerIp),
      };
      const user = await users.findById(options.uid);
      if (!user) throw new ProtocolError('USER_NOT_FOUND');
      if (user.disabled === 1) {
        await rateLimiter.settle(forgive);
        throw new ProtocolError('USER_DISABLED');
      }
      const now = context.now();
      const replaced = replacedCookieSession(request);
      const session = await context.database.db.transaction().execute(async (trx) => {
        await users.update(user.id, { last_login_at: now }, trx);
        if (replaced !== undefined) await sessions.revoke(replaced, trx);
        const created = await sessions.create(user.id, now, now, trx, options.provider);
        await rateLimiter.settle(forgive, trx);
        return created;
      });
      const tokens = await deliverTokens(context, request, reply, user, session, now, options.provider);
      return {
        kind: 'identitytoolkit#VerifyPasswordResponse',
        localId: user.id,
        email: user.email,
        displayName: user.display_name ?? '',
        ...tokens,
        registered: true as const,
      };
    },
  };
}

export type SessionDoor = ReturnType<typeof createSessionDoor>;
