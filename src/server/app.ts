import path from 'node:path';
import { randomUUID } from 'node:crypto';
import fastifyCompress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { healthRoutes } from './health/healthRoutes.ts';
import { refuseIdentityInput } from './identity/protocol/inputRuleRefusal.ts';
import { ProtocolError, sendProtocolError } from './identity/protocol/protocolErrors.ts';
import { accessLogController } from './http/accessLog.ts';
import { batchedLogDestination } from './http/batchedLogDestination.ts';
import { loggerOptions } from './http/logging.ts';
import { lazyRequestLogger } from './http/lazyRequestLogger.ts';
import { createPublishing } from './publishing/createPublishing.ts';
import { ownerlessHint } from './identity/firstOwner.ts';
import { sendProblem } from './http/problem.ts';
import { registerDrainOnClose } from './http/drainOnClose.ts';
import { registerInputRules } from './http/inputRules.ts';
import { registerReadVersionScope } from './db/readVersionScope.ts';
import { problemErrorHandler } from './http/requestErrors.ts';
import { registerResponseHeaders } from './http/securityHeaders.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { createAppMetrics } from './metrics/appMetrics.ts';
import { countingMailer } from './metrics/countingMailer.ts';
import { CLEANUP_INTERVAL_MS } from './images/createImages.ts';
import { createServices } from './services.ts';
import { settingsFrame } from './settings/siteFrame.ts';
import { webPlugin } from './web/webPlugin.ts';
import { loadScreenRenderer } from './web/ssrScreens.ts';

export const BODY_LIMIT_BYTES = 64 * 1024;
/**
 * docs/architecture.md (the path of a request): a request not fully arrived (headers and body) 30 s after it started is
 * answered 408 and its connection closed. Node looks for such requests on an interval (30 s by
 * default, which would let one live up to 60 s): every 5 s keeps the answer within 35 s.
 */
export const REQUEST_TIMEOUT_MS = 30_000;
const REQUEST_TIMEOUT_CHECK_INTERVAL_MS = 5_000;

export interface AppDeps {
  config: Config;
  database: Database;
  /** Where the built web app lives (dist/web). */
  webDistDir: string;
  /** false silences request logs (tests); a stream captures them. */
  logger?: boolean | { stream: NodeJS.WritableStream };
  /** Defaults to SMTP_URL (or the dev outbox); a given mailer is closed by its owner. */
  mailer?: Mailer;
  /** Epoch milliseconds; tests inject one to move time. */
  clock?: () => number;
  /** URLs per sitemap file (default 50,000); tests make it small to see the paging. */
  sitemapPageSize?: number;
  /** How often unused uploads are looked for (default hourly); tests make it short. */
  imageCleanupIntervalMs?: number;
  /** How often a provider's keys may be fetched again for an unknown `kid` (default 30 s); tests make it short. */
  providerKeyRefreshCooldownMs?: number;
  /** Tests only: fediverse servers on loopback may be fetched and delivered to (decision 0700). */
  federationAllowPrivateAddress?: boolean;
  /** Activities one remote server may POST to the inbox per minute (default 600). */
  federationInboxPerServerPerMinute?: number;
}

