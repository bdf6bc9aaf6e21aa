import { errors as joseErrors, jwtVerify } from 'jose';
import type { Role } from '../../../../shared/roles.ts';
import type { UserRow } from '../identityTables.ts';
import type { SessionsStore } from '../stores/sessionsStore.ts';
import type { SigningKeys } from '../stores/signingKeys.ts';

export type IdTokenErrorCode = 'INVALID_ID_TOKEN' | 'TOKEN_EXPIRED' | 'USER_NOT_FOUND' | 'USER_DISABLED';

/** Why an ID token was refused; `code` is the protocol error code. */
export class IdTokenError extends Error {
  override name = 'IdTokenError';
  readonly code: IdTokenErrorCode;
  constructor(code: IdTokenErrorCode) {
    super(code);
    this.code = code;
  }
}

export interface VerifiedUser {
  uid: string;
  email: string;
  displayName: string | null;
  emailVerified: boolean;
  /** The account's role now (the database's, not the token's claim). */
  role: Role;
  /** Whether a second factor (two-step verification) is enrolled now. */
  twoStepOn: boolean;
}

export interface VerifiedToken {
  user: UserRow;
  /** Whether the account has a second factor enrolled, read with the account. */
  twoStepOn: boolean;
  /** The session the token belongs to. */
  sessionId: string;
  /** Epoch milliseconds of the sign-in behind this token. */
  authTime: number;
  /** How that sign-in was made (`firebase.sign_in_provider`). */
  provider: string;
}

/**
 * How far ahead of this server's clock a token's `iat` may be: copies of the server on other
 * machines may run a little fast. Anything later was not issued by a healthy copy.
 */
export const ISSUED_AT_CLOCK_SKEW_SECONDS = 5;

/** A database failure while finding the key: a server error, not a bad token. */
class KeyLookupFailure extends Error {}

/** Checks signature, alg, kid, iss, aud, expiry, issue time, the session, and the account's current state. */
export function createIdTokenVerifier(deps: {
  keys: SigningKeys;
  sessions: SessionsStore;
  issuer: string;
  audience: string;
  now: () => number;
}) {
  const lookUpKey = (kid: string) =>
    deps.keys.forKid(kid).catch((error: unknown) => {
      throw new KeyLookupFailure('signing key lookup failed', { cause: error });
    });
  return async function verify(idToken: unknown): Promise<VerifiedToken> {
    if (typeof idToken !== 'string' || idToken.length === 0 || idToken.length > 8192) {
      throw new IdTokenError('INVALID_ID_TOKEN');
    }
    let payload;
    try {
      ({ payload } = await jwtVerify(
        idToken,
        async (header) => {
          const key = typeof header.kid === 'string' ? await lookUpKey(header.kid) : undefined;
          if (!key) throw new IdTokenError('INVALID_ID_TOKEN');
          return key.publicKey;
        },
        {
          algorithms: ['RS256'],
          issuer: deps.issuer,
          audience: deps.audience,
          currentDate: new Date(deps.now()),
          requiredClaims: ['sub', 'sid', 'iat', 'exp', 'auth_time'],
        },
      ));
    } catch (error) {
      if (error instanceof KeyLookupFailure) throw error.cause;
      if (error instanceof joseErrors.JWTExpired) throw new IdTokenError('TOKEN_EXPIRED');
      throw new IdTokenError('INVALID_ID_TOKEN');
    }
    const { sub, sid, iat, auth_time: authTime } = payload;
    const provider = (payload.firebase as { sign_in_provider?: unknown } | undefined)?.sign_in_provider;
    if (typeof sub !== 'string' || typeof sid !== 'string' || typeof iat !== 'number' || typeof authTime !== 'number') {
      throw new IdTokenError('INVALID_ID_TOKEN');
    }
    if (iat > deps.now() / 1000 + ISSUED_AT_CLOCK_SKEW_SECONDS) throw new IdTokenError('INVALID_ID_TOKEN');
    const found = await deps.sessions.findUserWithSession(sub, sid);
    if (!found) throw new IdTokenError('USER_NOT_FOUND');
    if (found.user.disabled === 1) throw new IdTokenError('USER_DISABLED');
    // Signed out, or ended by a password change, reset or email recovery: so is every token of it.
    if (!found.sessionLive) throw new IdTokenError('TOKEN_EXPIRED');
    return {
      user: found.user,
      twoStepOn: found.twoStepOn,
      sessionId: sid,
      authTime: authTime * 1000,
      provider: typeof provider === 'string' ? provider : 'password',
    };
  };
}

export function toVerifiedUser({ user, twoStepOn }: Pick<VerifiedToken, 'user' | 'twoStepOn'>): VerifiedUser {
  return {
    twoStepOn,
    uid: user.id,
    email: user.email,
    displayName: user.display_name,
    emailVerified: user.email_verified === 1,
    role: user.role,
  };
}
