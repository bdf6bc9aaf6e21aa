import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import * as oidc from 'openid-client';
import { z } from 'zod';
import type {
  ProviderLinkStartResponse,
  ProviderSignInError,
  SignInProvidersResponse,
} from '../../../shared/providerSignIn.ts';
import { SIGNED_IN_COOKIE, SIGNED_IN_COOKIE_MAX_AGE_SECONDS } from '../../../shared/signedInCookie.ts';
import type { Config } from '../../config.ts';
import type { RateLimiter } from '../../rateLimit/rateLimiter.ts';
import type { IdentityCore } from '../core/identityCore.ts';
import { IdentityError } from '../core/identityErrors.ts';
import { consumeOrThrow, identityRateLimitRules } from '../core/identityRateLimits.ts';
import { ProtocolError } from '../protocol/protocolErrors.ts';
import { parseBody } from '../protocol/requestSchemas.ts';
import { setSessionCookie } from '../protocol/sessionCookie.ts';
import { originOf } from '../protocol/sessionDelivery.ts';
import { sameOriginPath } from './continuePath.ts';
import { PENDING_SIGN_IN_LIFETIME_MS, type PendingSignIns } from './pendingSignIns.ts';
import type { ProviderRegistry } from './providerRegistry.ts';
import type { RelyingParty } from './relyingParty.ts';
import { paths } from '../../../shared/routes.ts';

/**
 * Binds a browser flow to the browser that started it. Lax, not Strict: the provider sends the
 * person back with a top-level navigation from its own site, which Strict cookies do not follow.
 */
const STATE_COOKIE = 'inkwell_oauth_state';
const STATE_COOKIE_PATH = '/identity/oauth';

const linkStartBody = z.object({
  idToken: z.string({ error: 'INVALID_ID_TOKEN' }).min(1, 'INVALID_ID_TOKEN'),
  continue: z.string({ error: 'INVALID_REQUEST' }).max(2000, 'INVALID_REQUEST').optional(),
});

/** The login page's `?error=` for a refusal of the core (or of the provider). */
function errorCodeOf(error: unknown): ProviderSignInError | undefined {
  if (!(error instanceof IdentityError)) return undefined;
  switch (error.code) {
    case 'INVALID_IDP_RESPONSE':
      if (error.detail?.includes('cannot be reached')) return 'provider_unavailable';
      if (error.detail?.includes('email address')) return 'no_email';
      if (error.detail?.includes('access_denied')) return 'cancelled';
      return 'provider_refused';
    case 'USER_DISABLED':
      return 'user_disabled';
    case 'TOO_MANY_ATTEMPTS_TRY_LATER':
      return 'too_many_attempts';
    case 'FEDERATED_USER_ID_ALREADY_LINKED':
      return 'already_linked';
    case 'PROVIDER_ALREADY_LINKED':
      return 'provider_already_linked';
    case 'USER_NOT_FOUND':
    case 'CREDENTIAL_TOO_OLD_LOGIN_AGAIN':
      return 'sign_in_again';
    case 'UNVERIFIED_EMAIL':
      return 'verify_first';
    // The sign-up policy refused a new account (src/server/roles/signUpPolicy.ts): this flow
    // carries no invitation, so any invitation refusal means one was needed.
    case 'ADMIN_ONLY_OPERATION':
      return error.detail === 'SIGNUP_CLOSED' ? 'signup_closed' : 'invitation_required';
    default:
      return undefined;
  }
}

/**
 * The browser flow at `/identity/oauth/{providerId}/start` and `/callback`: authorization code
 * with PKCE S256, `state` bound to a short-lived HttpOnly cookie and to a single-use pending row,
 * and a nonce. It ends in the same browser session a password sign-in makes in browser session
 * mode (the `inkwell_session` cookie), then goes to `continue` (a same-origin path). Failures go
 * to `/login?error=CODE`. `POST .../start` starts Connect for a signed-in person (the profile),
 * whose failures go back to `/profile?error=CODE`.
 */
