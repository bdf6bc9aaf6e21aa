import { errors as joseErrors, jwtVerify } from 'jose';
import type { UserRow, UsersRepository } from './usersRepository.ts';
import type { SigningKeys } from './signingKeys.ts';

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
}

export interface VerifiedToken {
  user: UserRow;
  /** Epoch milliseconds of the password sign-in behind this token. */
  authTime: number;
}

/** A database failure while finding the key: a server error, not a bad token. */
class KeyLookupFailure extends Error {}

/** Checks signature, alg, kid, iss, aud, expiry, and the account's current state. */
export function createIdTokenVerifier(deps: {
  keys: SigningKeys;
  users: UsersRepository;
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
          requiredClaims: ['sub', 'iat', 'exp', 'auth_time'],
        },
      ));
    } catch (error) {
      if (error instanceof KeyLookupFailure) throw error.cause;
      if (error instanceof joseErrors.JWTExpired) throw new IdTokenError('TOKEN_EXPIRED');
      throw new IdTokenError('INVALID_ID_TOKEN');
    }
    const { sub, iat, auth_time: authTime } = payload;
    if (typeof sub !== 'string' || typeof iat !== 'number' || typeof authTime !== 'number') {
      throw new IdTokenError('INVALID_ID_TOKEN');
    }
    const user = await deps.users.findById(sub);
    if (!user) throw new IdTokenError('USER_NOT_FOUND');
    if (user.disabled === 1) throw new IdTokenError('USER_DISABLED');
    // Issued before the last password change or reset: the session it belonged to is gone.
    if (iat * 1000 < user.valid_since) throw new IdTokenError('TOKEN_EXPIRED');
    return { user, authTime: authTime * 1000 };
  };
}

export function toVerifiedUser(user: UserRow): VerifiedUser {
  return { uid: user.id, email: user.email, displayName: user.display_name, emailVerified: user.email_verified === 1 };
}
