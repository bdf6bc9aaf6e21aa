import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { IdentityCore } from '../core/identityCore.ts';
import type { FederatedSignInOutcome, ProviderIdentity } from '../core/signIn/federatedSignIn.ts';
import { ProtocolError } from '../protocol/protocolErrors.ts';
import { parseBody } from '../protocol/requestSchemas.ts';
import { accountWithTokens, originOf, signInAnswer, type SessionDelivery } from '../protocol/sessionDelivery.ts';
import type { ProviderRegistry } from './providerRegistry.ts';
import { hashedNonce } from './relyingParty.ts';

const signInWithIdpBody = z.object({
  // The SDK sends 'http://localhost' here; the provider's answer is in postBody.
  requestUri: z.string({ error: 'INVALID_REQUEST' }).max(2048, 'INVALID_REQUEST').optional(),
  postBody: z.string({ error: 'INVALID_IDP_RESPONSE' }).max(32_768, 'INVALID_IDP_RESPONSE').optional(),
  idToken: z.string({ error: 'INVALID_ID_TOKEN' }).min(1, 'INVALID_ID_TOKEN').optional(),
  // false from the SDK's reauthenticateWithCredential: sign in to an existing account only.
  autoCreate: z.boolean({ error: 'INVALID_REQUEST' }).optional(),
});

/** What the person's provider said about them, as Firebase hands it back (a JSON string). */
function rawUserInfo(identity: ProviderIdentity): string {
  return JSON.stringify({
    sub: identity.subject,
    ...(identity.email !== undefined ? { email: identity.email, email_verified: identity.emailVerified } : {}),
    ...(identity.displayName !== null ? { name: identity.displayName } : {}),
    ...(identity.photoUrl !== null ? { picture: identity.photoUrl } : {}),
  });
}

/**
 * `accounts:signInWithIdp`: a provider's ID token (obtained by the client itself, e.g. Google's
 * button, or the SDK's `OAuthProvider(ID).credential({idToken, rawNonce})`) signs in, links
 * (with `idToken`), or re-authenticates (`autoCreate: false`), under the core's matching rules.
 */
export function signInWithIdpRoute(
  core: IdentityCore,
  providers: ProviderRegistry,
  delivery: SessionDelivery,
): FastifyPluginAsync {
  return async (app) => {
    app.post('/v1/accounts::signInWithIdp', async (request, reply) => {
      const body = parseBody(signInWithIdpBody, request.body);
      const post = new URLSearchParams(body.postBody ?? '');
      const providerId = post.get('providerId') ?? '';
      const party = providers.get(providerId);
      if (!party)
        throw new ProtocolError('OPERATION_NOT_ALLOWED', { detail: `${providerId || 'No provider'} is not enabled.` });
      const providerIdToken = post.get('id_token');
      if (providerIdToken === null) {
        throw new ProtocolError('INVALID_IDP_RESPONSE', { detail: 'Only a provider ID token (id_token) is accepted.' });
      }
      const rawNonce = post.get('nonce');
      const linkTo = body.idToken === undefined ? undefined : { token: await core.verifyIdToken(body.idToken) };
      const outcome: FederatedSignInOutcome = await core.federated.signIn(
        {
          providerId: party.providerId,
          verify: () => party.verifyIdToken(providerIdToken, rawNonce === null ? undefined : hashedNonce(rawNonce)),
          linkTo,
          autoCreate: body.autoCreate ?? true,
          replaces: delivery.replaced(request),
        },
        originOf(request),
      );
      const { identity } = outcome;
      const about = {
        kind: 'identitytoolkit#VerifyAssertionResponse',
        providerId: identity.providerId,
        federatedId: identity.subject,
        rawUserInfo: rawUserInfo(identity),
        oauthIdToken: providerIdToken,
      };
      if (outcome.kind === 'needConfirmation') {
        // The SDK's auth/account-exists-with-different-credential: no session; sign in, then link.
        return { ...about, needConfirmation: true, email: outcome.email };
      }
      // Two-step sign-in: Firebase's mfaPendingCredential and mfaInfo, no token yet.
      if (outcome.kind === 'pendingSecondStep')
        return { ...about, ...signInAnswer(delivery, request, reply, outcome.result) };
      const { session } = outcome;
      return {
        ...about,
        ...accountWithTokens(delivery, request, reply, session),
        emailVerified: session.user.email_verified === 1,
        ...(session.user.photo_url !== null ? { photoUrl: session.user.photo_url } : {}),
        isNewUser: outcome.isNewUser,
      };
    });
  };
}