/** Composes the whole server. The caller owns the database and closes it after the app. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const logger =
    deps.logger === false
      ? false
      : {
          ...loggerOptions(config.logLevel),
          stream: typeof deps.logger === 'object' ? deps.logger.stream : batchedLogDestination(),
        };

  // Set right after the instance exists; the router's error callback below runs only on requests.
  let applyResponseHeaders: ReturnType<typeof registerResponseHeaders> = () => {};
  const app = Fastify({
    logger,
    bodyLimit: BODY_LIMIT_BYTES,
    requestTimeout: REQUEST_TIMEOUT_MS,
    // Node refuses a headersTimeout above requestTimeout (its default is 60 s): set together.
    http: {
      requestTimeout: REQUEST_TIMEOUT_MS,
      headersTimeout: REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: REQUEST_TIMEOUT_CHECK_INTERVAL_MS,
    },
    trustProxy: config.trustProxy,
    genReqId: () => randomUUID(),
    routerOptions: { ignoreTrailingSlash: true },
    ...(logger === false
      ? {}
      : { logController: accessLogController(config.logLevel, logger.stream), childLoggerFactory: lazyRequestLogger }),
    // A URL that cannot be decoded (e.g. /api/%ff) fails in the router, before any scope's
    // error handler and before the hooks: answer in the format of the scope the path names,
    // with the headers every answer carries.
    frameworkErrors: (_error, request, reply) => {
      applyResponseHeaders(request, reply);
      if (request.url.startsWith('/identity/')) {
        return sendProtocolError(reply, new ProtocolError('INVALID_REQUEST'));
      }
      return sendProblem(reply, 400, 'The request URL is not valid.');
    },
  });

  applyResponseHeaders = registerResponseHeaders(app, { https: config.publicUrl.startsWith('https:') });
  registerDrainOnClose(app);
  // A request reads the read version once, not once per cached read (decision 0745).
  registerReadVersionScope(app);
  // NUL, lone surrogates and overlong URL values are refused before any route (decision 0561).
  registerInputRules(app, [{ prefix: '/identity/', refuse: refuseIdentityInput }]);
  // Identity answers carry tokens next to input the client chose (the email): compressed, their
  // sizes would leak token bytes to an observer (BREACH). Added before the plugin so its route
  // hook sees the choice; request bodies are still decompressed. (It also saved ~1 ms a sign-in.)
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/identity/')) route.compress = false;
  });
  await app.register(fastifyCompress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });

  app.setErrorHandler(problemErrorHandler);

  const metrics = createAppMetrics({ config, database });
  metrics.register(app);

  const ownMailer =
    deps.mailer ??
    createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      dataDir: config.dataDir,
      log: app.log,
      dkim: config.dkim,
    });
  if (!deps.mailer) app.addHook('onClose', () => ownMailer.close());
  const mailer = countingMailer(ownMailer, () => metrics.countEmailFailure());
  // Newsletters go through connections kept open (MAIL_POOL_SIZE), each message DKIM-signed too.
  const newsletterMailer =
    config.newsletter === 'on' && !deps.mailer
      ? createMailer({
          smtpUrl: config.smtpUrl,
          from: config.mailFrom,
          dataDir: config.dataDir,
          log: app.log,
          dkim: config.dkim,
          poolSize: config.mailPoolSize,
          logSent: false,
        })
      : undefined;

  const {
    identity,
    articles,
    authors,
    images,
    apiRoutes,
    comments,
    unsubscribeRoutes,
    newsletters,
    federation,
    viewerOf,
    settings,
  } = createServices({
    config,
    database,
    mailer,
    newsletterMailer: newsletterMailer && countingMailer(newsletterMailer, () => metrics.countEmailFailure()),
    clock: deps.clock,
    providerKeyRefreshCooldownMs: deps.providerKeyRefreshCooldownMs,
    federationAllowPrivateAddress: deps.federationAllowPrivateAddress,
    federationInboxPerServerPerMinute: deps.federationInboxPerServerPerMinute,
  });
  // The site settings are read afresh (when the read version moved) before every request but a
  // static file's, so whatever it shows or mails names the site as it is now (decision 0840).
  app.addHook('onRequest', async (request) => {
    if (request.url.startsWith('/assets/')) return;
    await settings.current().catch(() => undefined); // the last settings read stand; the request's own reads will fail
  });
  const site = settings.live(config.site);
  await app.register(settings.pageRoutes);
  // FEDERATION=on: the fediverse's paths go to Fedify before the router (its hook comes first).
  await federation.register(app);
  identity.onSignIn((outcome) => metrics.countSignIn(outcome));
  await app.register(identity.routes, { prefix: '/identity' });
  await app.register(apiRoutes, { prefix: '/api' });
  // Form posts, outside /api: they keep their own (form) parsing.
  await app.register(unsubscribeRoutes);
  await app.register(newsletters.formRoutes);
  await app.register(images.routes);
  // Unused uploads are looked for while the server runs (not by the admin command's services).
  let stopImageCleanup = () => {};
  app.addHook('onReady', async () => {
    stopImageCleanup = images.startCleanup(deps.imageCleanupIntervalMs ?? CLEANUP_INTERVAL_MS, app.log);
  });
  app.addHook('onClose', async () => stopImageCleanup());
  // The newsletter outbox is worked on while the server runs (in every process sharing the database).
  let stopSending = async () => {};
  app.addHook('onReady', async () => {
    stopSending = newsletters.startSending(app.log);
  });
  app.addHook('onClose', async () => {
    await stopSending();
    await newsletterMailer?.close();
  });

  // Scheduled articles are published at their time while the server runs (in every process).
  let stopScheduler = async () => {};
  app.addHook('onReady', async () => {
    stopScheduler = articles.startScheduler(app.log);
  });
  app.addHook('onClose', async () => stopScheduler());

  // Federation's queue (deliveries, received activities) is worked on while the server runs.
  let stopFederation = async () => {};
  app.addHook('onReady', async () => {
    stopFederation = federation.startWorker(app.log);
  });
  app.addHook('onClose', async () => stopFederation());

  // Publishing: what crawlers and link previews read (page metadata, feed, sitemaps, robots.txt).
  const publishing = createPublishing({
    reader: articles.reader,
    publicUrl: config.publicUrl,
    site,
    sitemapPageSize: deps.sitemapPageSize,
    authors,
    comments: (article) => comments.publicPageOf(article),
    viewer: viewerOf,
    ownerHint: ownerlessHint(database),
  });
  await app.register(publishing.routes);

  await app.register(healthRoutes, { database });
  await app.register(webPlugin, {
    distDir: deps.webDistDir,
    // Each screen's page by its feature: which page is a 404 is decided there (webPlugin.ts ScreenPages).
    screenPages: {
      ...publishing.screenPages,
      ...articles.screenPages,
      // The editor of an unpublished article is its viewer's: known by the viewer cookie (decision 0862).
      editor: (id, request) => articles.screenPages.editor(id, () => viewerOf(request)),
    },
    // The site identity block, icon, stylesheet, navigation and footer text, as the settings are now.
    frame: settingsFrame(settings.latest, publishing.shellTags),
    bodyEnd: [newsletters.footerForm, federation.followLine].filter(Boolean).join('') || undefined,
    fallbackHead: publishing.fallbackHead,
    siteTitle: config.site.title,
    cached: articles.reader.cached,
    // The reading screens arrive rendered (decision 0301): built beside the web app, in dist/ssr.
    screenInShell: await loadScreenRenderer(path.join(deps.webDistDir, '..', 'ssr', 'renderScreen.js'), site, app.log),
  });

  return app;
}
