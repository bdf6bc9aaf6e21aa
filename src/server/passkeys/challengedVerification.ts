import type { ChallengeStore } from './challengeStore.ts';
import type { PasskeyIdentity } from './passkeyIdentity.ts';
import type { ChallengePurpose } from './passkeysTables.ts';

/** A challenge as the store hands it back once: whom it was given to, or undefined when unknown, used or expired. */
export type TakenChallenge = Awaited<ReturnType<ChallengeStore['take']>>;

/** What the library calls to check the challenge the browser signed. */
export type ExpectedChallenge = (challenge: string) => Promise<boolean>;

/**
 * Runs one of the library's verifications against a single-use challenge of ours, and tells its
 * three ways of failing apart (the library reports them all as one thrown error):
 * - the challenge is unknown, used, expired or not the one `accepts` wants → INVALID_PASSKEY_CHALLENGE;
 * - a failure of ours while taking it (the database) → thrown as it is;
 * - anything else the library refused → INVALID_PASSKEY, its message as the detail (it says what
 *   did not match, origin or signature; never secret).
 */
export async function challengedVerification<T>(
  deps: { identity: PasskeyIdentity; challenges: ChallengeStore },
  purpose: ChallengePurpose,
  accepts: (taken: TakenChallenge) => boolean,
  verify: (expectedChallenge: ExpectedChallenge) => Promise<T>,
): Promise<T> {
  let ownFailure: { error: unknown } | undefined;
  let refused = false;
  const expectedChallenge: ExpectedChallenge = async (challenge) => {
    try {
      refused = !accepts(await deps.challenges.take(challenge, purpose));
      return !refused;
    } catch (error) {
      ownFailure = { error };
      throw error;
    }
  };
  try {
    return await verify(expectedChallenge);
  } catch (error) {
    if (ownFailure) throw ownFailure.error;
    if (refused) throw deps.identity.refusal('INVALID_PASSKEY_CHALLENGE');
    throw deps.identity.refusal('INVALID_PASSKEY', error instanceof Error ? { detail: error.message } : {});
  }
}
