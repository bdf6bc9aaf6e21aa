import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  NEW_ACCOUNT_ROLES,
  SIGNUP_POLICIES,
  TWO_STEP_REQUIREMENTS,
  type Role,
  type SignupPolicy,
  type TwoStepRequirement,
} from '../shared/roles.ts';
import { COMMENT_MODES, type CommentMode } from '../shared/comments.ts';
import { FALLBACK_SITE_IDENTITY, type SiteIdentity } from '../shared/siteIdentity.ts';
import { parseIdentityProviders, ProviderConfigProblem, type IdentityProviderConfig } from './providersConfig.ts';

/** Thrown when the environment holds a bad value; its message is one line naming the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const port = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(0, 'must be between 0 and 65535')
  .max(65535, 'must be between 0 and 65535');

const positiveInt = (max: number) =>
  z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, `must be between 1 and ${max}`)
    .max(max, `must be between 1 and ${max}`);

const httpOrigin = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http:// or https:// URL' })
  .transform((value) => value.replace(/\/+$/, ''));

const databaseUrl = z.string().refine((value) => /^(postgres|postgresql):\/\/|^sqlite:./.test(value), {
  error: 'must be a postgres:// URL or sqlite:PATH',
});

const smtpUrl = z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' });

/** One line of text people read (a title, a description): no control characters, trimmed. */
const displayLine = (max: number) =>
  z
    .string()
    .transform((value) => value.trim())
    .pipe(
      z
        .string()
        .min(1, 'must not be blank')
        .max(max, `must be at most ${max} characters`)
        .regex(/^[^\p{Cc}]*$/u, 'must be one line without control characters'),
    );

const envSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().min(1, 'must not be empty').default('127.0.0.1'),
  DATA_DIR: z.string().min(1, 'must not be empty').default('./data'),
  DATABASE_URL: databaseUrl.optional(),
  DATABASE_POOL_MAX: positiveInt(1000).default(10),
  PUBLIC_URL: httpOrigin.optional(),
  SMTP_URL: smtpUrl.optional(),
  MAIL_FROM: z.string().min(3, 'must be a sender address').optional(),
  SITE_TITLE: displayLine(100).default(FALLBACK_SITE_IDENTITY.title),
  SITE_DESCRIPTION: displayLine(300).default(FALLBACK_SITE_IDENTITY.description),
  PROJECT_ID: z
    .string()
    .regex(/^[a-z0-9-]{1,64}$/, 'must be 1-64 lowercase letters, digits or dashes')
    .default('inkwell'),
  PASSWORD_MIN_LENGTH: positiveInt(4096).default(6),
  SIGNUP: z.enum(SIGNUP_POLICIES, { error: 'must be one of open, invite, closed' }).default('open'),
  NEW_ACCOUNT_ROLE: z
    .enum(NEW_ACCOUNT_ROLES, { error: 'must be one of author, contributor, reader' })
    .default('author'),
  OWNER_EMAIL: z
    .string()
    .trim()
    .pipe(z.email({ error: 'must be an email address' }))
    .transform((value) => value.toLowerCase())
    .optional(),
  REQUIRE_TWO_STEP: z.enum(TWO_STEP_REQUIREMENTS, { error: 'must be one of none, editors' }).default('none'),
  RECENT_SIGN_IN_SECONDS: positiveInt(86_400).default(300),
  TRUST_PROXY: booleanFlag.default(false),
  RATE_LIMIT_SIGNIN_PER_EMAIL: positiveInt(1_000_000).default(10),
  RATE_LIMIT_SIGNIN_PER_IP: positiveInt(1_000_000).default(100),
  RATE_LIMIT_SIGNIN_PER_ACCOUNT: positiveInt(1_000_000).default(50),
  RATE_LIMIT_SIGNIN_ATTEMPTS_PER_IP: positiveInt(1_000_000).default(300),
  RATE_LIMIT_EMAIL_CHANGE_PER_USER: positiveInt(1_000_000).default(10),
  RATE_LIMIT_NEW_PASSWORD_PER_USER: positiveInt(1_000_000).default(10),
  RATE_LIMIT_SIGNUP_PER_IP: positiveInt(1_000_000).default(100),
  RATE_LIMIT_RESET_EMAIL_PER_EMAIL: positiveInt(1_000_000).default(5),
  RATE_LIMIT_RESET_EMAIL_PER_IP: positiveInt(1_000_000).default(50),
  RATE_LIMIT_RESET_CODE_PER_IP: positiveInt(1_000_000).default(100),
  RATE_LIMIT_ARTICLE_CREATE_PER_USER: positiveInt(1_000_000).default(60),
  RATE_LIMIT_IMAGE_UPLOAD_PER_USER: positiveInt(1_000_000).default(60),
  RATE_LIMIT_SEARCH_PER_IP: positiveInt(1_000_000).default(60),
  RATE_LIMIT_PASSKEY_SIGNIN_START_PER_IP: positiveInt(1_000_000).default(100),
  RATE_LIMIT_COMMENT_PER_USER: positiveInt(1_000_000).default(10),
  COMMENTS: z.enum(COMMENT_MODES, { error: 'must be one of on, approval, off' }).default('on'),
  NEWSLETTER: z.enum(['on', 'off'], { error: 'must be one of on, off' }).default('off'),
  FEDERATION: z.enum(['on', 'off'], { error: 'must be one of on, off' }).default('off'),
  FEDERATION_HANDLE: z
    .string()
    .regex(/^[a-z0-9_]{1,30}$/i, 'must be 1-30 letters, digits or underscores')
    .default('blog'),
  MAIL_POOL_SIZE: positiveInt(100).default(5),
  MAIL_RATE_PER_SECOND: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(0, 'must be 0 (no limit) or more')
    .max(100_000, 'must be at most 100000')
    .default(0),
  DKIM_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]{1,253}$/i, 'must be a domain name')
    .optional(),
  DKIM_SELECTOR: z
    .string()
    .regex(/^[a-z0-9._-]{1,63}$/i, 'must be a DNS label')
    .optional(),
  DKIM_PRIVATE_KEY_FILE: z.string().min(1, 'must not be empty').optional(),
  PASSKEY_ANONYMOUS_CHALLENGES_MAX: positiveInt(10_000_000).default(10_000),
  IMAGE_MAX_BYTES: positiveInt(256 * 1024 * 1024).default(10 * 1024 * 1024),
  IMAGE_PROCESSING_TIMEOUT_SECONDS: positiveInt(600).default(30),
  READ_CACHE_MAX_BYTES: positiveInt(4 * 1024 * 1024 * 1024).default(32 * 1024 * 1024),
  METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{16,512}$/, 'must be 16-512 printable characters without spaces')
    .optional(),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
});

