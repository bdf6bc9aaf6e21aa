/** Every text the product fixes (docs/product.md, Texts), verbatim. Screens import them from here. */
export const messages = {
  loginFailed: 'Something went wrong. Make sure you create an account first',
  signupFailed: 'Account could not be created. Please try again later.',
  passwordsDoNotMatch: 'Passwords do not match',
  profileUpdateFailed: 'Failed to update account',
  resetLinkSent: 'A reset link has been sent to your email. Check your inbox.',
  resetFailed: 'An error has occured. Make sure the email is registered',
  mustBeLoggedIn: 'User must be logged in to add an article.',
  confirmDelete: 'Are you sure you want to delete this article?',
  // Article screens: their fixed labels and buttons (docs/product.md, Screens).
  addAnArticleButton: 'Add an article',
  addArticleHeading: 'Add an Article',
  editArticleHeading: 'Edit Article',
  imageUrlLabel: 'Image URL',
  titleLabel: 'Title',
  descriptionLabel: 'Description',
  addArticleButton: 'Add Article',
  saveArticleButton: 'Save Article',
  cancel: 'Cancel',
  edit: 'Edit',
  delete: 'Delete',
  // Article screens: texts the product leaves open (the original showed failed data calls nowhere; we say so briefly).
  noArticles: 'No articles yet.',
  loadMore: 'Load more',
  retry: 'Retry',
  offline: 'This device seems to be offline.',
  articleSaveUnreachable: 'The server could not be reached, so the article is not saved yet. Your text is kept here.',
  articlesLoadFailed: 'The articles could not be loaded.',
  articleLoadFailed: 'The article could not be loaded.',
  articleSaveFailed: 'The article could not be saved. Please try again.',
  articleDeleteFailed: 'The article could not be deleted. Please try again.',
  notYourArticle: 'You can only edit your own articles.',
  pageNotFound: 'Page not found',
  backToHome: 'Back to home',
} as const;

/** Labels, headings and button texts of the top bar and account screens (docs/product.md, Screens), verbatim. */
export const labels = {
  home: 'Home',
  profile: 'Profile',
  login: 'Login',
  email: 'Email',
  password: 'Password',
  forgotPasswordLink: 'Forgot Password?',
  createAnAccount: 'Create an account',
  signUp: 'Sign Up',
  yourName: 'Your name',
  yourEmail: 'Your email',
  yourPassword: 'Your password',
  confirmYourPassword: 'Confirm your password',
  forgotPassword: 'Forgot Password',
  sendResetLink: 'Send Reset Link',
  name: 'Name',
  confirmPassword: 'Confirm password',
  updateProfile: 'Update Profile',
  saveUpdates: 'Save Updates',
  cancelEdit: 'Cancel Edit',
  logOut: 'Log Out',
} as const;

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

/** Email verification on the profile, and the `/action` page (DESIGN.md §5). */
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
