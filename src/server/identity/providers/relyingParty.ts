import { createHash } from 'node:crypto';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import * as oidc from 'openid-client';
import { normalizeEmail } from '../../../shared/identityRequests.ts';
import type { ProviderIdentity } from '../core/signIn/federatedSignIn.ts';
import { IdentityError } from '../core/identityErrors.ts';
import type { IdentityProviderConfig } from '../../providersConfig.ts';
import { isUnstorableText } from '../../http/inputRules.ts';

/** How long a failed discovery is remembered: a provider that is down is not asked on every request. */
const DISCOVERY_RETRY_MS = 30_000;
/** The provider's keys are fetched again at most this often, however many unknown `kid`s arrive. */
export const DEFAULT_KEY_REFRESH_COOLDOWN_MS = 30_000;
/** Keys are re-read after this long even when every `kid` is known (a provider may withdraw one). */
const KEY_CACHE_MAX_AGE_MS = 10 * 60_000;
const PROVIDER_TIMEOUT_SECONDS = 10;
/** Asymmetric signatures only: an HS256 token "signed" with the public client secret proves nothing. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
const CLOCK_TOLERANCE_SECONDS = 30;

/** SHA-256 hex of a raw nonce: what Firebase clients put in the provider's `nonce` claim. */
export const hashedNonce = (rawNonce: string) => createHash('sha256').update(rawNonce).digest('hex');

const refused = (detail: string) => new IdentityError('INVALID_IDP_RESPONSE', { detail });

/**
 * Inkwell as an OpenID Connect relying party of one provider: discovery (once, lazily; a failure
 * is retried after a pause), the authorization request (code flow, PKCE S256) and the code
 * exchange through openid-client, and the ID token check through jose against the provider's
 * published keys, cached and fetched again on an unknown `kid` no more often than the cooldown.
 */
export function createRelyingParty(
  provider: IdentityProviderConfig,
  options: { redirectUri: string; keyRefreshCooldownMs: number; now: () => number },
) {
  const insecure = provider.issuer.startsWith('http:');
  let discovered:
    Promise<{ configuration: oidc.Configuration; keys: ReturnType<typeof createRemoteJWKSet> }> | undefined;
  let failedAt = -Infinity;

  async function discover() {
    const configuration = await oidc.discovery(
      new URL(provider.issuer),
      provider.clientId,
      { redirect_uris: [options.redirectUri] },
      provider.clientSecret === undefined ? oidc.None() : oidc.ClientSecretBasic(provider.clientSecret),
      // src/server/providersConfig.ts allowed http:// only for a provider on this machine.
      { timeout: PROVIDER_TIMEOUT_SECONDS, ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}) },
    );
    const jwksUri = configuration.serverMetadata().jwks_uri;
    if (jwksUri === undefined) throw new Error('the discovery document names no jwks_uri');
    const keys = createRemoteJWKSet(new URL(jwksUri), {
      cooldownDuration: options.keyRefreshCooldownMs,
      cacheMaxAge: KEY_CACHE_MAX_AGE_MS,
      timeoutDuration: PROVIDER_TIMEOUT_SECONDS * 1000,
    });
    return { configuration, keys };
  }

  /** The discovered provider; IdentityError PROVIDER_UNAVAILABLE-like INVALID_IDP_RESPONSE when it cannot be reached. */
  async function ready() {
    if (discovered === undefined) {
      if (Date.now() - failedAt < DISCOVERY_RETRY_MS) throw refused('The provider cannot be reached just now.');
      discovered = discover();
      discovered.catch(() => {
        failedAt = Date.now();
        discovered = undefined;
      });
    }
    try {
      return await discovered;
    } catch {
      throw refused('The provider cannot be reached just now.');
    }
  }

  /**
   * Checks an ID token from this provider: its signature against the provider's keys, `iss`,
   * `aud` = our client id, `exp`, and `nonce` when one is expected. Answers who it names.
   */
  async function verifyIdToken(idToken: string, expectedNonce: string | undefined): Promise<ProviderIdentity> {
    if (idToken.length === 0 || idToken.length > 16_384) throw refused('The ID token is missing or too long.');
    const { configuration, keys } = await ready();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(idToken, keys, {
        issuer: configuration.serverMetadata().issuer,
        audience: provider.clientId,
        algorithms: ALGORITHMS,
        currentDate: new Date(options.now()),
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['sub', 'exp', 'iat'],
      }));
    } catch (error) {
      throw refused(describeRefusal(error));
    }
    if (expectedNonce !== undefined && payload.nonce !== expectedNonce) throw refused('The nonce does not match.');
    return identityOf(provider.providerId, payload);
  }

  return {
    providerId: provider.providerId,
    name: provider.name,
    verifyIdToken,

    /** The provider's authorization URL for one browser sign-in (its state, nonce and PKCE challenge). */
    async authorizationUrl(request: { state: string; nonce: string; codeVerifier: string }): Promise<URL> {
      const { configuration } = await ready();
      return oidc.buildAuthorizationUrl(configuration, {
        redirect_uri: options.redirectUri,
        scope: 'openid email profile',
        response_type: 'code',
        state: request.state,
        nonce: request.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(request.codeVerifier),
        code_challenge_method: 'S256',
      });
    },

    /**
     * Exchanges the code the provider sent back (checking `state` and the PKCE verifier) and
     * verifies the ID token it answers with. `callbackUrl` is the request's URL under PUBLIC_URL.
     */
    async exchangeCode(
      callbackUrl: URL,
      pending: { state: string; nonce: string; codeVerifier: string },
    ): Promise<ProviderIdentity> {
      const { configuration } = await ready();
      let idToken: string | undefined;
      try {
        const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          pkceCodeVerifier: pending.codeVerifier,
          idTokenExpected: true,
        });
        idToken = tokens.id_token;
      } catch (error) {
        // The provider's own refusal (an error redirect, a code it does not accept) or a broken answer.
        const detail = error instanceof oidc.AuthorizationResponseError ? error.error : 'the code exchange failed';
        throw refused(`The provider refused: ${detail}.`);
      }
      if (idToken === undefined) throw refused('The provider sent no ID token.');
      return verifyIdToken(idToken, pending.nonce);
    },
  };
}

