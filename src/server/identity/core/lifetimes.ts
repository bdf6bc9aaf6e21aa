/** How long the identity core's credentials live; one place, read by the core and its doors. */

export const ID_TOKEN_LIFETIME_SECONDS = 3600;

/** A refresh token unused this long is dead. */
export const SESSION_IDLE_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

export const PASSWORD_RESET_CODE_LIFETIME_MS = 60 * 60 * 1000;

/** Verification links (VERIFY_EMAIL, VERIFY_AND_CHANGE_EMAIL). */
export const VERIFY_EMAIL_CODE_LIFETIME_MS = 3 * 24 * 60 * 60 * 1000;

/** The link in the old address's notice that undoes an email change (docs/architecture.md, Sign-in protocol). */
export const RECOVER_EMAIL_CODE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** The first-password link of an account an operator made: mailed, so days rather than an hour. */
export const ACCOUNT_SETUP_CODE_LIFETIME_MS = 3 * 24 * 60 * 60 * 1000;
