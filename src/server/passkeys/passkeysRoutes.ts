import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticatorTransport,
} from '@simplewebauthn/server';
import { decodeJwt } from 'jose';
import type { FastifyPluginAsync } from 'fastify';
import type { PasskeyListResponse, PasskeyView } from '../../shared/passkeyProtocol.ts';
import type { RateLimiter, RateLimitRule } from '../rateLimit/rateLimiter.ts';
import { challengedVerification } from './challengedVerification.ts';
import { ChallengesFullError, type ChallengeStore } from './challengeStore.ts';
import type { PasskeyIdentity } from './passkeyIdentity.ts';
import {
  finishRegistrationBody,
  finishSignInBody,
  idTokenBody,
  removeBody,
  renameBody,
  startSignInBody,
} from './passkeySchemas.ts';
import type { PasskeyRow, PasskeysRepository } from './passkeysRepository.ts';
import type { RelyingParty } from './relyingParty.ts';
import { uniquePasskeyName } from './passkeyNames.ts';

export interface PasskeysRoutesDeps {
  identity: PasskeyIdentity;
  passkeys: PasskeysRepository;
  challenges: ChallengeStore;
  relyingParty: RelyingParty;
  rateLimiter: RateLimiter;
  /** Sign-in ceremonies one client IP may start per 15 minutes. */
  signInStartsPerIp: number;
  now: () => number;
}

const DEFAULT_NAME = 'Passkey';

/**
 * EdDSA, ES256 and RS256, named here: left to its default the library also asks the runtime
 * about post-quantum ML-DSA, which Node answers with an experimental-feature warning on stderr.
 */
const SUPPORTED_ALGORITHMS = [-8, -7, -257];

