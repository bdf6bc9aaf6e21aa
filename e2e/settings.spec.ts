import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { setRole } from '../test/support/operatorActions.ts';
import { startTestApp, type TestApp } from '../test/support/testApp.ts';
import { contractDatabases } from '../test/support/testDatabases.ts';
import { expectSignedIn, logIn } from './support/accounts.ts';
import { lookAt } from './support/looks.ts';

// Site settings in the browser (DESIGN.md §9.6): the owner changes the title, a navigation link,
// the footer and the accent on /admin's Settings tab, and a reader's next page shows them. A
// server of its own: a changed site would show in every other test's pages.

const SCREENS_DIR = path.join('test-results', 'screens', 'settings');

let blog: TestApp;
test.beforeAll(async () => {
  blog = await startTestApp(contractDatabases()[0]!, { SITE_TITLE: 'The Quill', SITE_DESCRIPTION: 'Short pieces.' });
});
test.afterAll(async () => {
  await blog?.close();
});

const screenshots = (page: Page, label: string, fullPage = false) =>
  lookAt(page, label, { dir: SCREENS_DIR, fullPage });

test('the owner changes the title and a navigation link in Settings, and a reader’s next page shows them', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const email = `owner-${Date.now().toString(36)}@example.com`;
  const password = 'correct horse battery staple';
  const made = await page.request.post(`${blog.url}/identity/v1/accounts:signUp?key=e2e`, {
    data: { email, password, displayName: 'Olive Owner', returnSecureToken: true },
  });
  expect(made.status()).toBe(200);
  await setRole(blog, email, 'owner');

  // A reader's page before: the first values, no site navigation.
  const reader = await browser.newPage();
  await reader.goto(`${blog.url}/`);
  await expect(reader.getByRole('heading', { level: 1, name: 'The Quill' })).toBeVisible();
  await expect(reader.getByRole('navigation', { name: 'Site' })).toHaveCount(0);

  await page.goto(`${blog.url}/login`);
  await logIn(page, email, password);
  await expectSignedIn(page);
  await page.goto(`${blog.url}/admin`);
  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(page).toHaveURL(`${blog.url}/admin?tab=settings`);
  const title = page.getByLabel('Title', { exact: true });
  await expect(title).toHaveValue('The Quill');

  await title.fill('The Bakery');
  await page.getByLabel('Accent colour').fill('#9a3412');
  await page.getByRole('button', { name: 'Add a link' }).click();
  await page.getByLabel('Label 1').fill('About');
  await page.getByLabel('URL 1').fill('javascript:alert(1)');
  await page.getByRole('button', { name: 'Add a link' }).click();
  await page.getByLabel('Label 2').fill('Bread');
  await page.getByLabel('URL 2').fill('/tag/bread');
  await page.getByLabel('Footer text').fill('Baked in Graz since 1990.');

  // A bad URL: its error beside it, and everything typed still there.
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Some settings need a change: see the fields marked below.')).toBeVisible();
  const urlError = 'A link’s URL must be a path of this site starting with / or an http:// or https:// address.';
  await expect(page.getByLabel('URL 1')).toHaveAccessibleDescription(new RegExp(urlError.replace(/[/.]/g, '\\$&')));
  await expect(page.getByLabel('URL 1')).toHaveValue('javascript:alert(1)');
  await expect(title).toHaveValue('The Bakery');
  await expect(page.getByLabel('Label 2')).toHaveValue('Bread');
  await screenshots(page, 'settings-error', true);

  // Reordered: Bread first, then About at its fixed address.
  await page.getByRole('button', { name: 'Move up Bread' }).click();
  await expect(page.getByLabel('Label 1')).toHaveValue('Bread');
  await page.getByLabel('URL 2').fill('/about');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Settings saved.')).toBeVisible();
  await screenshots(page, 'settings-saved', true);

  // The reader's next page, with no restart.
  await reader.reload();
  await expect(reader.getByRole('heading', { level: 1, name: 'The Bakery' })).toBeVisible();
  await expect(reader).toHaveTitle('The Bakery');
  const siteLinks = reader.getByRole('navigation', { name: 'Site' }).getByRole('link');
  await expect(siteLinks).toHaveText(['Bread', 'About']);
  await expect(siteLinks.nth(1)).toHaveAttribute('href', '/about');
  await expect(reader.getByText('Baked in Graz since 1990.')).toBeVisible();
  // The spec's Home link stays.
  await expect(reader.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' })).toBeVisible();
  // The accent reaches the ink mark through the settings' stylesheet (no inline style).
  await expect(reader.locator('header svg').first()).toHaveCSS('color', 'rgb(154, 52, 18)');
  await screenshots(reader, 'home-with-settings', true);
});
