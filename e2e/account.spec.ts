import { expect, test, type Page } from '@playwright/test';
import { startTestApp, type TestApp } from '../test/support/testApp.ts';
import { contractDatabases } from '../test/support/testDatabases.ts';
import {
  expectSignedIn,
  expectSignedOut,
  logIn,
  logOutFromProfile,
  newAccount,
  signUp,
  signUpThroughApi,
  topBar,
  createAccount,
} from './support/accounts.ts';
import { linkIn, waitForMail } from './support/mailbox.ts';

// Each test has its own account, so they can share the two workers.
test.describe.configure({ mode: 'parallel' });

const texts = {
  loginFailed: 'Something went wrong. Make sure you create an account first',
  signupFailed: 'Account could not be created. Please try again later.',
  mismatch: 'Passwords do not match',
  updateFailed: 'Failed to update account',
  resetSent: 'A reset link has been sent to your email. Check your inbox.',
  resetFailed: 'An error has occured. Make sure the email is registered',
};

const alertIn = (page: Page) => page.getByRole('main').getByRole('alert');

/** Everything page JavaScript can read: no refresh token may be among it. */
async function expectNoReadableRefreshToken(page: Page) {
  const cookies = await page.context().cookies();
  const session = cookies.find((cookie) => cookie.name === 'inkwell_session');
  expect(session, 'the session cookie is set').toBeDefined();
  expect(session!.httpOnly).toBe(true);
  expect(session!.sameSite).toBe('Strict');
  expect(session!.path).toBe('/identity');
  const readable = await page.evaluate(() => ({
    cookie: document.cookie,
    local: JSON.stringify({ ...localStorage }),
    session: JSON.stringify({ ...sessionStorage }),
  }));
  for (const [where, content] of Object.entries(readable)) {
    expect(content, where).not.toContain(session!.value);
    expect(content, where).not.toMatch(/refresh/i);
  }
  expect(readable.cookie).not.toContain('inkwell_session');
}

