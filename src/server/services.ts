import { createArticles, type Articles } from './articles/createArticles.ts';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { createIdentity, type Identity } from './identity/createIdentity.ts';
import type { SignInAttempt } from './identity/protocol/sessionDoor.ts';
import { createImages, type Images } from './images/createImages.ts';
import type { Mailer } from './mail/mailer.ts';
import { createPasskeys, type PasskeyIdentity, type Passkeys } from './passkeys/createPasskeys.ts';
import { createRateLimiter, type RateLimiter } from './rateLimit/rateLimiter.ts';

export interface Services {
  identity: Identity;
  articles: Articles;
  images: Images;
  passkeys: Passkeys;
  rateLimiter: RateLimiter;
}

/**
 * The features and the wiring between them, without HTTP: the server (app.ts) registers
 * their routes, the admin command calls their operations, and both get the same
 * cross-feature effects (a deleted user's articles go with the account).
 */
export function createServices(deps: {
  config: Config;
  database: Database;
  mailer: Mailer;
  clock?: (() => number) | undefined;
}): Services {
  const { config, database, mailer, clock } = deps;
  const rateLimiter = createRateLimiter(database, clock);
  // Accounts. Other features check ID tokens with identity.verifyIdToken.
  const identity = createIdentity({ config, database, mailer, rateLimiter, clock });
  // Articles: authors are identity's users; a deleted user's articles go in the same transaction.
  const articles = createArticles({ config, database, verifyIdToken: identity.verifyIdToken, rateLimiter });
  identity.onUserDeleting((uid, trx) => articles.deleteByAuthor(uid, trx));
  // Uploaded images: a deleted user's go with the account; an article's cover and body images
  // are recorded as used in the transaction that writes it (unused uploads go after a day).
  const images = createImages({ config, database, verifyIdToken: identity.verifyIdToken, rateLimiter, clock });
  identity.onUserDeleting((uid, trx) => images.deleteByOwner(uid, trx));
  articles.onWritten((article, trx) => images.recordUses(article.id, [article.image, article.description], trx));
  // Passkeys: another way to sign in, through identity's session door; they go with the account.
  const passkeys = createPasskeys({
    database,
    publicUrl: config.publicUrl,
    identity: passkeyIdentity(identity),
    rateLimiter,
    limits: {
      signInStartsPerIp: config.rateLimits.passkeySignInStartPerIp,
      anonymousChallengesMax: config.passkeyAnonymousChallengesMax,
    },
    clock,
  });
  identity.onUserDeleting((uid, trx) => passkeys.deleteByUser(uid, trx));
  return { identity, articles, images, passkeys, rateLimiter };
}

/** Identity as the passkeys feature sees it: a session door with the provider fixed to "passkey". */
function passkeyIdentity(identity: Identity): PasskeyIdentity {
  const door = identity.sessionDoor;
  return {
    verifyIdToken: (idToken) => door.verifyIdToken(idToken),
    isRecentSignIn: (authTime) => door.isRecentSignIn(authTime),
    findAccount: (uid) => door.findAccount(uid),
    endSessions: (uid, sessionIds) => identity.endSessions(uid, sessionIds),
    countSignInAttempt: (request, email) => door.countSignInAttempt(request, email),
    issueSession: ({ uid, attempt, request, reply }) =>
      door.issueSession({ uid, provider: 'passkey', attempt: attempt as SignInAttempt, request, reply }),
  };
}
