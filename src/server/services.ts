import { createArticles, type Articles } from './articles/createArticles.ts';
import { createAudit, type Audit } from './audit/createAudit.ts';
import { reportsFeature } from './reports/reportsRoutes.ts';
import { imageOrigin } from './articles/imageOrigin.ts';
import { createAuthors, type Authors } from './authors/createAuthors.ts';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { createIdentity, IdTokenError, type Identity } from './identity/createIdentity.ts';
import { createImages, type Images } from './images/createImages.ts';
import type { Mailer } from './mail/mailer.ts';
import { createPasskeys, type PasskeyIdentity, type Passkeys } from './passkeys/createPasskeys.ts';
import { createRateLimiter, type RateLimiter } from './rateLimit/rateLimiter.ts';
import { createRoles, type Roles } from './roles/createRoles.ts';
import { withTwoStepRequirement } from './roles/twoStepRequirement.ts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { NOTIFICATION_LIST_NAMES } from './comments/commentMails.ts';
import { commentsRoutes as commentsRoutesOf } from './comments/commentsRoutes.ts';
import { createComments, type Comments } from './comments/createComments.ts';
import { apiScope } from './http/apiScope.ts';
import { TokenRefused, type Caller } from './http/callerAuth.ts';
import { viewerOf } from './http/viewerCookie.ts';
import { createUnsubscribe } from './unsubscribe/createUnsubscribe.ts';
import { createNewsletters, type Newsletters } from './newsletters/createNewsletters.ts';
import { NEWSLETTER_LIST } from './newsletters/subscribers.ts';
import { exportRoutes } from './moving/export/exportRoutes.ts';
import { createFederation, type Federation } from './federation/createFederation.ts';
import { createFederationStore } from './federation/federationStore.ts';
import { createSettings, type Settings } from './settings/createSettings.ts';

