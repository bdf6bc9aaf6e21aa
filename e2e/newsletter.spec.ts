import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { startRulesSmtp, type RulesSmtp } from '../test/support/recipientRulesSmtp.ts';
import { startTestApp, type TestApp } from '../test/support/testApp.ts';
import { contractDatabases } from '../test/support/testDatabases.ts';
import { setRole } from '../test/support/operatorActions.ts';
import { markAddressVerified } from '../test/support/verifiedAccounts.ts';
import { axeViolations } from './support/axe.ts';
import { screenshot } from './support/looks.ts';

// Newsletters in the browser (DESIGN.md §9.3): the subscribe form without script, checked by
// axe in both themes, and the newsletter mail's HTML as a mail client's web view shows it, at
// a phone's and a laptop's width, light and dark (test-results/newsletter/, for a person to look at).

const SHOTS_DIR = 'test-results/newsletter';
let blog: TestApp;
let smtp: RulesSmtp;
test.beforeAll(async () => {
  smtp = await startRulesSmtp();
  blog = await startTestApp(contractDatabases()[0]!, { NEWSLETTER: 'on', SMTP_URL: smtp.url, SITE_TITLE: 'The Quill' });
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
});
test.afterAll(async () => {
  await blog?.close();
  await smtp?.close();
});

test.setTimeout(90_000);

test('a reader subscribes and confirms with script turned off; the forms pass axe in both themes', async ({
  browser,
  page,
}) => {
  await page.goto(`${blog.url}/`);
  await expect(page.getByRole('heading', { level: 1, name: 'The Quill' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Subscribe' }).first()).toBeVisible();
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    expect(await axeViolations(page), `${theme}: axe violations`).toEqual([]);
  }

  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noScript.newPage();
  await plain.goto(`${blog.url}/`);
  const form = plain.locator('form[action="/subscribe"]').first();
  await form.getByLabel('Email').fill('noscript@example.org');
  await form.getByRole('button', { name: 'Subscribe' }).click();
  await expect(plain.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
  const [mail] = await smtp.waitFor(1, (m) => m.to === 'noscript@example.org');
  const link = /(\/subscribe\/confirm\?token=[A-Za-z0-9_-]{43})/.exec(mail!.text)![1]!;
  // The confirmation page (axe needs script: it runs in the page).
  await page.goto(`${blog.url}${link}`);
  expect(await axeViolations(page)).toEqual([]);
  await plain.goto(`${blog.url}${link}`);
  await plain.getByRole('button', { name: 'Confirm' }).click();
  await expect(plain.getByRole('heading', { name: 'You are subscribed' })).toBeVisible();
  await noScript.close();
});

test('the newsletter mail reads well at 390 and 1280 px, light and dark, with no sideways scroll', async ({
  page,
  request,
}) => {
  // A subscriber of its own, through the API: the mail goes to the confirmed ones.
  expect((await request.post(`${blog.url}/api/subscribers`, { data: { email: 'looker@example.org' } })).status()).toBe(
    202,
  );
  const [confirmation] = await smtp.waitFor(1, (m) => m.to === 'looker@example.org');
  const token = /token=([A-Za-z0-9_-]{43})/.exec(confirmation!.text)![1]!;
  expect((await request.post(`${blog.url}/api/subscribers/confirm`, { data: { token } })).status()).toBe(200);
  const signUp = await request.post(`${blog.url}/identity/v1/accounts:signUp?key=e2e`, {
    data: {
      email: `writer-${Date.now()}@example.com`,
      password: 'correct horse battery',
      displayName: 'Wren Writer',
      returnSecureToken: true,
    },
  });
  const { idToken } = (await signUp.json()) as { idToken: string };
  const made = await request.post(`${blog.url}/api/articles`, {
    headers: { authorization: `Bearer ${idToken}` },
    data: {
      image: `${blog.url}/favicon.svg`,
      title: 'Letters from the lighthouse',
      description:
        'The keeper writes every week.\n\n## The storm\n\nIt came at night, and **nobody slept**. A [long link to the harbour office](https://harbour.example.org/notices/2026/very/long/path/that/should/wrap) says more.\n\n> Keep the light burning.\n\n- oil\n- wicks\n- patience\n\n`code that is rather long and should not push the page sideways at all, ever`',
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const [mail] = await smtp.waitFor(1, (m) => m.subject === 'Letters from the lighthouse');
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.setContent(mail!.html, { waitUntil: 'load' });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${theme} ${width}: sideways scroll`).toBeLessThanOrEqual(0);
      await screenshot(page, `${SHOTS_DIR}/mail-${theme}-${width}.png`, { fullPage: true });
    }
  }
});

test('an editor sees the sends and the subscribers in /admin, searches and removes one', async ({ page, request }) => {
  const email = `editor-${Date.now()}@example.com`;
  const password = 'correct horse battery';
  const signUp = await request.post(`${blog.url}/identity/v1/accounts:signUp?key=e2e`, {
    data: { email, password, displayName: 'Edna Editor', returnSecureToken: true },
  });
  expect(signUp.status()).toBe(200);
  await setRole(blog, email, 'editor');
  await page.goto(`${blog.url}/login`);
  const main = page.getByRole('main');
  await main.getByLabel('Email', { exact: true }).fill(email);
  await main.getByLabel('Password', { exact: true }).fill(password);
  await main.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(`${blog.url}/`);
  await page.goto(`${blog.url}/admin?tab=newsletter`);
  await expect(page.getByRole('tab', { name: 'Newsletter' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('newsletter-send').filter({ hasText: 'Letters from the lighthouse' })).toContainText(
    'done',
  );
  await expect(page.getByText(/confirmed subscribers?$/)).toBeVisible();
  await page.getByLabel('Search subscribers').fill('looker');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByTestId('subscriber')).toHaveCount(1);
  expect(await axeViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Remove looker@example.org' }).click();
  await expect(page.getByTestId('subscriber')).toHaveCount(0);
  await screenshot(page, `${SHOTS_DIR}/admin-newsletter-1280.png`, { fullPage: true });

  // The profile's one click: refused until the address is verified, then on without any mail.
  await page.goto(`${blog.url}/profile`);
  const newsletterSwitch = page.getByRole('checkbox', { name: 'Get new articles by email' });
  await newsletterSwitch.click();
  await expect(page.getByText('Verify your email address first')).toBeVisible();
  const { localId } = (await signUp.json()) as { localId: string };
  await markAddressVerified(blog, localId);
  await page.reload();
  const before = smtp.messages.length;
  await page.getByRole('checkbox', { name: 'Get new articles by email' }).click();
  await expect(page.getByRole('checkbox', { name: 'Get new articles by email' })).toBeChecked();
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Get new articles by email' })).toBeChecked();
  expect(smtp.messages.slice(before).filter((m) => m.to === email)).toEqual([]);
});
