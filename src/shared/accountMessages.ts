// Kept apart from messages.ts: only the account screens (loaded on demand) use these, and a text
// in messages.ts travels in the home page's JavaScript whether the home page shows it or not.

/**
 * Texts for what the original product left to the sign-in provider: the reset-password page
 * (docs/product.md) and re-authentication and account deletion (no document fixes their texts).
 * Not spec wording; kept plain and short.
 */
export const accountMessages = {
  resetLinkInvalid: 'This reset link has expired or has already been used.',
  resetLinkMissing: 'This reset link is incomplete.',
  requestNewResetLink: 'Request a new reset link',
  resetCheckFailed: 'The reset link could not be checked. Please try again.',
  resetApplyFailed: 'The password could not be changed. Please try again.',
  passwordChanged: 'Your password has been changed. Log in with your new password.',
  passwordTooShort: (minLength: number) => `Password should be at least ${minLength} characters`,
  passwordOnlySpaces: 'Password cannot be only spaces',
  profileUpdated: 'Profile updated.',
  confirmItsYou: 'Confirm it’s you',
  confirm: 'Confirm',
  reauthenticateReason: 'For your security, enter your current password to save these changes.',
  wrongPassword: 'That password is not correct.',
  deleteAccountTitle: 'Delete account',
  deleteAccountWarning: 'This permanently deletes your account. Enter your password to confirm.',
  /** The warning once the person's articles are counted: they go with the account. */
  deleteAccountWithArticles: (count: number, atLeast: boolean) =>
    count === 0
      ? 'This permanently deletes your account. You have no articles. Enter your password to confirm.'
      : `This permanently deletes your account and ${atLeast ? 'at least ' : ''}${count === 1 ? 'your 1 article' : `all ${count} of your articles`}. Enter your password to confirm.`,
  deleteAccountCounting:
    'This permanently deletes your account and all your articles (counting them…). Enter your password to confirm.',
  deleteAccountUncounted:
    'This permanently deletes your account and all your articles. Enter your password to confirm.',
  deleteAccountFailed: 'The account could not be deleted. Please try again.',
  alreadyHaveAccount: 'Already have an account?',
  keepPasswordHint: 'Leave blank to keep the same password.',
  backToLogin: 'Back to Login',
} as const;

/** Email verification on the profile, and the `/action` page (docs/product.md, Screens). */
export const emailActionMessages = {
  emailVerifiedLabel: 'Verified',
  emailNotVerifiedLabel: 'Not verified',
  sendVerificationEmail: 'Send verification email',
  verificationEmailSent: (email: string) => `A verification link has been sent to ${email}. Check your inbox.`,
  verificationEmailFailed: 'The verification email could not be sent. Please try again later.',
  actionTitle: 'Email address',
  actionWorking: 'Checking the link…',
  emailVerified: (email: string) => `Your email address ${email} is verified.`,
  emailChanged: (email: string) => `Your email address is now ${email}. Log in with it.`,
  emailRecovered: (email: string) =>
    `Your email address is ${email} again, and every device was signed out. If someone else changed it, choose a new password now.`,
  actionLinkInvalid: 'This link has expired or has already been used.',
  actionLinkIncomplete: 'This link is incomplete.',
  actionFailed: 'The link could not be applied. Please try again.',
  chooseNewPassword: 'Choose a new password',
  goToProfile: 'Go to your profile',
} as const;
