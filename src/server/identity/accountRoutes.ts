import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { lookupUser, providerUserInfo } from './accountResponses.ts';
import { initialValidSince, validSinceAfterChange } from './idTokens.ts';
import { emailChangedNotice } from './identityEmails.ts';
import {
  deliverTokens,
  issueTokens,
  replacedCookieSession,
  requireRecentSignIn,
  requireUser,
  sendInBackground,
  type IdentityContext,
  type IssuedTokens,
} from './identityContext.ts';
import type { RateLimitRule } from '../rateLimit/rateLimiter.ts';
import { consumeOrThrow, emailKey } from './identityRateLimits.ts';
import { newId } from './opaqueSecrets.ts';
import { checkPassword, hashPassword, verifyAgainstDummyHash } from './passwordHashing.ts';
import { ProtocolError } from './protocolErrors.ts';
import { checkPasswordStrength, idTokenBody, parseBody, signInBody, signUpBody, updateBody } from './requestSchemas.ts';
import { clearSessionCookie, isCookieMode } from './sessionCookie.ts';
import type { NewSession } from './sessionsRepository.ts';
import { deleteUserEverywhere } from './userDeletion.ts';
import { EmailTakenError, type UserRow } from './usersRepository.ts';

/** Sign-up, sign-in, lookup, update and delete. */
export function accountRoutes(context: IdentityContext): FastifyPluginAsync {
  const { config, users, sessions, rateLimiter, rules } = context;

  return async (app) => {
    app.post('/v1/accounts::signUp', async (request, reply) => {
      const body = parseBody(signUpBody, request.body);
      checkPasswordStrength(body.password, config.passwordMinLength);
      await consumeOrThrow(rateLimiter, [[rules.signUpPerIp, request.ip]]);
      const now = context.now();
      const user: UserRow = {
        id: newId(21),
        email: body.email,
        password_hash: await hashPassword(body.password),
        display_name: body.displayName ? body.displayName : null,
        photo_url: null,
        email_verified: 0,
        disabled: 0,
        created_at: now,
        last_login_at: now,
        password_updated_at: now,
        valid_since: initialValidSince(now),
      };
      const replaced = replacedCookieSession(request);
      let session: NewSession;
      try {
        // One transaction: a client told that sign-up failed must not leave an account behind.
        session = await context.database.db.transaction().execute(async (trx) => {
          await users.insert(user, trx);
          if (replaced !== undefined) await sessions.revoke(replaced, trx);
          return sessions.create(user.id, now, now, trx);
        });
      } catch (error) {
        if (error instanceof EmailTakenError) throw new ProtocolError('EMAIL_EXISTS');
        throw error;
      }
      // Signed after the writes, not alongside them: see "Sign-in and sign-up split" in bench/README.md.
      const tokens = await deliverTokens(context, request, reply, user, session, now);
      return {
        kind: 'identitytoolkit#SignupNewUserResponse',
        localId: user.id,
        email: user.email,
        displayName: user.display_name ?? '',
        ...tokens,
      };
    });

    app.post('/v1/accounts::signInWithPassword', async (request, reply) => {
      try {
        const answer = await signIn(request, reply);
        context.events.signIn({ ok: true });
        return answer;
      } catch (error) {
        context.events.signIn({ ok: false, code: error instanceof ProtocolError ? error.code : 'INTERNAL_ERROR' });
        throw error;
      }
    });

    const signIn = async (request: FastifyRequest, reply: FastifyReply) => {
      const body = parseBody(signInBody, request.body);
      const perEmail: [RateLimitRule, string] = [rules.signInPerEmail, emailKey(body.email)];
      const perIp: [RateLimitRule, string] = [rules.signInPerIp, request.ip];
      // Counted before the password is checked (both counters in one statement): parallel
      // guesses must not all slip past a check that only counted failures once they had happened.
      // The user is read meanwhile; nothing about it is revealed before the count refuses or not.
      const [, user] = await Promise.all([
        consumeOrThrow(rateLimiter, [perEmail, perIp]),
        users.findByEmail(body.email),
      ]);
      // Unknown emails cost one argon2 verification too, so timing does not reveal accounts.
      const checked = user
        ? await checkPassword(user.password_hash, body.password)
        : { ok: await verifyAgainstDummyHash(body.password), needsRehash: false };
      if (!user || !checked.ok) throw new ProtocolError('INVALID_LOGIN_CREDENTIALS');
      const { db } = context.database;
      // The limits are on failures: the right password clears this email's earlier typos
      // and does not use up the address's allowance.
      const forgive = { reset: [perEmail], refund: [perIp] };
      if (user.disabled === 1) {
        await rateLimiter.settle(forgive);
        throw new ProtocolError('USER_DISABLED');
      }
      const now = context.now();
      const replaced = replacedCookieSession(request);
      // A hash imported from Firebase becomes argon2id in the sign-in's own transaction.
      const rehashed = checked.needsRehash ? await hashPassword(body.password) : undefined;
      const session = await db.transaction().execute(async (trx) => {
        await users.update(user.id, { last_login_at: now }, trx);
        if (rehashed !== undefined) await users.replacePasswordHash(user.id, user.password_hash, rehashed, trx);
        if (replaced !== undefined) await sessions.revoke(replaced, trx);
        const created = await sessions.create(user.id, now, now, trx);
        // Last, so the counters' rows (shared by every sign-in from this address) stay locked
        // only until the commit right after; settle() takes them in the order consumes do.
        await rateLimiter.settle(forgive, trx);
        return created;
      });
      const tokens = await deliverTokens(context, request, reply, user, session, now);
      return {
        kind: 'identitytoolkit#VerifyPasswordResponse',
        localId: user.id,
        email: user.email,
        displayName: user.display_name ?? '',
        ...tokens,
        registered: true,
      };
    };

    app.post('/v1/accounts::lookup', async (request) => {
      const body = parseBody(idTokenBody, request.body);
      const { user } = await requireUser(context, body.idToken);
      return { kind: 'identitytoolkit#GetAccountInfoResponse', users: [lookupUser(user)] };
    });

    app.post('/v1/accounts::update', async (request, reply) => {
      const body = parseBody(updateBody, request.body);
      const token = await requireUser(context, body.idToken);
      const { user } = token;
      const changesEmail = body.email !== undefined && body.email !== user.email;
      const changesPassword = body.password !== undefined;
      if (changesEmail || changesPassword) requireRecentSignIn(context, token);
      if (body.password !== undefined) checkPasswordStrength(body.password, config.passwordMinLength);

      const now = context.now();
      const changes: Partial<UserRow> = {};
      if (body.displayName !== undefined) changes.display_name = body.displayName === '' ? null : body.displayName;
      if (body.photoUrl !== undefined) changes.photo_url = body.photoUrl === '' ? null : body.photoUrl;
      for (const attribute of body.deleteAttribute ?? []) {
        if (attribute === 'DISPLAY_NAME') changes.display_name = null;
        if (attribute === 'PHOTO_URL') changes.photo_url = null;
      }
      if (changesEmail) {
        changes.email = body.email;
        changes.email_verified = 0;
      }
      if (body.password !== undefined) {
        changes.password_hash = await hashPassword(body.password);
        changes.password_updated_at = now;
        changes.valid_since = validSinceAfterChange(now, user.valid_since);
      }

      let session: NewSession | undefined;
      try {
        session = await context.database.db.transaction().execute(async (trx) => {
          if (Object.keys(changes).length > 0) await users.update(user.id, changes, trx);
          // A new password or address ends every other session (docs/product.md, Rules); the caller
          // goes on in a fresh one.
          if (changesEmail || changesPassword) await sessions.revokeAllOfUser(user.id, trx);
          if (changesEmail || changesPassword) return sessions.create(user.id, token.authTime, now, trx);
          return undefined;
        });
      } catch (error) {
        if (error instanceof EmailTakenError) throw new ProtocolError('EMAIL_EXISTS');
        throw error;
      }
      const updated: UserRow = { ...user, ...changes };
      if (changesEmail) {
        sendInBackground(
          context,
          request.log,
          emailChangedNotice({ to: user.email, newEmail: updated.email, publicUrl: config.publicUrl }),
          'email change notice',
        );
      }
      let tokens: IssuedTokens | Record<string, never> = {};
      if (session !== undefined) {
        tokens = await issueTokens(context, request, reply, updated, session, token.authTime);
      }
      return {
        kind: 'identitytoolkit#SetAccountInfoResponse',
        localId: updated.id,
        email: updated.email,
        ...(updated.display_name !== null ? { displayName: updated.display_name } : {}),
        ...(updated.photo_url !== null ? { photoUrl: updated.photo_url } : {}),
        providerUserInfo: providerUserInfo(updated),
        emailVerified: updated.email_verified === 1,
        ...tokens,
      };
    });

    app.post('/v1/accounts::delete', async (request, reply) => {
      const body = parseBody(idTokenBody, request.body);
      const token = await requireUser(context, body.idToken);
      requireRecentSignIn(context, token);
      await deleteUserEverywhere(context, token.user.id);
      if (isCookieMode(request)) clearSessionCookie(reply, config.publicUrl.startsWith('https:'));
      return { kind: 'identitytoolkit#DeleteAccountResponse' };
    });
  };
}
