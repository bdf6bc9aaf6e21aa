import { expect, test } from '@playwright/test';
import { startTestApp, type TestApp } from '../test/support/testApp.ts';
import { contractDatabases } from '../test/support/testDatabases.ts';
import { logIn } from './support/accounts.ts';
import { lookAt } from './support/looks.ts';

// A blog with no articles yet (issue 15 §1): the shared test server has articles from other
// tests, so this file starts the real app on a fresh database of its own.

let blog: TestApp;
test.beforeAll(async () => {
  blog = await startTestApp(contractDatabases()[0]!);
});
test.afterAll(async () => {
  await blog?.close();
});

test('an empty blog with no owner tells its operator how to name one, with script and without', async ({
  page,
  browser,
}) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${blog.url}/`);
  const hint = page.getByText('npm run admin -- users create you@example.com --role owner');
  await expect(page.getByText('No articles yet.')).toBeVisible();
  await expect(hint).toBeVisible();
  await expect(hint).toContainText('OWNER_EMAIL');
  // The app has taken the page over (its Login is no longer pending) and the hint stayed.
  await expect(page.locator('.auth-pending')).toHaveCount(0);
  await expect(hint).toBeVisible();
  await lookAt(page, 'owner-hint', { dir: 'test-results/screens' });
  expect(errors).toEqual([]);

  const context = await browser.newContext({ javaScriptEnabled: false });
  const quiet = await context.newPage();
  await quiet.goto(`${blog.url}/`);
  await expect(quiet.getByText('npm run admin -- users create you@example.com --role owner')).toBeVisible();
  await context.close();
});

test('an empty blog says so, and offers a signed-in person to write the first article', async ({ page, request }) => {
  await page.goto(`${blog.url}/`);
  await expect(page.getByRole('heading', { level: 1, name: 'Inkwell' })).toBeVisible();
  await expect(page.getByText('No articles yet.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Write the first article' })).toHaveCount(0);

  const email = `first-${Date.now().toString(36)}@example.com`;
  const password = 'correct horse battery';
  const signUp = await request.post(`${blog.url}/identity/v1/accounts:signUp?key=e2e`, {
    data: { email, password, displayName: 'First Writer', returnSecureToken: true },
  });
  expect(signUp.status()).toBe(200);
  await page.goto(`${blog.url}/login`);
  await logIn(page, email, password);
  await expect(page).toHaveURL(`${blog.url}/`);
  await expect(page.getByText('No articles yet.')).toBeVisible();
  await page.getByRole('link', { name: 'Write the first article' }).click();
  await expect(page.getByRole('heading', { name: 'Add an Article' })).toBeVisible();
});
