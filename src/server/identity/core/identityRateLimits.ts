import type { Config } from '../../config.ts';
import type { RateLimiter, RateLimitRule } from '../../rateLimit/rateLimiter.ts';
import { tooManyAttempts } from './identityErrors.ts';
import { hashSecret } from './opaqueSecrets.ts';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

export function identityRateLimitRules(limits: Config['rateLimits']) {
  return {
    // Failures on one account from one address: the strict limit, which no stranger elsewhere can use up.
    signInPerEmailAndIp: { name: 'identity.signin.email-ip', limit: limits.signInPerEmail, windowMs: 15 * MINUTE },
    // Failures on one account from everywhere: guessing spread over many addresses (decision 0141).
    signInPerAccount: { name: 'identity.signin.account', limit: limits.signInPerAccount, windowMs: 15 * MINUTE },
    signInPerIp: { name: 'identity.signin.ip', limit: limits.signInPerIp, windowMs: 15 * MINUTE },
    // Every attempt, successes too: bounds the password hashing one client can cause.
    signInAttemptsPerIp: { name: 'identity.signin.all-ip', limit: limits.signInAttemptsPerIp, windowMs: 15 * MINUTE },
    // Verification links one account may ask for: as many as reset emails per address.
    verifyEmailPerUser: { name: 'identity.verify-email.user', limit: limits.resetEmailPerEmail, windowMs: HOUR },
    emailChangePerUser: { name: 'identity.email-change.user', limit: limits.emailChangePerUser, windowMs: HOUR },
    passwordChangePerUser: {
      name: 'identity.password-change.user',
      limit: limits.passwordChangePerUser,
      windowMs: HOUR,
    },
    signUpPerIp: { name: 'identity.signup.ip', limit: limits.signUpPerIp, windowMs: HOUR },
    // Browser sign-ins started with a provider (each writes a pending row): as many as sign-in attempts.
    providerStartPerIp: {
      name: 'identity.provider-start.ip',
      limit: limits.signInAttemptsPerIp,
      windowMs: 15 * MINUTE,
    },
    resetEmailPerEmail: { name: 'identity.reset-email.email', limit: limits.resetEmailPerEmail, windowMs: HOUR },
    resetEmailPerIp: { name: 'identity.reset-email.ip', limit: limits.resetEmailPerIp, windowMs: HOUR },
    resetCodePerIp: { name: 'identity.reset-code.ip', limit: limits.resetCodePerIp, windowMs: 15 * MINUTE },
  } satisfies Record<string, RateLimitRule>;
}

export type IdentityRateLimitRules = ReturnType<typeof identityRateLimitRules>;

/** Emails are keyed by hash so the counters table holds no addresses. */
export function emailKey(normalizedEmail: string): string {
  return hashSecret(normalizedEmail);
}

/** Counts one attempt against every rule (one statement); throws 429 when any is over. */
export async function consumeOrThrow(limiter: RateLimiter, checks: [RateLimitRule, string][]): Promise<void> {
  let retryAfter = 0;
  for (const decision of await limiter.consumeAll(checks)) {
    if (!decision.allowed) retryAfter = Math.max(retryAfter, decision.retryAfterSeconds);
  }
  if (retryAfter > 0) throw tooManyAttempts(retryAfter);
}