export type RelyingParty = ReturnType<typeof createRelyingParty>;

function describeRefusal(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return 'The ID token has expired.';
  if (error instanceof joseErrors.JWTClaimValidationFailed)
    return `The ID token's ${error.claim} claim is not accepted.`;
  if (error instanceof joseErrors.JWKSNoMatchingKey)
    return 'The ID token is signed with a key the provider does not publish.';
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return 'The ID token signature is not valid.';
  if (error instanceof joseErrors.JWKSTimeout || !(error instanceof joseErrors.JOSEError)) {
    return 'The provider keys could not be read.';
  }
  return 'The ID token is not valid.';
}

const MAX_NAME_LENGTH = 100;

/** The claims Inkwell keeps, each checked: a provider's free text must not break the account's rules. */
function identityOf(providerId: string, claims: JWTPayload): ProviderIdentity {
  const subject = claims.sub;
  if (typeof subject !== 'string' || subject.length === 0 || subject.length > 255) {
    throw refused('The ID token names no subject.');
  }
  // A subject is stored and looked up as sent: NUL or a lone surrogate could not be (decision 0561).
  if (isUnstorableText(subject)) throw refused('The ID token names a subject that cannot be stored.');
  const email =
    typeof claims.email === 'string' &&
    claims.email.length <= 254 &&
    !isUnstorableText(claims.email) &&
    /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u.test(claims.email)
      ? normalizeEmail(claims.email)
      : undefined;
  // Some providers send the flag as the string "true".
  const emailVerified = email !== undefined && (claims.email_verified === true || claims.email_verified === 'true');
  const name = typeof claims.name === 'string' ? claims.name.trim() : '';
  const displayName = name.length > 0 && name.length <= MAX_NAME_LENGTH && !isUnstorableText(name) ? name : null;
  const picture = typeof claims.picture === 'string' ? claims.picture : '';
  const photoUrl =
    picture.length <= 2048 && /^https?:\/\/[^\s\p{Cc}]+$/iu.test(picture) && URL.canParse(picture) ? picture : null;
  return { providerId, subject, email, emailVerified, displayName, photoUrl };
}
