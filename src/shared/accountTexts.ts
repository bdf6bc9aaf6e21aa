/** The account screens' fixed messages (docs/product.md, Texts), verbatim. */
export const accountFixedMessages = {
  loginFailed: 'Something went wrong. Make sure you create an account first',
  signupFailed: 'Account could not be created. Please try again later.',
  passwordsDoNotMatch: 'Passwords do not match',
  profileUpdateFailed: 'Failed to update account',
  resetLinkSent: 'A reset link has been sent to your email. Check your inbox.',
  resetFailed: 'An error has occured. Make sure the email is registered',
} as const;

/** Labels, headings and button texts of the account screens (docs/product.md, Screens), verbatim. */
export const accountLabels = {
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
