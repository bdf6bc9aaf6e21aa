import type { Transaction } from 'kysely';
import type { Database } from '../../../db/database.ts';
import type { DatabaseSchema } from '../../../db/schema.ts';
import { IdentityError } from '../identityErrors.ts';
import type { FederatedIdentitiesStore } from '../stores/federatedIdentitiesStore.ts';
import type { UserRow } from '../identityTables.ts';
import { signIdToken } from './idTokens.ts';
import { ID_TOKEN_LIFETIME_SECONDS } from '../lifetimes.ts';
import { isOpaqueSecretShaped } from '../opaqueSecrets.ts';
import type { SessionsStore } from '../stores/sessionsStore.ts';
import type { SigningKeys } from '../stores/signingKeys.ts';
import type { UsersStore } from '../stores/usersStore.ts';

/** A session just issued or refreshed: what a door hands to the client (it chooses how). */
export interface IssuedSession {
  user: UserRow;
  sessionId: string;
  /** The session's credential: the client keeps it (or its browser's cookie does); never stored. */
  refreshToken: string;
  idToken: string;
  expiresInSeconds: number;
}

export interface SessionStart {
  /** When the sign-in behind the session happened (epoch ms); a credential change keeps the old one. */
  authTime: number;
  /** `firebase.sign_in_provider` of its ID tokens: 'password', 'passkey', a provider id ('google.com'). */
  provider: string;
  /** The second step that completed the sign-in ('totp': `firebase.sign_in_second_factor`), if any. */
  secondFactor?: string | undefined;
  /** That second step's enrollment id (`firebase.second_factor_identifier`), if any. */
  secondFactorId?: string | undefined;
  /**
   * The refresh token of a session this one replaces (a browser's cookie about to be
   * overwritten): nobody could use it any more, so it ends in the same transaction.
   */
  replaces?: string | undefined;
}

type Trx = Transaction<DatabaseSchema>;

/**
 * The one way a session is issued: every sign-up, sign-in, credential change, passkey sign-in
 * and email recovery goes through issue(); a refresh signs for an existing one the same way.
 */
export function createSessionIssuer(deps: {
  database: Database;
  users: UsersStore;
  sessions: SessionsStore;
  keys: SigningKeys;
  /** The account's linked provider identities, named in its ID tokens. */
  federated: FederatedIdentitiesStore;
  issuer: string;
  audience: string;
  now: () => number;
}) {
  const { sessions } = deps;

  const sign = async (
    user: UserRow,
    sessionId: string,
    start: {
      authTime: number;
      provider: string;
      secondFactor?: string | undefined;
      secondFactorId?: string | undefined;
    },
  ) =>
    signIdToken(deps.keys, {
      issuer: deps.issuer,
      audience: deps.audience,
      user,
      sessionId,
      authTime: start.authTime,
      provider: start.provider,
      secondFactor: start.secondFactor,
      secondFactorId: start.secondFactorId,
      links: await deps.federated.ofUser(user.id),
      now: deps.now(),
    });

  return {
    /**
     * Runs `writes.first` (the operation's own writes), ends the replaced session, starts the new
     * one and runs `writes.last`, all in one transaction: a client told that the operation failed
     * holds no session and no half-made change. `user` is the account as it is after the writes.
     * The ID token is signed after the commit (see "Sign-in and sign-up split" in bench/README.md).
     */
    async issue(
      user: UserRow,
      start: SessionStart,
      writes: { first?: (trx: Trx) => Promise<void>; last?: (trx: Trx) => Promise<void> } = {},
    ): Promise<IssuedSession> {
      const replaces =
        start.replaces !== undefined && isOpaqueSecretShaped(start.replaces) ? start.replaces : undefined;
      const session = await deps.database.db.transaction().execute(async (trx) => {
        if (writes.first) await writes.first(trx);
        if (replaces !== undefined) await sessions.revoke(replaces, trx);
        const created = await sessions.create(user.id, start, deps.now(), trx);
        if (writes.last) await writes.last(trx);
        return created;
      });
      return {
        user,
        sessionId: session.id,
        refreshToken: session.refreshToken,
        idToken: await sign(user, session.id, start),
        expiresInSeconds: ID_TOKEN_LIFETIME_SECONDS,
      };
    },

    /** A fresh ID token for a live session. Revoked, expired and never-issued tokens all answer TOKEN_EXPIRED. */
    async refresh(refreshToken: string): Promise<IssuedSession> {
      if (!isOpaqueSecretShaped(refreshToken)) throw new IdentityError('INVALID_REFRESH_TOKEN');
      const session = await sessions.use(refreshToken, deps.now());
      if (!session) {
        // A session ended with its account's deletion: Firebase's answer is USER_NOT_FOUND.
        const owner = await sessions.endedSessionOwner(refreshToken);
        if (owner !== undefined && !(await deps.users.findById(owner))) throw new IdentityError('USER_NOT_FOUND');
        throw new IdentityError('TOKEN_EXPIRED');
      }
      const user = await deps.users.findById(session.user_id);
      if (!user) throw new IdentityError('USER_NOT_FOUND');
      if (user.disabled === 1) throw new IdentityError('USER_DISABLED');
      return {
        user,
        sessionId: session.id,
        refreshToken,
        idToken: await sign(user, session.id, {
          authTime: session.auth_time,
          provider: session.provider,
          secondFactor: session.second_factor ?? undefined,
          secondFactorId: session.second_factor_id ?? undefined,
        }),
        expiresInSeconds: ID_TOKEN_LIFETIME_SECONDS,
      };
    },

    /** Ends one session (sign-out); its ID tokens die with it. Unknown tokens are ignored. */
    async signOut(refreshToken: string): Promise<void> {
      if (isOpaqueSecretShaped(refreshToken)) await sessions.revoke(refreshToken);
    },
  };
}

export type SessionIssuer = ReturnType<typeof createSessionIssuer>;
