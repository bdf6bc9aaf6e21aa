import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { RateLimiter, RateLimitRule } from '../../rateLimit/rateLimiter.ts';
import type { IdentityCore } from '../core/identityCore.ts';
import { consumeOrThrow, emailKey, identityRateLimitRules } from '../core/identityRateLimits.ts';
import { toProtocolError } from './protocolErrors.ts';
import { signInAnswer, type SessionDelivery } from './sessionDelivery.ts';

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

/** Runs a core call, turning its refusals into the protocol errors the door's routes send. */
async function inProtocolTerms<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toProtocolError(error) ?? error;
  }
}

/**
 * What a sign-in door besides the password (passkeys) needs from identity: check ID tokens,
 * count attempts against the sign-in limits, and start a session through the core's one
 * issuing, answered like signInWithPassword (browser session mode included). The rules a
 * password sign-in follows (limits, disabled accounts, the replaced cookie session) live in
 * the core and here, not in the door.
 */
export function createSessionDoor(deps: {
  core: IdentityCore;
  config: Config;
  rateLimiter: RateLimiter;
  delivery: SessionDelivery;
  now: () => number;
}) {
  const { core, config, rateLimiter, delivery, now } = deps;
  const rules = identityRateLimitRules(config.rateLimits);
  return {
    /** Rejects with the protocol error for a bad, expired or ended token, or a disabled account. */
    verifyIdToken: (idToken: unknown) =>
      inProtocolTerms(async () => {
        const token = await core.verifyIdToken(typeof idToken === 'string' ? idToken : '');
        return {
          uid: token.user.id,
          email: token.user.email,
          displayName: token.user.display_name,
          sessionId: token.sessionId,
          authTime: token.authTime,
        };
      }),

    /** Whether a sign-in at `authTime` (epoch ms) is recent enough for sensitive changes. */
    isRecentSignIn: (authTime: number): boolean => now() - authTime <= config.recentSignInSeconds * 1000,

    findAccount: (uid: string): Promise<DoorAccount | undefined> => core.findAccount(uid),

    /**
     * Counts an attempt against the per-IP limits, and the account's when known, before anything
     * is checked, as a password sign-in does. Throws 429 TOO_MANY_ATTEMPTS_TRY_LATER.
     */
    countSignInAttempt: (request: FastifyRequest, email: string | undefined): Promise<SignInAttempt> =>
      inProtocolTerms(async () => {
        const counted: [RateLimitRule, string][] = [];
        if (email !== undefined) {
          const account = emailKey(email);
          counted.push([rules.signInPerEmailAndIp, `${account}:${request.ip}`], [rules.signInPerAccount, account]);
        }
        counted.push([rules.signInPerIp, request.ip], [rules.signInAttemptsPerIp, request.ip]);
        await consumeOrThrow(rateLimiter, counted);
        return { counted };
      }),

    /**
     * Starts a session for an account whose credential the door has verified: the core refuses
     * a disabled account (USER_DISABLED); the right credential forgives the attempt as the
     * password's does; the cookie session it replaces ends.
     */
    issueSession: (options: {
      uid: string;
      provider: string;
      attempt: SignInAttempt;
      request: FastifyRequest;
      reply: FastifyReply;
    }) =>
      inProtocolTerms(async () => {
        const { request, reply, attempt } = options;
        const forgive = {
          reset: attempt.counted.filter(([rule]) => rule === rules.signInPerEmailAndIp),
          refund: attempt.counted.filter(([rule]) => rule === rules.signInPerAccount || rule === rules.signInPerIp),
        };
        try {
          const issued = await core.issueSession({
            uid: options.uid,
            provider: options.provider,
            replaces: delivery.replaced(request),
          });
          return signInAnswer(delivery, request, reply, issued);
        } finally {
          await rateLimiter.settle(forgive);
        }
      }),
  };
}

export type SessionDoor = ReturnType<typeof createSessionDoor>;
