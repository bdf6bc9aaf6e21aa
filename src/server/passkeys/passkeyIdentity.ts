import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * All the passkeys feature needs from identity, and nothing more: app.ts adapts identity to it.
 * Every method that refuses throws the protocol error the client gets (ProtocolError).
 */
export interface PasskeyIdentity {
  /** The signed-in caller behind an ID token; refuses bad, expired or ended tokens and disabled accounts. */
  verifyIdToken(
    idToken: unknown,
  ): Promise<{ uid: string; email: string; displayName: string | null; authTime: number }>;
  /** Whether a sign-in at `authTime` (epoch ms) is recent enough to add a passkey (RECENT_SIGN_IN_SECONDS). */
  isRecentSignIn(authTime: number): boolean;
  findAccount(uid: string): Promise<{ uid: string; email: string; disabled: boolean } | undefined>;
  /** Counts a sign-in attempt against the sign-in rate limits (per IP, and per account when known). */
  countSignInAttempt(request: FastifyRequest, email: string | undefined): Promise<PasskeySignInAttempt>;
  /** Ends these sessions of the user (the ones a removed passkey opened); others' ids are ignored. */
  endSessions(uid: string, sessionIds: string[]): Promise<void>;
  /**
   * Starts a session for a verified passkey, answered like signInWithPassword (browser session mode
   * included); refuses a disabled account; the ID token says sign_in_provider "passkey".
   */
  issueSession(options: {
    uid: string;
    attempt: PasskeySignInAttempt;
    request: FastifyRequest;
    reply: FastifyReply;
  }): Promise<object>;
}

/** Opaque to passkeys: handed back to issueSession, which forgives the attempt on success. */
export type PasskeySignInAttempt = object;