export interface Services {
  identity: Identity;
  articles: Articles;
  authors: Authors;
  images: Images;
  passkeys: Passkeys;
  rateLimiter: RateLimiter;
  /**
   * The `/api` scope (http/apiScope.ts) with every feature's API routes inside it. Register
   * with { prefix: '/api' }.
   */
  apiRoutes: FastifyPluginAsync;
  /** The operator's invitations (the admin command's `invite`). */
  invitations: { create: Roles['createInvitation'] };
  /** Who is loading a page, from its viewer cookie (http/viewerCookie.ts), or null. */
  viewerOf: (request: FastifyRequest) => Promise<Caller | null>;
  /** The append-only audit log: the admin command's reads (GET /api/audit is in apiRoutes). */
  audit: Audit;
  /** Comments (DESIGN.md §9.2). */
  comments: Comments;
  /** GET and POST /unsubscribe (register without a prefix). */
  unsubscribeRoutes: FastifyPluginAsync;
  /** Newsletters (DESIGN.md §9.3): formRoutes without a prefix (its API is in apiRoutes). */
  newsletters: Newsletters;
  /** Federation (DESIGN.md §9.4): register with federation.register(app); nothing when FEDERATION=off. */
  federation: Federation;
  /** Site settings (DESIGN.md §9.6): what pages, feed and mail show of the site; its API is in apiRoutes. */
  settings: Settings;
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
  /** The pooled mailer newsletters go through (MAIL_POOL_SIZE); `mailer` when not given. */
  newsletterMailer?: Mailer | undefined;
  clock?: (() => number) | undefined;
  /** How often a provider's keys may be fetched again for an unknown `kid` (tests shorten it). */
  providerKeyRefreshCooldownMs?: number | undefined;
  /** Tests only: fediverse servers on loopback (decision 0700); never from configuration. */
  federationAllowPrivateAddress?: boolean | undefined;
  /** Activities one remote server may POST per minute (default 600); the bench raises it. */
  federationInboxPerServerPerMinute?: number | undefined;
}): Services {
  const { database, mailer, clock } = deps;
  const rateLimiter = createRateLimiter(database, clock);
  // The audit log: features append to it inside their own transactions through audit.record.
  const audit = createAudit({ database, clock });
  // Site settings (decision 0840): SITE_TITLE and SITE_DESCRIPTION are their first values. Every
  // feature below reads the site's name and description through `site` (and `config.site`), live
  // views of the settings as last read, read afresh at each request (app.ts): none copies them.
  const settings = createSettings({
    database,
    first: deps.config.site,
    publicUrl: deps.config.publicUrl,
    clock,
    recordEvent: audit.record,
  });
  const config: Config = { ...deps.config, site: settings.live(deps.config.site) };
  const site = settings.live({ ...config.site, publicUrl: config.publicUrl });
  // Roles: the sign-up policy (SIGNUP, invitations) is the gate identity asks before it creates an account.
  // Invitations made, used and revoked are audited in the transaction that writes them.
  const roles = createRoles({
    config,
    database,
    rateLimiter,
    clock,
    recordEvent: audit.record,
    sendMail: (message) => mailer.send(message),
  });
  // Uploaded pictures are stored without the origin (decision 0300), profile pictures too.
  const origin = imageOrigin(config.publicUrl);
  // Accounts. Other features check ID tokens with identity.verifyIdToken (which reads the role too).
  const identity = createIdentity({
    config,
    database,
    mailer,
    rateLimiter,
    clock,
    signUpGate: roles.signUpGate,
    photoUrls: { toStored: origin.toStored, toServed: origin.toServed },
    providerKeyRefreshCooldownMs: deps.providerKeyRefreshCooldownMs,
  });
  // The Bearer token check of the whole /api scope: REQUIRE_TWO_STEP applies to all of it.
  const verifyIdToken = withTwoStepRequirement(config.requireTwoStep, async (idToken) => {
    try {
      return await identity.verifyIdToken(idToken);
    } catch (error) {
      // Identity's refusal, in the words of the /api scope's check (http/ knows no feature).
      throw error instanceof IdTokenError ? new TokenRefused(error.message) : error;
    }
  });
  // Articles: authors are identity's users; a deleted user's articles go in the same transaction.
  // The author is mailed when an editor hides their article or publishes their submitted draft.
  const articles = createArticles({
    config,
    database,
    rateLimiter,
    clock,
    // Hides, restores and deletions of another person's article are audited in their transaction.
    recordAudit: audit.record,
    mailAuthor: async (uid, mail) => {
      const email = (await identity.members.find(uid))?.email;
      if (email) await mailer.send({ ...mail, to: email });
    },
  });
  // A deleted account's published articles leave the fediverse too (a Delete each, queued in
  // the deleting transaction before the articles go); federation is made further down.
  const fediverse: { current?: Federation } = {};
  identity.onUserDeleting(async (uid, trx) => {
    const federation = fediverse.current;
    if (!federation?.enabled) return;
    for (const id of await articles.publishedIdsByAuthor(uid, trx)) {
      await federation.onArticleChanged({ id, before: 'published', after: null, edited: false }, trx);
    }
  });
  identity.onUserDeleting((uid, trx) => articles.deleteByAuthor(uid, trx));
  // Uploaded images: a deleted user's go with the account; an article's cover and body images
  // are recorded as used in the transaction that writes it (unused uploads go after a day).
  const images = createImages({ config, database, rateLimiter, clock });
  identity.onUserDeleting((uid, trx) => images.deleteByOwner(uid, trx));
  articles.onWritten((article, trx) => images.recordUses(article.id, [article.image, article.description], trx));
  // Author profiles (decision 0420): a slug made from the name (anew when it changes, old ones
  // redirect) and a bio; the picture is identity's photoUrl, an upload kept while it is shown.
  const authors = createAuthors({
    database,
    countArticles: (uids) => articles.countByAuthors(uids),
    servedPhotoUrl: origin.toServed,
    clock,
  });
  identity.onProfileChanged(async (user, trx) => {
    await authors.ensureSlug(user.id, trx);
    await images.recordProfilePicture(user.id, user.photoUrl, trx);
  });
  // Passkeys: another way to sign in, through identity's sign-in door and in its /identity
  // scope; they go with the account.
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
  identity.addDoor(passkeys.routes);
  // A provider that takes over an account whose address was never verified removes its passkeys
  // (whoever registered the address first may have added them); they count as ways in, so the
  // last way to sign in is never unlinked.
  identity.onAccountTakenOver((uid, trx) => passkeys.deleteByUser(uid, trx));
  identity.onCountingSignInMethods((uid) => passkeys.countOfUser(uid));
  // Role changes, disables and enables (members API and admin command alike) are audited in
  // the transaction that makes them.
  identity.members.onChanged(roles.recordMemberChange);
  // Members are identity's accounts with their article counts.
  const rolesRoutes = roles.routes({
    members: identity.members,
    countArticles: (uids) => articles.countByAuthors(uids),
  });
  const siteExportRoutes = exportRoutes({ db: database.db });
  // One-click unsubscribe (RFC 8058), by list: comment notifications now.
  const unsubscribe = createUnsubscribe({
    database,
    publicUrl: config.publicUrl,
    site,
    clock,
    listNames: { ...NOTIFICATION_LIST_NAMES, [NEWSLETTER_LIST]: 'new articles (the newsletter)' },
    resubscribeHints: { [NEWSLETTER_LIST]: 'To get them again, subscribe with the form at the foot of any page.' },
  });
  identity.onUserDeleting((uid, trx) => unsubscribe.forget(uid, trx));
  // Newsletters (DESIGN.md §9.3): a send is made in the transaction of each first publication;
  // unsubscribing is the unsubscribe feature's list `newsletter`; an account's address goes with it.
  const newsletters = createNewsletters({
    database,
    enabled: config.newsletter === 'on',
    site,
    mailFrom: config.mailFrom,
    mailer,
    newsletterMailer: deps.newsletterMailer ?? mailer,
    poolSize: config.mailPoolSize,
    ratePerSecond: config.mailRatePerSecond,
    rateLimiter,
    unsubscribe,
    accountAddress: async (uid) => {
      const member = await identity.members.find(uid);
      return member?.email ? { email: member.email, verified: member.emailVerified } : undefined;
    },
    findArticle: (id) => articles.reader.find(id),
    clock,
  });
  articles.onFirstPublished((article, trx) => newsletters.onFirstPublished(article, trx));
  identity.onUserDeleting((uid, trx) => newsletters.subscribers.forgetAccount(uid, trx));
  // Comments (DESIGN.md §9.2): on articles as their reader sees them (through the articles' read
  // cache, which comments empty as articles do); a deleted account's comments go with it (kept as
  // "This comment was deleted." where replied to); lists and articles carry their counts.
  const federationStore = createFederationStore(database, clock ?? Date.now);
  const comments = createComments({
    database,
    rateLimiter,
    clock,
    mode: config.comments,
    commentsPerUser: config.rateLimits.commentPerUser,
    site,
    findArticle: (id) => articles.summary(id),
    isVerified: async (uid) => (await identity.members.find(uid))?.emailVerified === true,
    servedPhotoUrl: origin.toServed,
    recordEvent: audit.record,
    mailAccount: async (uid, mail) => {
      const email = (await identity.members.find(uid))?.email;
      if (email) await mailer.send({ ...mail, to: email });
    },
    lists: unsubscribe,
    // FEDERATION=on: an article's likes and reposts from the fediverse come with its comments.
    reactions: config.federation === 'on' ? (id) => federationStore.reactionCounts(id) : undefined,
    cached: (key, build) => articles.reader.cached(key, build),
  });
  identity.onUserDeleting((uid, trx) => comments.deleteByAuthor(uid, trx));
  if (config.comments !== 'off') articles.onCountingComments((ids) => comments.countPublishedOf(ids));
  // Federation (DESIGN.md §9.4): each article write queues what its followers are told (Create,
  // Update, Delete) in its transaction; fediverse replies are comments by remote authors.
  const federation = createFederation({
    database,
    enabled: config.federation === 'on',
    handle: config.federationHandle,
    publicUrl: config.publicUrl,
    site,
    allowPrivateAddress: deps.federationAllowPrivateAddress,
    inboxPerServerPerMinute: deps.federationInboxPerServerPerMinute,
    rateLimiter,
    clock,
    findArticle: (id) => articles.reader.find(id),
    newestArticles: (limit) => articles.reader.newest(limit),
    countArticles: () => articles.reader.countPublished(),
    comments,
    recordEvent: audit.record,
  });
  if (federation.enabled) articles.onChanged((change, trx) => federation.onArticleChanged(change, trx));
  fediverse.current = federation;
  const commentsRoutes = commentsRoutesOf({
    comments,
    publicFirstPage: (id) => comments.publicFirstPage(id),
  });
  // Reports: any signed-in account reports an article it can see; editors resolve them by
  // hiding it (through articles, which audits the hide) or dismissing; each resolution is audited.
  const reports = reportsFeature({
    database,
    rateLimiter,
    clock,
    // Reports are of published articles: the one kind everyone may see (and report).
    findVisibleArticle: async (_caller, id) => {
      const article = await articles.reader.find(id);
      return article && { title: article.title, authorId: article.authorId };
    },
    hideArticle: (actor, id, reason) => articles.hide(actor, id, reason),
    // Comments are reported as their reader sees them; a report resolved with hide hides the comment.
    ...(config.comments === 'off'
      ? {}
      : {
          findVisibleComment: (caller: Caller, id: string) => comments.findForReport(caller, id),
          hideComment: async (actor: Caller, id: string, reason: string) => {
            const hidden = await comments.hide(actor, id, reason);
            return hidden.ok ? 'hidden' : hidden.reason === 'forbidden' ? 'forbidden' : 'not_found';
          },
        }),
    recordEvent: audit.record,
    nameAccounts: (uids) => authors.namesOf(uids),
  });
  const reportsRoutes = reports.routes;
  // The Log names actors and targets as of now: one batch read of each feature per page.
  const auditRoutes = audit.routes({
    accounts: (uids) => authors.namesOf(uids),
    articles: (ids) => articles.titlesOf(ids),
    comments: (ids) => comments.excerptsOf(ids),
    reports: (ids) => reports.targetsOf(ids),
  });
  return {
    identity,
    articles,
    authors,
    images,
    passkeys,
    rateLimiter,
    // One scope, one token check (REQUIRE_TWO_STEP included) for every feature's API.
    apiRoutes: apiScope({
      verifyIdToken,
      features: [
        articles.routes,
        authors.routes,
        images.apiRoutes,
        rolesRoutes,
        auditRoutes,
        reportsRoutes,
        commentsRoutes,
        newsletters.apiRoutes,
        siteExportRoutes,
        federation.apiRoutes,
        settings.routes,
      ],
    }),
    invitations: { create: roles.createInvitation },
    // Who loads an article page (its author and editors see it before it is published, decision 0830).
    viewerOf: viewerOf(verifyIdToken),
    audit,
    comments,
    unsubscribeRoutes: unsubscribe.routes,
    newsletters,
    federation,
    settings,
  };
}

/** Identity as the passkeys feature sees it: its sign-in door, with the provider fixed to "passkey". */
function passkeyIdentity(identity: Identity): PasskeyIdentity {
  const door = identity.signInDoor;
  return {
    verifyIdToken: door.verifyIdToken,
    isRecentSignIn: door.isRecentSignIn,
    findAccount: door.findAccount,
    signIn: (request, reply, factor) => door.signIn(request, reply, { provider: 'passkey', ...factor }),
    refusal: door.refusal,
    parseBody: door.parseBody,
    endSessions: (uid, sessionIds) => identity.endSessions(uid, sessionIds),
  };
}
