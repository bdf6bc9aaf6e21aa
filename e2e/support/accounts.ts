import { expect, type Page } from '@playwright/test';

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
