import { expect, test, type Page } from '@playwright/test';
import { SESSION_MODE_HEADER } from '../../src/shared/identityProtocol.ts';
import { SIGNED_IN_COOKIE } from '../../src/shared/signedInCookie.ts';

export interface TestAccount {
  name: string;
  email: string;
  password: string;
}

let counter = 0;

/** A fresh account per test: parallel tests and reruns never share an email. */
export function newAccount(label: string): TestAccount {
  counter += 1;
  const unique = `${Date.now().toString(36)}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 7)}`;
  return { name: `Tester ${label}`, email: `${label}-${unique}@example.test`.toLowerCase(), password: `pw-${unique}` };
}

export const topBar = (page: Page) => page.getByRole('navigation', { name: 'Main' });

export async function expectSignedIn(page: Page) {
  await expect(topBar(page).getByRole('link', { name: 'Profile' })).toBeVisible();
}

export async function expectSignedOut(page: Page) {
  await expect(topBar(page).getByRole('link', { name: 'Login' })).toBeVisible();
}

/**
 * Signs up through the real form of `origin` (default: the worker's server) and waits until
 * the app is home and signed in.
 */
export async function signUp(page: Page, account: TestAccount, origin = '') {
  await page.goto(`${origin}/signup`);
  await page.getByLabel('Your name').fill(account.name);
  await page.getByLabel('Your email').fill(account.email);
  await page.getByLabel('Your password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm your password').fill(account.password);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page).toHaveURL(`${origin}/`);
  await expectSignedIn(page);
}

export async function logIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('main').getByRole('button', { name: 'Login' }).click();
}

/**
 * Signs in through the login page of `origin` (default: the worker's server) and waits until
 * the app is home and signed in. For an account that needs no second step.
 */
export async function signIn(page: Page, account: Pick<TestAccount, 'email' | 'password'>, origin = '') {
  await page.goto(`${origin}/login`);
  await logIn(page, account.email, account.password);
  await expect(page).toHaveURL(`${origin}/`);
  await expectSignedIn(page);
}

/**
 * Signs in without the login screen, for stories about what comes after it: the sign-in
 * service's own call in the web app's cookie mode (the session in its HttpOnly cookie, in this
 * page's context), then `path` opened signed in. A sign-in through the form costs a fresh
 * context 1.2-1.3 core-seconds of browser work against 0.6-0.75 for this (decision 0897); the
 * login form itself is what account.spec.ts, accessibility.spec.ts and the passkey, two-step and
 * provider specs go through.
 */
export async function signInThroughApi(page: Page, account: Pick<TestAccount, 'email' | 'password'>, path = '/') {
  await callSignInService(page, 'accounts:signInWithPassword', {
    email: account.email,
    password: account.password,
    returnSecureToken: true,
  });
  await openSignedIn(page, path);
}

/** Signs `account` up through the API and opens `path` signed in, as `signUp` would leave it. */
export async function signUpThroughApi(page: Page, account: TestAccount, path = '/') {
  await callSignInService(page, 'accounts:signUp', signUpBody(account));
  await openSignedIn(page, path);
}

/** An account that exists, with this page still signed out (a story that starts at the login form). */
export async function createAccount(page: Page, account: TestAccount) {
  await callSignInService(page, 'accounts:signUp', signUpBody(account), { cookieMode: false });
}

const signUpBody = (account: TestAccount) => ({
  email: account.email,
  password: account.password,
  displayName: account.name,
  returnSecureToken: true,
});

/**
 * A sign-in service call from this page's context. In cookie mode, as the web app makes it, the
 * session goes to the context's HttpOnly cookie; otherwise it stays in the reply, unused.
 */
async function callSignInService(
  page: Page,
  method: string,
  data: Record<string, unknown>,
  { cookieMode = true } = {},
) {
  const response = await page.request.post(`/identity/v1/${method}?key=e2e`, {
    headers: cookieMode ? { [SESSION_MODE_HEADER]: 'cookie' } : {},
    data,
  });
  expect(response.status(), await response.text()).toBe(200);
}

async function openSignedIn(page: Page, path: string) {
  // The note a provider sign-in leaves beside the session cookie: the page asks for the session
  // at load although nothing in its localStorage says it may have one.
  const origin = test.info().project.use.baseURL!;
  await page.context().addCookies([{ name: SIGNED_IN_COOKIE, value: '1', url: origin }]);
  await page.goto(path);
  await expectSignedIn(page);
}

/** Follows the top bar's Profile link and waits for the profile page. */
export async function openProfile(page: Page) {
  await topBar(page).getByRole('link', { name: 'Profile' }).click();
  await expect(page).toHaveURL(/\/profile$/);
}

/** Logs out from the profile, then submits the login form again (a second step may follow). */
export async function logOutAndLogInAgain(page: Page, account: Pick<TestAccount, 'email' | 'password'>) {
  await logOutFromProfile(page);
  await page.goto('/login');
  await logIn(page, account.email, account.password);
}

export async function logOutFromProfile(page: Page) {
  await topBar(page).getByRole('link', { name: 'Profile' }).click();
  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL('/');
  await expectSignedOut(page);
}
