/** Every text the spec fixes (sections 2, 5 and 8), verbatim. Screens import them from here. */
export const messages = {
  loginFailed: 'Something went wrong. Make sure you create an account first',
  signupFailed: 'Account could not be created. Please try again later.',
  passwordsDoNotMatch: 'Passwords do not match',
  profileUpdateFailed: 'Failed to update account',
  resetLinkSent: 'A reset link has been sent to your email. Check your inbox.',
  resetFailed: 'An error has occured. Make sure the email is registered',
  mustBeLoggedIn: 'User must be logged in to add an article.',
  confirmDelete: 'Are you sure you want to delete this article?',
  pageNotFound: 'Page not found',
  backToHome: 'Back to home',
} as const;
