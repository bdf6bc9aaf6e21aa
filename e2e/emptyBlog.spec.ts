import { expect, test } from '@playwright/test';
import { startTestApp, type TestApp } from '../test/support/testApp.ts';
import { contractDatabases } from '../test/support/testDatabases.ts';
import { logIn } from './support/accounts.ts';

// A blog with no articles yet (issue 15 §1): the shared test server has articles from other
// tests, so this file starts the real app on a fresh database of its own.

let blog: TestApp;
test.beforeAll(async () => {
  blog = await startTestApp(contractDatabases()[0]!);
});
test.afterAll(async () => {
  await blog?.close();
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