test('sign up signs in, survives a reload, exposes no refresh token, and logs out', async ({ page }) => {
  const account = newAccount('signup');
  await page.goto('/signup');
  await expect(page).toHaveTitle('Sign Up – Inkwell');
  await signUp(page, account);

  await expectNoReadableRefreshToken(page);

  // A reload restores the session from the HttpOnly cookie, without a flash of "Login".
  let sawLogin = false;
  await page.exposeFunction('reportLogin', () => (sawLogin = true));
  await page.addInitScript(() => {
    new MutationObserver(() => {
      const nav = document.querySelector('nav[aria-label="Main"]');
      if (nav && /\bLogin\b/.test(nav.textContent ?? '')) (window as unknown as { reportLogin(): void }).reportLogin();
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.reload();
  await expectSignedIn(page);
  expect(sawLogin).toBe(false);

  await topBar(page).getByRole('link', { name: 'Profile' }).click();
  await expect(page).toHaveTitle('Profile – Inkwell');
  await expect(page.getByTestId('profile-name')).toHaveText(account.name);
  await expect(page.getByTestId('profile-email')).toHaveText(account.email);

  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL('/');
  await expectSignedOut(page);
  // The server revoked the session: a reload stays signed out.
  await page.reload();
  await expectSignedOut(page);
});

test('login failure shows the fixed message; the right password logs in', async ({ page }) => {
  const account = newAccount('login');
  await createAccount(page, account);
  await page.goto('/');

  await topBar(page).getByRole('link', { name: 'Login' }).click();
  await expect(page).toHaveTitle('Login – Inkwell');
  await expect(page.getByLabel('Email')).toHaveAttribute('type', 'email');
  await logIn(page, account.email, 'not-the-password');
  await expect(alertIn(page)).toHaveText(texts.loginFailed);

  await logIn(page, 'nobody-here@example.test', account.password);
  await expect(alertIn(page)).toHaveText(texts.loginFailed);

  await logIn(page, account.email, account.password);
  await expect(page).toHaveURL('/');
  await expectSignedIn(page);
});

test('login works with the keyboard alone', async ({ page }) => {
  const account = newAccount('keyboard');
  await createAccount(page, account);

  await page.goto('/login');
  await page.getByLabel('Email').focus();
  await page.keyboard.type(account.email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type(account.password);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL('/');
  await expectSignedIn(page);
});

test('signup says when passwords do not match and when the email is taken', async ({ page, browser }) => {
  const account = newAccount('dup');
  await page.goto('/signup');
  await page.getByLabel('Your name').fill(account.name);
  await page.getByLabel('Your email').fill(account.email);
  await page.getByLabel('Your password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm your password').fill(`${account.password}-typo`);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(alertIn(page)).toHaveText(texts.mismatch);
  await expect(page).toHaveURL('/signup');

  // Spaces alone are no password: said before anything is sent, and nothing typed is lost.
  await page.getByLabel('Your password', { exact: true }).fill('          ');
  await page.getByLabel('Confirm your password').fill('          ');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(alertIn(page)).toHaveText('Password cannot be only spaces');
  await expect(page.getByLabel('Your email')).toHaveValue(account.email);

  await page.getByLabel('Your password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm your password').fill(account.password);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expectSignedIn(page);

  // Same email again, from a fresh browser with nobody signed in.
  const other = await browser.newContext();
  const second = await other.newPage();
  await second.goto('/signup');
  await second.getByLabel('Your name').fill('Someone Else');
  await second.getByLabel('Your email').fill(account.email);
  await second.getByLabel('Your password', { exact: true }).fill('another-password');
  await second.getByLabel('Confirm your password').fill('another-password');
  await second.getByRole('button', { name: 'Sign Up' }).click();
  await expect(alertIn(second)).toHaveText(texts.signupFailed);
  await expectSignedOut(second);
  await other.close();
});

test('protected routes send signed-out visitors to login and back afterwards', async ({ page }) => {
  const account = newAccount('guard');
  await createAccount(page, account);

  await page.goto('/article-update');
  await expect(page).toHaveURL('/login');
  await page.goto('/profile');
  await expect(page).toHaveURL('/login');
  await logIn(page, account.email, account.password);
  await expect(page).toHaveURL('/profile');
  await expect(page.getByTestId('profile-email')).toHaveText(account.email);
});

test('forgot password: the email arrives, its link sets a new password, the old one stops working', async ({
  page,
}) => {
  const account = newAccount('reset');
  await signUp(page, account);
  await logOutFromProfile(page);

  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot Password?' }).click();
  await expect(page).toHaveURL('/forgot-password');
  await expect(page).toHaveTitle('Forgot Password – Inkwell');
  await page.getByLabel('Email').fill(account.email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(alertIn(page)).toHaveText(texts.resetSent);

  const mail = await waitForMail(account.email, /reset/i);
  const link = linkIn(mail, '/reset-password');
  expect(link.searchParams.get('oobCode')).toBeTruthy();

  await page.goto(link.pathname + link.search);
  await expect(page).toHaveTitle('Reset Password – Inkwell');
  await expect(page.getByTestId('reset-email')).toHaveText(account.email);
  const newPassword = `${account.password}-new`;
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(`${newPassword}x`);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(alertIn(page)).toHaveText(texts.mismatch);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page).toHaveURL('/login');
  await expect(page.getByRole('status')).toContainText('password has been changed');

  await logIn(page, account.email, account.password);
  await expect(alertIn(page)).toHaveText(texts.loginFailed);
  await logIn(page, account.email, newPassword);
  await expect(page).toHaveURL('/');
  await expectSignedIn(page);

  // The link is spent: opening it again says so and offers a new one.
  await page.goto(link.pathname + link.search);
  await expect(alertIn(page)).toContainText('expired or has already been used');
  await page.getByRole('link', { name: 'Request a new reset link' }).click();
  await expect(page).toHaveURL('/forgot-password');
});

test('forgot password shows the failure text in the same box when the server refuses', async ({ page }) => {
  // Five reset emails per address per hour (README: RATE_LIMIT_RESET_EMAIL_PER_EMAIL): the sixth request is refused.
  const email = newAccount('limit').email;
  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(email);
  for (let attempt = 1; attempt <= 5; attempt++) {
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(alertIn(page)).toHaveText(texts.resetSent);
    await expect(page.getByRole('button', { name: 'Send Reset Link' })).toBeEnabled();
  }
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(alertIn(page)).toHaveText(texts.resetFailed);
});

test('profile: view, cancel, mismatch, then save name, email and password', async ({ page }) => {
  const account = newAccount('profile');
  await signUpThroughApi(page, account);
  await topBar(page).getByRole('link', { name: 'Profile' }).click();

  await page.getByRole('button', { name: 'Update Profile' }).click();
  await expect(page.getByLabel('Name')).toHaveValue(account.name);
  await expect(page.getByLabel('Email')).toHaveValue(account.email);
  await page.getByLabel('Name').fill('Changed But Cancelled');
  await page.getByRole('button', { name: 'Cancel Edit' }).click();
  await expect(page.getByTestId('profile-name')).toHaveText(account.name);
  await expect(page.getByRole('button', { name: 'Log Out' })).toBeVisible();

  await page.getByRole('button', { name: 'Update Profile' }).click();
  await page.getByLabel('Password', { exact: true }).fill('new-password-1');
  await page.getByLabel('Confirm password').fill('new-password-2');
  await page.getByRole('button', { name: 'Save Updates' }).click();
  await expect(alertIn(page)).toHaveText(texts.mismatch);

  const newEmail = newAccount('profile-new').email;
  const newPassword = `${account.password}-changed`;
  await page.getByLabel('Name').fill('Renamed Tester');
  await page.getByLabel('Email').fill(newEmail);
  await page.getByLabel('Password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm password').fill(newPassword);
  await page.getByRole('button', { name: 'Save Updates' }).click();
  // Edit mode closes after the save.
  await expect(page.getByRole('button', { name: 'Update Profile' })).toBeVisible();
  await expect(page.getByTestId('profile-name')).toHaveText('Renamed Tester');
  await expect(page.getByTestId('profile-email')).toHaveText(newEmail);

  // Still signed in after a reload (the password change gave this browser a new session).
  await page.reload();
  await expect(page.getByTestId('profile-email')).toHaveText(newEmail);
  await page.getByRole('button', { name: 'Log Out' }).click();
  await expectSignedOut(page);

  await page.goto('/login');
  await logIn(page, account.email, account.password);
  await expect(alertIn(page)).toHaveText(texts.loginFailed);
  await logIn(page, newEmail, newPassword);
  await expect(page).toHaveURL('/');
  await expectSignedIn(page);
});

test('deleting the account asks for the password, signs out, and the account is gone', async ({ page }) => {
  const account = newAccount('delete');
  await signUpThroughApi(page, account);
  await topBar(page).getByRole('link', { name: 'Profile' }).click();

  await page.getByRole('button', { name: 'Delete account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete account' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Current password')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await page.getByRole('button', { name: 'Delete account' }).click();
  await dialog.getByLabel('Current password').fill('wrong-password');
  await dialog.getByRole('button', { name: 'Delete account' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('That password is not correct.');

  await dialog.getByLabel('Current password').fill(account.password);
  await dialog.getByRole('button', { name: 'Delete account' }).click();
  await expect(page).toHaveURL('/');
  await expectSignedOut(page);

  await page.goto('/login');
  await logIn(page, account.email, account.password);
  await expect(alertIn(page)).toHaveText(texts.loginFailed);
});

test('sign-in and sign-out in one tab reach the other tab', async ({ context }) => {
  const account = newAccount('tabs');
  const first = await context.newPage();
  await signUp(first, account);
  await logOutFromProfile(first);

  const second = await context.newPage();
  await second.goto('/');
  await expectSignedOut(second);

  await first.goto('/login');
  await logIn(first, account.email, account.password);
  await expectSignedIn(first);
  await expectSignedIn(second);

  await logOutFromProfile(first);
  await expectSignedOut(second);
});

test('account screens fit a 360 px phone without sideways scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  for (const route of ['/login', '/signup', '/forgot-password', '/reset-password?oobCode=nope']) {
    await page.goto(route);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, route).toBeLessThanOrEqual(0);
  }
});

test.describe('with a recent-sign-in window of a few seconds', () => {
  // The worker's server wants a sign-in from the last 30 s (e2e/support/workerServers.ts; 5
  // minutes by default), long enough for the other tests' profile changes on a loaded machine.
  // This test waits the window out, so it gets an app of its own with a 5 s window rather
  // than waiting 30 s.
  const RECENT_SIGN_IN_SECONDS = 5;
  let app: TestApp;
  test.beforeAll(async () => {
    app = await startTestApp(contractDatabases()[0]!, { RECENT_SIGN_IN_SECONDS: String(RECENT_SIGN_IN_SECONDS) });
  });
  test.afterAll(async () => {
    await app?.close();
  });

  test('changing the email after the recent-sign-in window asks for the password again', async ({ page }) => {
    const account = newAccount('reauth');
    await signUp(page, account, app.url);
    await page.waitForTimeout(RECENT_SIGN_IN_SECONDS * 1000 + 500);

    await topBar(page).getByRole('link', { name: 'Profile' }).click();
    const newEmail = newAccount('reauth-new').email;
    const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' });

    // Declining the dialog (Escape, then its Cancel button) is no failure: the form stays open
    // with what was typed, and no message claims anything went wrong (issue 15).
    await page.getByRole('button', { name: 'Update Profile' }).click();
    await page.getByLabel('Email').fill(newEmail);
    for (const decline of [
      () => page.keyboard.press('Escape'),
      () => dialog.getByRole('button', { name: 'Cancel' }).click(),
    ]) {
      await page.getByRole('button', { name: 'Save Updates' }).click();
      await expect(dialog).toBeVisible();
      await expect(dialog.getByLabel('Current password')).toBeFocused();
      await decline();
      await expect(dialog).toBeHidden();
      await expect(page.getByLabel('Email')).toHaveValue(newEmail);
      await expect(page.getByRole('button', { name: 'Save Updates' })).toBeEnabled();
      await expect(alertIn(page)).toHaveText('');
    }

    // A wrong password keeps the dialog open; the right one saves.
    await page.getByRole('button', { name: 'Save Updates' }).click();
    await dialog.getByLabel('Current password').fill('wrong-password');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('That password is not correct.');
    await dialog.getByLabel('Current password').fill(account.password);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('profile-email')).toHaveText(newEmail);
  });
});
