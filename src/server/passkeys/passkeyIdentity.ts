import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { IdentityErrorCode } from '../../shared/identityProtocol.ts';

/**
 * All the passkeys feature needs from identity, and nothing more: services.ts adapts identity's
 * sign-in door to it. The routes run inside identity's `/identity` scope, which answers every
 * error (a `refusal`, a bad body, an unexpected failure) as protocol JSON.
 */
export interface PasskeyIdentity {
  /** The signed-in caller behind an ID token; refuses bad, expired or ended tokens and disabled accounts. */
  verifyIdToken(
    idToken: unknown,
  ): Promise<{ uid: string; email: string; displayName: string | null; emailVerified: boolean; authTime: number }>;
  /** Whether a sign-in at `authTime` (epoch ms) is recent enough to add a passkey (RECENT_SIGN_IN_SECONDS). */
  isRecentSignIn(authTime: number): boolean;
  findAccount(uid: string): Promise<{ uid: string; email: string; disabled: boolean } | undefined>;
  /** Ends these sessions of the user (the ones a removed passkey opened); others' ids are ignored. */
  endSessions(uid: string, sessionIds: string[]): Promise<void>;
  /**
   * One sign-in attempt by identity's rules (counted before `check`, forgiven when it succeeds,
   * disabled accounts refused, a second step when the account has one), answered like
   * signInWithPassword; the ID token says sign_in_provider "passkey". `check` verifies the
   * passkey and returns the uid it proves; `account` is the owner's email when known.
   */
  signIn(
    request: FastifyRequest,
    reply: FastifyReply,
    factor: { account: string | undefined; check(): Promise<string> },
  ): Promise<object>;
  /** The error to throw to refuse a request (400 protocol JSON with this code). */
  refusal(code: IdentityErrorCode, options?: { detail?: string; retryAfterSeconds?: number }): Error;
  /** Parses a body with a schema whose issue messages are protocol error codes; throws the refusal. */
  parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T>;
}
