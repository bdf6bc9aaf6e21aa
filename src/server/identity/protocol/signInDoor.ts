import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { IdentityErrorCode } from '../../../shared/identityProtocol.ts';
import { IdentityError, type IdentityCore } from '../core/identityCore.ts';
import { parseBody } from './requestSchemas.ts';
import { originOf, signInAnswer, type SessionDelivery } from './sessionDelivery.ts';

/** An account as a sign-in door other than the password sees it. */
export interface DoorAccount {
  uid: string;
  email: string;
  displayName: string | null;
  disabled: boolean;
}

/** A sign-in method a door outside identity checks itself (a passkey): see core/signIn/signInAttempt.ts. */
export interface DoorFirstFactor {
  /** `firebase.sign_in_provider` of the session: 'passkey', 'google.com', 'oidc.x'. */
  provider: string;
  /** The account's email when known before the check (counts the per-account limits). */
  account: string | undefined;
  /** Verifies the credential and returns the uid it proves; throws a `refusal()` to refuse. */
  check(): Promise<string>;
}

/**
 * What sign-in doors outside identity (passkeys, later identity providers) get: their routes run
 * inside the `/identity` scope (its body parsers, cookie, no-store and protocol error answers),
 * and they reach identity only through this, which services.ts adapts to each door's own port.
 */
export function createSignInDoor(deps: { core: IdentityCore; delivery: SessionDelivery }) {
  const { core, delivery } = deps;
  return {
    /** The caller behind an ID token; rejects with the protocol error for a bad, expired or ended token, or a disabled account. */
    async verifyIdToken(idToken: unknown) {
      const token = await core.verifyIdToken(typeof idToken === 'string' ? idToken : '');
      return {
        uid: token.user.id,
        email: token.user.email,
        displayName: token.user.display_name,
        emailVerified: token.user.email_verified === 1,
        sessionId: token.sessionId,
        authTime: token.authTime,
      };
    },

    /** Whether a sign-in at `authTime` (epoch ms) is recent enough for sensitive changes. */
    isRecentSignIn: core.recentSignIn.isRecent,

    findAccount: (uid: string): Promise<DoorAccount | undefined> => core.findAccount(uid),

    /**
     * One sign-in attempt (core/signIn/signInAttempt.ts) with the door's factor, answered like
     * signInWithPassword: tokens (browser session mode included) or a pending second step.
     */
    async signIn(request: FastifyRequest, reply: FastifyReply, factor: DoorFirstFactor) {
      const result = await core.signIns.attempt(
        {
          provider: factor.provider,
          account: factor.account,
          check: async () => ({ uid: await factor.check() }),
        },
        { origin: originOf(request), replaces: delivery.replaced(request) },
      );
      return signInAnswer(delivery, request, reply, result);
    },

    /** The error a door throws to refuse, answered as protocol JSON (and counted as a failed sign-in in check()). */
    refusal: (code: IdentityErrorCode, options: { detail?: string; retryAfterSeconds?: number } = {}): Error =>
      new IdentityError(code, options),

    /** Parses a request body with a zod schema whose issue messages are protocol error codes. */
    parseBody: <T extends z.ZodType>(schema: T, body: unknown): z.output<T> => parseBody(schema, body),
  };
}

export type SignInDoor = ReturnType<typeof createSignInDoor>;