export type Database = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; poolMax: number };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: Database;
  publicUrl: string;
  smtpUrl: string | undefined;
  /** MAIL_FROM, or SITE_TITLE's name at no-reply@localhost. */
  mailFrom: string;
  /** The blog's name and one-line description (SITE_TITLE, SITE_DESCRIPTION). */
  site: SiteIdentity;
  projectId: string;
  passwordMinLength: number;
  /** Who may sign up (SIGNUP): anyone, with an invitation, or no one. */
  signup: SignupPolicy;
  /** The role of an account that signs up without an invitation, or is imported (NEW_ACCOUNT_ROLE). */
  newAccountRole: Role;
  /** An account with this (lowercased) address becomes owner once it is verified (OWNER_EMAIL). */
  ownerEmail: string | undefined;
  /** Whether editors and owners must have two-step verification on to act (REQUIRE_TWO_STEP). */
  requireTwoStep: TwoStepRequirement;
  /** How recent a password sign-in must be to change email or password or delete the account. */
  recentSignInSeconds: number;
  trustProxy: boolean;
  logLevel: string;
  /** When set, GET /metrics requires `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  /** Largest accepted image upload, in bytes. */
  imageMaxBytes: number;
  /** Wall-clock seconds an upload's decode, resize and encode may take before its worker is killed. */
  imageProcessingTimeoutSeconds: number;
  /** The most memory the public read cache (pages, articles, feed, sitemaps, HTML) may hold, in bytes. */
  readCacheMaxBytes: number;
  /** OpenID Connect providers people may sign in with (OIDC_<ID>_*), in the order of their ids. */
  identityProviders: IdentityProviderConfig[];
  /** Attempts allowed per window; windows are fixed (see identityRateLimits.ts). */
  rateLimits: {
    /** Failed sign-ins per email from one client IP per 15 minutes. */
    signInPerEmail: number;
    /** Failed sign-ins per client IP per 15 minutes. */
    signInPerIp: number;
    /** Failed sign-ins per email from all client IPs together per 15 minutes. */
    signInPerAccount: number;
    /** Sign-in attempts, successful or not, per client IP per 15 minutes. */
    signInAttemptsPerIp: number;
    /** Email changes (attempts, EMAIL_EXISTS included) per account per hour. */
    emailChangePerUser: number;
    /** Password changes per account per hour. */
    passwordChangePerUser: number;
    /** Sign-ups per client IP per hour. */
    signUpPerIp: number;
    /** Password reset emails per email per hour. */
    resetEmailPerEmail: number;
    /** Password reset email requests per client IP per hour. */
    resetEmailPerIp: number;
    /** Reset-code checks and uses per client IP per 15 minutes. */
    resetCodePerIp: number;
    /** Articles created per user per 10 minutes. */
    articleCreatePerUser: number;
    /** Image uploads per user per hour. */
    imageUploadPerUser: number;
    /** Searches per client IP per minute. */
    searchPerIp: number;
    /** Passkey sign-in ceremonies started (challenges given) per client IP per 15 minutes. */
    passkeySignInStartPerIp: number;
    /** Comments posted per account per 10 minutes (DESIGN.md §9.2). */
    commentPerUser: number;
  };
  /** COMMENTS: at once, after approval, or none at all (DESIGN.md §9.2). */
  comments: CommentMode;
  /** NEWSLETTER (DESIGN.md §9.3): readers may subscribe and new articles are mailed to them. */
  newsletter: 'on' | 'off';
  /** FEDERATION (DESIGN.md §9.4): the blog is an ActivityPub actor others can follow. */
  federation: 'on' | 'off';
  /** FEDERATION_HANDLE: the actor's user name (people follow @HANDLE@HOST). */
  federationHandle: string;
  /** MAIL_POOL_SIZE: SMTP connections kept open while a newsletter is sent. */
  mailPoolSize: number;
  /** MAIL_RATE_PER_SECOND: newsletter messages per second, all processes together; 0 = no limit. */
  mailRatePerSecond: number;
  /** DKIM_DOMAIN, DKIM_SELECTOR and the key read from DKIM_PRIVATE_KEY_FILE: every mail is signed. */
  dkim: { domainName: string; keySelector: string; privateKey: string } | undefined;
  /** Live anonymous passkey sign-in challenges kept at most, all clients together; then 429. */
  passkeyAnonymousChallengesMax: number;
}

