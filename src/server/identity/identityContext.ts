import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import type { Mailer, MailMessage } from '../mail/mailer.ts';
import type { RateLimiter } from '../rateLimit/rateLimiter.ts';
import type { DeliveryTimingMask } from './deliveryTimingMask.ts';
import { ID_TOKEN_LIFETIME_SECONDS, signIdToken, type SignInProvider } from './idTokens.ts';
import type { IdentityRateLimitRules } from './identityRateLimits.ts';
import type { OobCodesRepository } from './oobCodesRepository.ts';
import { isOpaqueSecretShaped } from './opaqueSecrets.ts';
import { ProtocolError } from './protocolErrors.ts';
import { isCookieMode, readSessionCookie, setSessionCookie } from './sessionCookie.ts';
import type { NewSession, SessionsRepository } from './sessionsRepository.ts';
import type { SigningKeys } from './signingKeys.ts';
import type { UserRow, UsersRepository } from './usersRepository.ts';
import { IdTokenError, type VerifiedToken } from './verifyIdToken.ts';

export type UserDeletingListener = (uid: string, trx: Transaction<DatabaseSchema>) => Promise<void>;

/** A password sign-in attempt's outcome; `code` is the protocol error code of a refusal. */
export type SignInOutcome = { ok: true } | { ok: false; code: string };

/** What identity tells the rest of the app (metrics) without knowing who listens. */
export interface IdentityEvents {
  signIn(outcome: SignInOutcome): void;
}

/** Everything the identity routes share. */
export interface IdentityContext {
  config: Config;
  database: Database;
  users: UsersRepository;
  sessions: SessionsRepository;
  oobCodes: OobCodesRepository;
  keys: SigningKeys;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  rules: IdentityRateLimitRules;
  deliveryMask: DeliveryTimingMask;
  userDeletingListeners: UserDeletingListener[];
  events: IdentityEvents;
  issuer: string;
  now: () => number;
  verifyToken(idToken: unknown): Promise<VerifiedToken>;
}

/** Verifies an ID token for a route, turning refusals into protocol errors. */
export async function requireUser(context: IdentityContext, idToken: unknown): Promise<VerifiedToken> {
  try {
    return await context.verifyToken(idToken);
  } catch (error) {
    if (error instanceof IdTokenError) throw new ProtocolError(error.code);
    throw error;
  }
}

/** Changing email or password and deleting the account need a recent password sign-in (default 5 minutes). */
export function requireRecentSignIn(context: IdentityContext, token: VerifiedToken): void {
  if (context.now() - token.authTime > context.config.recentSignInSeconds * 1000) {
    throw new ProtocolError('CREDENTIAL_TOO_OLD_LOGIN_AGAIN');
  }
}

export interface IssuedTokens {
  idToken: string;
  /** Present unless the client is in browser session mode (then it went into the cookie). */
  refreshToken?: string;
  expiresIn: string;
}

/**
 * The refresh token in the browser's session cookie that a new session is about to replace:
 * nobody holds that session any more once the cookie is overwritten (re-authentication, email
 * change, another account signing in on the same browser), so the caller ends it.
 */
export function replacedCookieSession(request: FastifyRequest): string | undefined {
  if (!isCookieMode(request)) return undefined;
  const replaced = readSessionCookie(request);
  return replaced !== undefined && isOpaqueSecretShaped(replaced) ? replaced : undefined;
}

/**
 * Signs an ID token for a fresh session and hands out its tokens the way the client wants them.
 * The caller has already ended the cookie session this one replaces (replacedCookieSession).
 */
export async function deliverTokens(
  context: IdentityContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  session: NewSession,
  authTime: number,
  signInProvider?: SignInProvider,
): Promise<IssuedTokens> {
  const { refreshToken } = session;
  const idToken = await signIdToken(context.keys, {
    issuer: context.issuer,
    audience: context.config.projectId,
    user,
    sessionId: session.id,
    authTime,
    now: context.now(),
    signInProvider,
  });
  const expiresIn = String(ID_TOKEN_LIFETIME_SECONDS);
  if (isCookieMode(request)) {
    setSessionCookie(reply, refreshToken, context.config.publicUrl.startsWith('https:'));
    return { idToken, expiresIn };
  }
  return { idToken, refreshToken, expiresIn };
}

/** Signs an ID token for a fresh session, ends the session its cookie replaces, and hands out the tokens. */
export async function issueTokens(
  context: IdentityContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  session: NewSession,
  authTime: number,
): Promise<IssuedTokens> {
  const replaced = replacedCookieSession(request);
  if (replaced !== undefined && replaced !== session.refreshToken) await context.sessions.revoke(replaced);
  return deliverTokens(context, request, reply, user, session, authTime);
}

/** Sends an email without holding up the response; failures are logged without the message body. */
export function sendInBackground(context: IdentityContext, log: FastifyBaseLogger, message: MailMessage, what: string) {
  context.mailer.send(message).catch((error: unknown) => {
    log.warn(
      { err: error instanceof Error ? { name: error.name, message: error.message } : error, what },
      'email not sent',
    );
  });
}
