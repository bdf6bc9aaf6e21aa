import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startServerProcess, type ServerProcess } from '../test/support/serverProcess.ts';
import { apiSignUp } from './support/api.ts';
import { expectSignedIn, expectSignedOut, newAccount, signInThroughApi, topBar } from './support/accounts.ts';
import { linkIn, waitForMail } from './support/mailbox.ts';
import { lookAt } from './support/looks.ts';
import { giveRole } from './support/operator.ts';

const SCREENS_DIR = path.join('test-results', 'screens', 'roles');

const screenshots = (page: Page, label: string) =>
  lookAt(page, label, { dir: SCREENS_DIR, fullPage: true, axe: false });

test('an owner manages members and invites an editor, who signs up by the link; the link then says it is used', async ({
  page,
  request,
}) => {
  // A long story with eight full-page screenshots: more than the default 30 s on a busy machine.
  test.setTimeout(120_000);
  const owner = await apiSignUp(request, 'Olga Owner');
  const member = await apiSignUp(request, `Mina Member ${Date.now()}`);
  await giveRole(owner.email, 'owner');
  await signInThroughApi(page, owner);

  await topBar(page).getByRole('link', { name: 'Profile' }).click();
  await page.getByRole('link', { name: 'Site administration' }).click();
  await expect(page).toHaveURL('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Site administration' })).toBeVisible();

  // Members: search, role, disable and enable.
  await page.getByRole('searchbox', { name: 'Search members' }).fill(member.name);
  await page.getByRole('button', { name: 'Search' }).click();
  const row = page.getByTestId('member');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(member.email);
  await expect(row).toContainText('0 articles');
  await row.getByRole('combobox').selectOption('reader');
  await expect(row.getByRole('combobox')).toHaveValue('reader');
  await row.getByRole('button', { name: `Disable ${member.name}` }).click();
  await expect(row).toContainText('Disabled');
  // The server holds the change: the member can no longer sign in.
  const refused = await request.post('/identity/v1/accounts:signInWithPassword?key=e2e', {
    data: { email: member.email, password: member.password, returnSecureToken: true },
  });
  expect(await refused.text()).toContain('USER_DISABLED');
  await row.getByRole('button', { name: `Enable ${member.name}` }).click();
  await expect(row).not.toContainText('Disabled');

  // Invitations: make one for an editor, bound to an address.
  const invited = newAccount('invited');
  const form = page.getByRole('region', { name: 'Invitations' });
  await form.getByLabel('Role').selectOption('editor');
  await form.getByLabel('Email (optional: only this address may use it)').fill(invited.email);
  await form.getByRole('button', { name: 'Create invitation' }).click();
  await expect(page.getByTestId('invitation-link')).toHaveValue(/\/signup\?invite=/);
  const link = await page.getByTestId('invitation-link').inputValue();
  expect(link).toMatch(/\/signup\?invite=[A-Za-z0-9_-]{43}$/);
  // It was mailed to that address too (issue 39.7), and the screen says so.
  await expect(
    form.getByText(`New invitation: we emailed this link to ${invited.email}. It is shown only once.`),
  ).toBeVisible();
  await expect(page.getByTestId('invitation').filter({ hasText: invited.email })).toContainText('Editor');
  await page.getByRole('searchbox', { name: 'Search members' }).fill('');
  await screenshots(page, 'admin');

  // A second, revoked one says so.
  await form.getByLabel('Role').selectOption('reader');
  await form.getByLabel('Email (optional: only this address may use it)').fill('');
  await form.getByRole('button', { name: 'Create invitation' }).click();
  // The new link replaces the editor's in the same field once it is made.
  await expect(page.getByTestId('invitation-link')).not.toHaveValue(link);
  const revokedLink = await page.getByTestId('invitation-link').inputValue();
  await page.getByRole('button', { name: 'Revoke: Reader' }).first().click();
  await expect(page.getByTestId('invitation').filter({ hasText: 'Reader' })).toHaveCount(0);

  await topBar(page).getByRole('link', { name: 'Profile' }).click();
  await page.getByRole('button', { name: 'Log Out' }).click();

  await page.goto(new URL(revokedLink).pathname + new URL(revokedLink).search);
  await expect(page.getByTestId('signup-closed')).toHaveText('This invitation has been withdrawn. Ask for a new one.');

  const invitePath = new URL(link).pathname + new URL(link).search;
  await page.goto(invitePath);
  // The link does not say which address it was sent to (decision 0551): the person types it.
  await expect(page.getByTestId('invitation-role')).toHaveText(
    'This invitation makes you an Editor. Sign up with the address the invitation was sent to; the role is yours once you confirm it from the email we send.',
  );
  await expect(page.getByLabel('Your email')).toHaveValue('');
  await screenshots(page, 'signup-invited');
  await page.getByLabel('Your name').fill(invited.name);
  await page.getByLabel('Your email').fill(invited.email);
  await page.getByLabel('Your password', { exact: true }).fill(invited.password);
  await page.getByLabel('Confirm your password').fill(invited.password);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page).toHaveURL('/');
  await expectSignedIn(page);
  // Not an editor until the address is proven: the administration is not there yet.
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  // The verification link, opened in this browser signed in to the account, grants the role.
  const verify = linkIn(await waitForMail(invited.email, /^Verify your Inkwell email address$/), '/action');
  await page.goto(verify.pathname + verify.search);
  await expect(page.getByRole('alert').filter({ hasText: 'is verified' })).toBeVisible();
  // An editor gets the administration too.
  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Site administration' })).toBeVisible();

  await topBar(page).getByRole('link', { name: 'Profile' }).click();
  await page.getByRole('button', { name: 'Log Out' }).click();
  // Signed out before the next page: a signed-in visit to /login is sent home.
  await expectSignedOut(page);
  await page.goto(invitePath);
  await expect(page.getByTestId('signup-closed')).toHaveText(
    'This invitation has already been used. Ask for a new one.',
  );
});