/** Reads and validates the configuration; throws ConfigError naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set", as in most shells' `VAR= cmd`.
  const present = Object.fromEntries(
    Object.keys(envSchema.shape)
      .map((key) => [key, env[key]] as const)
      .filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0]);
    // Never echo values that may carry credentials.
    const shown = /URL$|TOKEN$/.test(name) ? '' : ` (got ${JSON.stringify(present[name])})`;
    throw new ConfigError(`Invalid configuration: ${name} ${issue.message}${shown}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  let database: Database;
  if (e.DATABASE_URL === undefined) {
    database = { kind: 'sqlite', file: path.join(dataDir, 'inkwell.db') };
  } else if (e.DATABASE_URL.startsWith('sqlite:')) {
    database = { kind: 'sqlite', file: path.resolve(e.DATABASE_URL.slice('sqlite:'.length)) };
  } else {
    database = { kind: 'postgres', url: e.DATABASE_URL, poolMax: e.DATABASE_POOL_MAX };
  }
  const publicUrl = e.PUBLIC_URL ?? `http://localhost:${e.PORT}`;
  if (e.FEDERATION === 'on' && !federationReachable(publicUrl)) {
    throw new ConfigError(
      'Invalid configuration: FEDERATION=on needs an https:// PUBLIC_URL (http:// only for localhost or 127.0.0.1)',
    );
  }
  let identityProviders: IdentityProviderConfig[];
  try {
    identityProviders = parseIdentityProviders(env);
  } catch (error) {
    // The message names the variable, never a client secret's value.
    if (error instanceof ProviderConfigProblem) throw new ConfigError(`Invalid configuration: ${error.message}`);
    throw error;
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database,
    publicUrl,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? `${mailDisplayName(e.SITE_TITLE)} <no-reply@localhost>`,
    site: {
      title: e.SITE_TITLE,
      description: e.SITE_DESCRIPTION,
      signup: e.SIGNUP,
      ...(e.NEWSLETTER === 'on' ? { newsletter: true as const } : {}),
      ...(e.FEDERATION === 'on' ? { fediverse: `@${e.FEDERATION_HANDLE}@${new URL(publicUrl).host}` } : {}),
    },
    projectId: e.PROJECT_ID,
    passwordMinLength: e.PASSWORD_MIN_LENGTH,
    signup: e.SIGNUP,
    newAccountRole: e.NEW_ACCOUNT_ROLE,
    ownerEmail: e.OWNER_EMAIL,
    requireTwoStep: e.REQUIRE_TWO_STEP,
    recentSignInSeconds: e.RECENT_SIGN_IN_SECONDS,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    metricsToken: e.METRICS_TOKEN,
    imageMaxBytes: e.IMAGE_MAX_BYTES,
    imageProcessingTimeoutSeconds: e.IMAGE_PROCESSING_TIMEOUT_SECONDS,
    readCacheMaxBytes: e.READ_CACHE_MAX_BYTES,
    identityProviders,
    rateLimits: {
      signInPerEmail: e.RATE_LIMIT_SIGNIN_PER_EMAIL,
      signInPerIp: e.RATE_LIMIT_SIGNIN_PER_IP,
      signInPerAccount: e.RATE_LIMIT_SIGNIN_PER_ACCOUNT,
      signInAttemptsPerIp: e.RATE_LIMIT_SIGNIN_ATTEMPTS_PER_IP,
      emailChangePerUser: e.RATE_LIMIT_EMAIL_CHANGE_PER_USER,
      passwordChangePerUser: e.RATE_LIMIT_NEW_PASSWORD_PER_USER,
      signUpPerIp: e.RATE_LIMIT_SIGNUP_PER_IP,
      resetEmailPerEmail: e.RATE_LIMIT_RESET_EMAIL_PER_EMAIL,
      resetEmailPerIp: e.RATE_LIMIT_RESET_EMAIL_PER_IP,
      resetCodePerIp: e.RATE_LIMIT_RESET_CODE_PER_IP,
      articleCreatePerUser: e.RATE_LIMIT_ARTICLE_CREATE_PER_USER,
      imageUploadPerUser: e.RATE_LIMIT_IMAGE_UPLOAD_PER_USER,
      searchPerIp: e.RATE_LIMIT_SEARCH_PER_IP,
      passkeySignInStartPerIp: e.RATE_LIMIT_PASSKEY_SIGNIN_START_PER_IP,
      commentPerUser: e.RATE_LIMIT_COMMENT_PER_USER,
    },
    comments: e.COMMENTS,
    newsletter: e.NEWSLETTER,
    federation: e.FEDERATION,
    federationHandle: e.FEDERATION_HANDLE,
    mailPoolSize: e.MAIL_POOL_SIZE,
    mailRatePerSecond: e.MAIL_RATE_PER_SECOND,
    dkim: dkimConfig(e.DKIM_DOMAIN, e.DKIM_SELECTOR, e.DKIM_PRIVATE_KEY_FILE),
    passkeyAnonymousChallengesMax: e.PASSKEY_ANONYMOUS_CHALLENGES_MAX,
  };
}

/** DKIM needs all three variables or none; the key file must hold a PEM private key. */
/** Other servers reach an ActivityPub actor over https; plain http only on this machine (tests). */
function federationReachable(publicUrl: string): boolean {
  const url = URL.parse(publicUrl);
  if (!url) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '127.0.0.1');
}

