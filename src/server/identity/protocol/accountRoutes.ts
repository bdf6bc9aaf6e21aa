import type { FastifyPluginAsync } from 'fastify';
import type { IdentityCore } from '../core/identityCore.ts';
import type { FederatedIdentityRow, UserRow } from '../core/identityTables.ts';
import { lookupUser, providerUserInfo } from './accountResponses.ts';
import { randomBytes } from 'node:crypto';
import {
  applyOobCodeBody,
  createAuthUriBody,
  idTokenBody,
  parseBody,
  signInBody,
  signUpBody,
  updateBody,
} from './requestSchemas.ts';
import { ProtocolError } from './protocolErrors.ts';
import { clearSessionCookie, isCookieMode } from './sessionCookie.ts';
import { accountWithTokens, mfaEnrollment, originOf, signInAnswer, type SessionDelivery } from './sessionDelivery.ts';

/** Sign-up, sign-in, lookup, update and delete. */
export function accountRoutes(core: IdentityCore, delivery: SessionDelivery): FastifyPluginAsync {
  const { accounts } = core;

  return async (app) => {
    app.post('/v1/accounts::signUp', async (request, reply) => {
      const body = parseBody(signUpBody, request.body);
      const issued = await accounts.signUp({ ...body, replaces: delivery.replaced(request) }, originOf(request));
      return {
        kind: 'identitytoolkit#SignupNewUserResponse',
        ...accountWithTokens(delivery, request, reply, issued),
      };
    });

    app.post('/v1/accounts::signInWithPassword', async (request, reply) => {
      const body = parseBody(signInBody, request.body);
      const result = await accounts.signInWithPassword(
        { ...body, replaces: delivery.replaced(request) },
        originOf(request),
      );
      return signInAnswer(delivery, request, reply, result);
    });

    app.post('/v1/accounts::lookup', async (request) => {
      const body = parseBody(idTokenBody, request.body);
      const { user } = await core.verifyIdToken(body.idToken);
      const links = await core.signInMethods.linksOf(user.id);
      const factors = await core.secondStep.enrolled(user.id);
      return {
        kind: 'identitytoolkit#GetAccountInfoResponse',
        users: [{ ...lookupUser(user, links), ...(factors.length > 0 ? { mfaInfo: factors.map(mfaEnrollment) } : {}) }],
      };
    });

    app.post('/v1/accounts::update', async (request, reply) => {
      // With an action code, this applies the code (the SDK's applyActionCode); an ID token
      // beside it names the account the browser is signed in to, which may claim the address.
      if (hasOobCode(request.body)) {
        const { oobCode, idToken } = parseBody(applyOobCodeBody, request.body);
        // A stale or foreign token only means no claim: the link still verifies.
        const claimant = idToken === undefined ? undefined : await core.verifyIdToken(idToken).catch(() => undefined);
        const applied = await core.emailActions.apply(oobCode, originOf(request), claimant);
        return updateAnswer(applied, await core.signInMethods.linksOf(applied.id));
      }
      // Neither an ID token nor an action code: Firebase's answer for a request it cannot place.
      if (!hasField(request.body, 'idToken')) {
        throw new ProtocolError('INVALID_REQ_TYPE', { detail: 'Unsupported request parameters.' });
      }
      const body = parseBody(updateBody, request.body);
      let token = await core.verifyIdToken(body.idToken);
      // Unlinking (the SDK's unlink): never the last way to sign in.
      if (body.deleteProvider !== undefined) {
        token = { ...token, user: (await core.signInMethods.remove(token, body.deleteProvider)).user };
      }
      const deleted = new Set(body.deleteAttribute ?? []);
      const { user, session } = await accounts.update(
        token,
        {
          email: body.email,
          password: body.password,
          displayName: deleted.has('DISPLAY_NAME') ? null : body.displayName,
          photoUrl: deleted.has('PHOTO_URL') ? null : body.photoUrl,
        },
        { replaces: delivery.replaced(request) },
        originOf(request),
      );
      return {
        ...updateAnswer(user, await core.signInMethods.linksOf(user.id)),
        ...(session !== undefined ? delivery.deliver(request, reply, session) : {}),
      };
    });

    // The SDK's fetchSignInMethodsForEmail. Answered as a Firebase project with email enumeration
    // protection answers: the same for every address, registered or not, without looking it up
    // (no `registered`, no `signinMethods`; the SDK then resolves to []). Decision 0563.
    app.post('/v1/accounts::createAuthUri', async (request) => {
      parseBody(createAuthUriBody, request.body);
      return { kind: 'identitytoolkit#CreateAuthUriResponse', sessionId: randomBytes(18).toString('base64url') };
    });

    app.post('/v1/accounts::delete', async (request, reply) => {
      const body = parseBody(idTokenBody, request.body);
      await accounts.deleteAccount(await core.verifyIdToken(body.idToken));
      if (isCookieMode(request)) clearSessionCookie(reply, delivery.secure);
      return { kind: 'identitytoolkit#DeleteAccountResponse' };
    });
  };
}

/** The answer of accounts:update (displayName and photoUrl echoed when set). */
export function updateAnswer(user: UserRow, links: readonly FederatedIdentityRow[]) {
  return {
    kind: 'identitytoolkit#SetAccountInfoResponse',
    localId: user.id,
    email: user.email,
    ...(user.display_name !== null ? { displayName: user.display_name } : {}),
    ...(user.photo_url !== null ? { photoUrl: user.photo_url } : {}),
    providerUserInfo: providerUserInfo(user, links),
    emailVerified: user.email_verified === 1,
  };
}

function hasField(body: unknown, field: string): boolean {
  return typeof body === 'object' && body !== null && field in body;
}

function hasOobCode(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'oobCode' in body;
}