test('an author is shown the 404 page at /admin, and so is someone signed out', async ({ page, request }) => {
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  const author = await apiSignUp(request, 'Arthur Author');
  await signInThroughApi(page, author);
  await topBar(page).getByRole('link', { name: 'Profile' }).click();
  await expect(page.getByRole('button', { name: 'Log Out' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Site administration' })).toHaveCount(0);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});

test.describe('sign-up policies, each on a server of its own', () => {
  const servers: ServerProcess[] = [];
  const dataDirs: string[] = [];
  const start = async (signup: string, port: number) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `inkwell-e2e-${signup}-`));
    dataDirs.push(dataDir);
    const server = await startServerProcess(
      { DATA_DIR: dataDir, SIGNUP: signup, LOG_LEVEL: 'warn', PUBLIC_URL: `http://127.0.0.1:${port}` },
      port,
    );
    servers.push(server);
    return server;
  };
  test.afterAll(async () => {
    for (const server of servers) await server.stop();
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('closed: the sign-up page says so and the login page offers no account to create', async ({ page }) => {
    const server = await start('closed', Number(process.env.E2E_PORT ?? 3100) + 2);
    await page.goto(`${server.url}/signup`);
    await expect(page.getByTestId('signup-closed')).toHaveText('Sign-up is closed.');
    await expect(page.getByLabel('Your email')).toHaveCount(0);
    await screenshots(page, 'signup-closed');
    await page.goto(`${server.url}/login`);
    await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Create an account' })).toHaveCount(0);
  });

  test('invite: without an invitation the sign-up page says it is by invitation only', async ({ page }) => {
    const server = await start('invite', Number(process.env.E2E_PORT ?? 3100) + 3);
    await page.goto(`${server.url}/signup`);
    await expect(page.getByTestId('signup-closed')).toHaveText('Sign-up is by invitation only.');
    await page.goto(`${server.url}/signup?invite=${'x'.repeat(43)}`);
    await expect(page.getByTestId('signup-closed')).toHaveText(
      'This invitation link is not valid. Check that you copied all of it, or ask for a new one.',
    );
    await page.goto(`${server.url}/login`);
    await expect(page.getByRole('link', { name: 'Create an account' })).toBeVisible();
  });
});