function dkimConfig(
  domain: string | undefined,
  selector: string | undefined,
  keyFile: string | undefined,
): Config['dkim'] {
  const given = [domain, selector, keyFile].filter((value) => value !== undefined).length;
  if (given === 0) return undefined;
  if (given !== 3) {
    throw new ConfigError(
      'Invalid configuration: DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY_FILE must be set together',
    );
  }
  let privateKey: string;
  try {
    privateKey = fs.readFileSync(keyFile!, 'utf8');
  } catch {
    throw new ConfigError('Invalid configuration: DKIM_PRIVATE_KEY_FILE cannot be read');
  }
  if (!/-----BEGIN (RSA |EC )?PRIVATE KEY-----/.test(privateKey)) {
    throw new ConfigError('Invalid configuration: DKIM_PRIVATE_KEY_FILE must hold a PEM private key');
  }
  return { domainName: domain!.toLowerCase(), keySelector: selector!, privateKey };
}

/**
 * A display name as an email header carries it (RFC 5322 §3.2.5): as it is when it is only
 * letters, digits, spaces and the "atext" signs, otherwise a quoted string.
 */
export function mailDisplayName(name: string): string {
  if (/^[\p{L}\p{N} !#$%&'*+\-/=?^_`{|}~]+$/u.test(name)) return name;
  return `"${name.replace(/["\\]/g, (sign) => `\\${sign}`)}"`;
}