export function oauthRoutes(deps: {
  core: IdentityCore;
  config: Config;
  providers: ProviderRegistry;
  pending: PendingSignIns;
  rateLimiter: RateLimiter;
}): FastifyPluginAsync {
  const { core, config, providers, pending, rateLimiter } = deps;
  const secure = config.publicUrl.startsWith('https:');
  const rules = identityRateLimitRules(config.rateLimits);

  /** Sign-in failures go to /login; a Connect (already signed in) back to the profile, which says the same. */
  const fail = (reply: FastifyReply, code: ProviderSignInError, connecting = false) => {
    reply.header('cache-control', 'no-store');
    return reply.redirect(`${connecting ? paths.profile : paths.login}?error=${code}`, 302);
  };

  /** Saves a pending sign-in, sets the state cookie, and answers the provider's authorization URL. */
  async function begin(
    request: FastifyRequest,
    reply: FastifyReply,
    party: RelyingParty,
    options: { continuePath: string; linkUserId: string | null },
  ): Promise<URL> {
    await consumeOrThrow(rateLimiter, [[rules.providerStartPerIp, request.ip]]);
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    // Asked first: a provider that cannot be reached leaves no pending row behind.
    const url = await party.authorizationUrl({ state, nonce, codeVerifier });
    await pending.save(state, {
      provider_id: party.providerId,
      code_verifier: codeVerifier,
      nonce,
      continue_path: options.continuePath,
      link_user_id: options.linkUserId,
    });
    reply.setCookie(STATE_COOKIE, state, {
      path: STATE_COOKIE_PATH,
      httpOnly: true,
      sameSite: 'lax',
      secure,
      maxAge: Math.floor(PENDING_SIGN_IN_LIFETIME_MS / 1000),
    });
    return url;
  }

  return async (app) => {
    app.get('/oauth/providers', async (): Promise<SignInProvidersResponse> => ({
      kind: 'inkwell#SignInProviders',
      providers: providers.list(),
    }));

    app.get<{ Params: { providerId: string }; Querystring: Record<string, unknown> }>(
      '/oauth/:providerId/start',
      async (request, reply) => {
        const party = providers.get(request.params.providerId);
        if (!party) return fail(reply, 'provider_unknown');
        try {
          const url = await begin(request, reply, party, {
            continuePath: sameOriginPath(request.query.continue, config.publicUrl),
            linkUserId: null,
          });
          reply.header('cache-control', 'no-store');
          return reply.redirect(url.href, 302);
        } catch (error) {
          const code = errorCodeOf(error);
          if (code === undefined) throw error;
          return fail(reply, code);
        }
      },
    );

    // Connect (the profile): the signed-in person's ID token says whom to link, with a recent sign-in.
    app.post<{ Params: { providerId: string } }>(
      '/oauth/:providerId/start',
      async (request, reply): Promise<ProviderLinkStartResponse> => {
        const body = parseBody(linkStartBody, request.body);
        const party = providers.get(request.params.providerId);
        if (!party) throw new ProtocolError('OPERATION_NOT_ALLOWED');
        const token = await core.verifyIdToken(body.idToken);
        core.recentSignIn.require(token);
        const url = await begin(request, reply, party, {
          continuePath: sameOriginPath(body.continue, config.publicUrl),
          linkUserId: token.user.id,
        });
        return { kind: 'inkwell#ProviderLinkStart', authUri: url.href };
      },
    );

    app.get<{ Params: { providerId: string }; Querystring: Record<string, unknown> }>(
      '/oauth/:providerId/callback',
      async (request, reply) => {
        const cookieState = request.cookies[STATE_COOKIE];
        reply.clearCookie(STATE_COOKIE, { path: STATE_COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure });
        const state = request.query.state;
        // The state must be the one this browser was given, and still pending (single use).
        if (typeof state !== 'string' || state.length === 0 || state.length > 200 || cookieState !== state) {
          return fail(reply, 'state_invalid');
        }
        const started = await pending.take(state);
        const party = providers.get(request.params.providerId);
        if (!started || !party || started.provider_id !== party.providerId) return fail(reply, 'state_invalid');
        const connecting = started.link_user_id !== null;
        if (typeof request.query.error === 'string') {
          return fail(reply, request.query.error === 'access_denied' ? 'cancelled' : 'provider_refused', connecting);
        }
        try {
          const outcome = await core.federated.signIn(
            {
              providerId: party.providerId,
              verify: () =>
                party.exchangeCode(new URL(request.url, config.publicUrl), {
                  state,
                  nonce: started.nonce,
                  codeVerifier: started.code_verifier,
                }),
              linkTo: started.link_user_id === null ? undefined : { uid: started.link_user_id },
              autoCreate: true,
              // The browser's session cookie is SameSite=Strict: a navigation from the provider's site does not carry it.
              replaces: undefined,
            },
            originOf(request),
          );
          if (outcome.kind === 'needConfirmation') return fail(reply, 'account_exists', connecting);
          // The second step is entered after a password on /login; this redirect flow has no page for it.
          if (outcome.kind === 'pendingSecondStep') return fail(reply, 'two_step_required', connecting);
          // The same browser session a password sign-in makes in browser session mode.
          setSessionCookie(reply, outcome.session, secure);
          // Tells the app, which cannot read the HttpOnly session cookie, to ask for the session (finding 9).
          reply.setCookie(SIGNED_IN_COOKIE, '1', {
            path: '/',
            sameSite: 'lax',
            secure,
            maxAge: SIGNED_IN_COOKIE_MAX_AGE_SECONDS,
          });
          reply.header('cache-control', 'no-store');
          return reply.redirect(started.continue_path, 302);
        } catch (error) {
          const code = errorCodeOf(error);
          if (code === undefined) {
            request.log.error({ err: error }, 'provider sign-in failed');
            return fail(reply, 'server_error', connecting);
          }
          // An expected refusal (a policy, a person's choice), not a fault: no stack, below error level.
          request.log.info({ providerId: party.providerId, refusal: code }, 'provider sign-in refused');
          return fail(reply, code, connecting);
        }
      },
    );
  };
}