function view(row: PasskeyRow): PasskeyView {
  return {
    credentialId: row.id,
    name: row.name,
    createdAt: String(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : String(row.last_used_at),
  };
}

const transportsOf = (row: PasskeyRow) => JSON.parse(row.transports) as AuthenticatorTransport[];

/** The user handle a passkey carries is the uid's bytes: the browser hands it back on sign-in. */
const userHandleOf = (uid: string) => new TextEncoder().encode(uid);

/**
 * `/identity/v1/passkeys:*`: start and finish a registration, list, rename, remove, start and
 * finish a sign-in. Registered inside identity's `/identity` scope (identity.addDoor), whose
 * body parsers, session cookie, no-store header and protocol error answers they share.
 */
export function passkeysRoutes(deps: PasskeysRoutesDeps): FastifyPluginAsync {
  const { identity, passkeys, challenges, relyingParty: rp, now } = deps;
  const { parseBody } = identity;
  // Each start writes a challenge row: anonymous writes are limited per client, as sign-ins are.
  const signInStartsPerIp: RateLimitRule = {
    name: 'passkeys:startSignIn:ip',
    limit: deps.signInStartsPerIp,
    windowMs: 15 * 60 * 1000,
  };

  return async (app) => {
    app.post('/v1/passkeys::startRegistration', async (request) => {
      const body = parseBody(idTokenBody, request.body);
      const caller = await identity.verifyIdToken(body.idToken);
      // Adding a way in needs the person to have proved themselves lately, as a password change does.
      if (!identity.isRecentSignIn(caller.authTime)) throw identity.refusal('CREDENTIAL_TOO_OLD_LOGIN_AGAIN');
      // Only on a verified address: a passkey added by whoever registered someone else's address
      // first would outlive its owner's password reset (docs/security.md, Whose account it is).
      if (!caller.emailVerified) throw identity.refusal('UNVERIFIED_EMAIL');
      const existing = await passkeys.listOfUser(caller.uid);
      const options = await generateRegistrationOptions({
        rpName: rp.name,
        rpID: rp.id,
        userName: caller.email,
        userID: userHandleOf(caller.uid),
        userDisplayName: caller.displayName ?? caller.email,
        attestationType: 'none',
        supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
        // The authenticator keeps the passkey (discoverable), so sign-in needs no email first.
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
        excludeCredentials: existing.map((row) => ({ id: row.id, transports: transportsOf(row) })),
      });
      await challenges.save(options.challenge, 'registration', caller.uid);
      return { kind: 'inkwell#PasskeyOptions', options };
    });

    app.post('/v1/passkeys::finishRegistration', async (request) => {
      const body = parseBody(finishRegistrationBody, request.body);
      // Recency was checked when the challenge was given: bound to this account and single use, it
      // is the permission for its five minutes (the browser's prompt may take a while).
      const caller = await identity.verifyIdToken(body.idToken);
      // The address may have changed since the challenge was given.
      if (!caller.emailVerified) throw identity.refusal('UNVERIFIED_EMAIL');
      const result = await challengedVerification(
        deps,
        'registration',
        (taken) => taken?.userId === caller.uid,
        (expectedChallenge) =>
          verifyRegistrationResponse({
            response: body.credential,
            expectedChallenge,
            expectedOrigin: rp.origin,
            expectedRPID: rp.id,
            requireUserVerification: true,
            supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
          }),
      );
      if (!result.verified) throw identity.refusal('INVALID_PASSKEY');
      const { credential } = result.registrationInfo;
      const row: PasskeyRow = {
        id: credential.id,
        user_id: caller.uid,
        public_key: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: JSON.stringify(credential.transports ?? []),
        name: uniquePasskeyName(
          body.name ?? DEFAULT_NAME,
          (await passkeys.listOfUser(caller.uid)).map((existing) => existing.name),
        ),
        created_at: now(),
        last_used_at: null,
      };
      if (!(await passkeys.insert(row))) throw identity.refusal('PASSKEY_EXISTS');
      return { kind: 'inkwell#Passkey', passkey: view(row) };
    });

    app.post('/v1/passkeys::list', async (request): Promise<PasskeyListResponse> => {
      const body = parseBody(idTokenBody, request.body);
      const caller = await identity.verifyIdToken(body.idToken);
      return { kind: 'inkwell#PasskeyList', passkeys: (await passkeys.listOfUser(caller.uid)).map(view) };
    });

    app.post('/v1/passkeys::rename', async (request) => {
      const body = parseBody(renameBody, request.body);
      const caller = await identity.verifyIdToken(body.idToken);
      if (!(await passkeys.rename(caller.uid, body.credentialId, body.name))) {
        throw identity.refusal('PASSKEY_NOT_FOUND');
      }
      return { kind: 'inkwell#Passkey' };
    });

    app.post('/v1/passkeys::remove', async (request) => {
      const body = parseBody(removeBody, request.body);
      const caller = await identity.verifyIdToken(body.idToken);
      // Its sessions end first: a failure between the two leaves the passkey, never its sessions.
      // The one asking stays signed in (it holds a live token and is on its profile page).
      const ownSession = decodeJwt(body.idToken).sid;
      const opened = await passkeys.sessionsOf(caller.uid, body.credentialId);
      await identity.endSessions(
        caller.uid,
        opened.filter((id) => id !== ownSession),
      );
      if (!(await passkeys.remove(caller.uid, body.credentialId))) throw identity.refusal('PASSKEY_NOT_FOUND');
      return { kind: 'inkwell#PasskeyRemoved' };
    });

    app.post('/v1/passkeys::startSignIn', async (request) => {
      const body = parseBody(startSignInBody, request.body);
      const counted = await deps.rateLimiter.consume(signInStartsPerIp, request.ip);
      if (!counted.allowed) {
        throw identity.refusal('TOO_MANY_ATTEMPTS_TRY_LATER', { retryAfterSeconds: counted.retryAfterSeconds });
      }
      // With an ID token it is a re-authentication: only the caller's own passkeys are offered and accepted.
      const caller = body.idToken === undefined ? undefined : await identity.verifyIdToken(body.idToken);
      const own = caller === undefined ? [] : await passkeys.listOfUser(caller.uid);
      const options = await generateAuthenticationOptions({
        rpID: rp.id,
        userVerification: 'required',
        allowCredentials: own.map((row) => ({ id: row.id, transports: transportsOf(row) })),
      });
      try {
        await challenges.save(options.challenge, 'sign-in', caller?.uid ?? null);
      } catch (error) {
        if (!(error instanceof ChallengesFullError)) throw error;
        // Too many ceremonies under way at once: the oldest expire within five minutes.
        throw identity.refusal('TOO_MANY_ATTEMPTS_TRY_LATER', { retryAfterSeconds: 60 });
      }
      return { kind: 'inkwell#PasskeyOptions', options };
    });

    app.post('/v1/passkeys::finishSignIn', async (request, reply) => {
      const body = parseBody(finishSignInBody, request.body);
      const stored = await passkeys.find(body.credential.id);
      const owner = stored && (await identity.findAccount(stored.user_id));
      // One sign-in attempt by identity's rules: counted before check() runs, like a password.
      const answer = await identity.signIn(request, reply, {
        account: owner?.email,
        check: async () => {
          const userHandle = body.credential.response.userHandle;
          const handleNamesOwner =
            userHandle === undefined ||
            (owner !== undefined && Buffer.from(userHandle, 'base64url').toString() === owner.uid);
          if (!stored || !owner || !handleNamesOwner) throw identity.refusal('PASSKEY_NOT_FOUND');
          const result = await challengedVerification(
            deps,
            'sign-in',
            // A re-authentication's challenge only accepts that account's passkeys.
            (taken) => taken !== undefined && (taken.userId === null || taken.userId === owner.uid),
            (expectedChallenge) =>
              verifyAuthenticationResponse({
                response: body.credential,
                expectedChallenge,
                expectedOrigin: rp.origin,
                expectedRPID: rp.id,
                credential: {
                  id: stored.id,
                  publicKey: new Uint8Array(Buffer.from(stored.public_key, 'base64url')),
                  counter: Number(stored.counter),
                  transports: transportsOf(stored),
                },
                requireUserVerification: true,
              }),
          );
          if (!result.verified) throw identity.refusal('INVALID_PASSKEY');
          await passkeys.recordUse(stored.id, result.authenticationInfo.newCounter, now());
          // Re-authentication must not turn into someone else's session.
          if (body.idToken !== undefined) {
            const caller = await identity.verifyIdToken(body.idToken);
            if (caller.uid !== owner.uid) throw identity.refusal('PASSKEY_NOT_FOUND');
          }
          return owner.uid;
        },
      });
      // The session's id is the ID token's `sid` (decision 0020): remembered so removing the passkey ends it.
      // (A pending second step has no ID token; passkeys need none, but the port does not say so.)
      const idToken = (answer as { idToken?: unknown }).idToken;
      const sessionId = typeof idToken === 'string' ? decodeJwt(idToken).sid : undefined;
      if (stored && owner && typeof sessionId === 'string' && !(await passkeys.recordSession(stored.id, sessionId))) {
        // The passkey was removed while this sign-in finished: the session it opened ends with it.
        await identity.endSessions(owner.uid, [sessionId]);
        throw identity.refusal('PASSKEY_NOT_FOUND');
      }
      return answer;
    });
  };
}
