import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type CDPSession, type Page } from '@playwright/test';
import { freePort, startServerProcess, type ServerProcess } from '../test/support/serverProcess.ts';
import { startSmtpSink, type SmtpSink } from '../test/support/smtpSink.ts';
import { expectSignedIn, expectSignedOut, logOutFromProfile, newAccount, signUp, topBar } from './support/accounts.ts';
import { axeViolations } from './support/axe.ts';

// WebAuthn refuses an IP address as relying party (the worker's server's PUBLIC_URL is
// http://127.0.0.1:PORT), and counts only https or localhost as secure: these tests run their
// own servers (serving the web app the global setup built) with PUBLIC_URL http://localhost:PORT,
// on ports free when the file loads.
const port = await freePort();
const stalePort = await freePort();
const origin = `http://localhost:${port}`;
let server: ServerProcess;
let dataDir: string;
// Where both servers of this file mail their verification links.
let sink: SmtpSink;

test.describe.configure({ mode: 'serial' });
test.use({ baseURL: origin });

test.beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-e2e-passkeys-'));
  sink = await startSmtpSink();
  server = await startServerProcess(
    { PUBLIC_URL: origin, DATA_DIR: dataDir, LOG_LEVEL: 'warn', SMTP_URL: sink.url },
    port,
  );
});

test.afterAll(async () => {
  await server?.stop();
  await sink?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Signs up and opens the emailed verification link in this browser: a passkey needs a verified address. */
async function signUpVerified(page: Page, account: ReturnType<typeof newAccount>) {
  await signUp(page, account);
  const mail = await sink.waitForMail(account.email, { subject: /^Verify/ });
  const link = new URL(/https?:\/\/\S*mode=verifyEmail\S*/.exec(mail.text)![0]);
  await page.goto(link.pathname + link.search);
  await expect(page.getByRole('link', { name: 'Go to your profile' })).toBeVisible();
}

/** Chromium's virtual authenticator: a platform one that keeps passkeys and verifies the user. */
async function addAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

/**
 * Chromium's virtual authenticator answers the email field's autofill request (conditional UI)
 * at once, as if the person had picked the passkey there: to test the button, this page's browser
 * says it has no such autofill.
 */
async function withoutAutofill(page: Page) {
  await page.addInitScript(() => {
    if (typeof PublicKeyCredential === 'function') {
      PublicKeyCredential.isConditionalMediationAvailable = async () => false;
    }
  });
}

async function addPasskeyOnProfile(page: Page) {
  await topBar(page).getByRole('link', { name: 'Profile' }).click();
  const section = page.getByRole('region', { name: 'Passkeys' });
  await expect(section.getByText('You have no passkeys yet.')).toBeVisible();
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(section.getByText('Passkey added.', { exact: false })).toBeVisible();
  await expect(section.getByTestId('passkey-list').getByRole('listitem')).toHaveCount(1);
  return section;
}

/** No axe violations on the screen as it is now, in both colour schemes (the list and the messages are new markup). */
async function expectAccessible(page: Page, label: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    expect(await axeViolations(page), `${label} (${colorScheme}): axe violations`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: null });
}

async function signInWithPasskeyButton(page: Page) {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
}

test('register a passkey on the profile, sign out, sign in with it, write an article, remove it, and it no longer works', async ({
  page,
}) => {
  await withoutAutofill(page);
  const { cdp, authenticatorId } = await addAuthenticator(page);
  const account = newAccount('passkey');
  await signUpVerified(page, account);

  const section = await addPasskeyOnProfile(page);
  const item = section.getByTestId('passkey-list').getByRole('listitem');
  // Named after the device that made it (Playwright's desktop Chrome says it is on Windows).
  await expect(item).toContainText(/^Chrome on \w+/);
  await expect(item).toContainText('never used');
  await expectAccessible(page, 'profile with a passkey');
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]!.isResidentCredential).toBe(true);

  await logOutFromProfile(page);
  await signInWithPasskeyButton(page);
  await expect(page).toHaveURL('/');
  await expectSignedIn(page);

  // The session a passkey started writes articles like any other.
  await page.getByRole('link', { name: 'Add an article' }).click();
  const title = `Written after a passkey sign-in ${Date.now()}`;
  await page.getByLabel('Image URL').fill('http://127.0.0.1:9/picture.png');
  await page.getByLabel('Title', { exact: true }).fill(title);
  await page.getByLabel('Description', { exact: true }).fill('No password was typed.');
  await page.getByRole('button', { name: 'Add Article' }).click();
  await expect(page).toHaveURL(/\/article\/[A-Za-z0-9]{20}$/);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByText(account.name)).toBeVisible();

  // Removing it on the profile: the list is empty, and the authenticator's copy signs no one in.
  await topBar(page).getByRole('link', { name: 'Profile' }).click();
  const again = page.getByRole('region', { name: 'Passkeys' });
  await expect(again.getByTestId('passkey-list').getByRole('listitem')).toContainText(/last used/);
  // It can be given a name the person recognises.
  await again.getByRole('button', { name: /^Rename passkey Chrome on / }).click();
  await again.getByLabel('Passkey name').fill('  Work laptop ');
  await again.getByRole('button', { name: 'Save name' }).click();
  await expect(again.getByText('Passkey renamed.')).toBeVisible();
  await expect(again.getByTestId('passkey-list').getByRole('listitem')).toContainText('Work laptop');
  await again.getByRole('button', { name: 'Remove passkey Work laptop' }).click();
  await expect(again.getByText('Passkey removed.')).toBeVisible();
  await expect(again.getByText('You have no passkeys yet.')).toBeVisible();

  await logOutFromProfile(page);
  await signInWithPasskeyButton(page);
  await expect(page.getByRole('alert').filter({ hasText: 'This passkey is not recognised.' })).toBeVisible();
  await expectAccessible(page, 'login with a passkey message');
  await expect(page).toHaveURL('/login');
  await expectSignedOut(page);
});

test('two accounts on one device each sign in only as themselves', async ({ page }) => {
  await withoutAutofill(page);
  const { cdp, authenticatorId } = await addAuthenticator(page);
  const ada = newAccount('ada');
  const bob = newAccount('bob');
  await signUpVerified(page, ada);
  await addPasskeyOnProfile(page);
  await logOutFromProfile(page);
  await signUpVerified(page, bob);
  await addPasskeyOnProfile(page);
  await logOutFromProfile(page);

  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(2);
  // The virtual authenticator offers every passkey it holds; leave it only one account's at a time.
  for (const [person, keep] of [
    [ada, credentials.find((credential) => credential.userName === ada.email)!],
    [bob, credentials.find((credential) => credential.userName === bob.email)!],
  ] as const) {
    await cdp.send('WebAuthn.clearCredentials', { authenticatorId });
    await cdp.send('WebAuthn.addCredential', { authenticatorId, credential: keep });
    await signInWithPasskeyButton(page);
    await expectSignedIn(page);
    await topBar(page).getByRole('link', { name: 'Profile' }).click();
    await expect(page.getByTestId('profile-email')).toHaveText(person.email);
    await logOutFromProfile(page);
  }
});

test('the re-authentication prompt accepts a passkey instead of the password', async ({ page }) => {
  await withoutAutofill(page);
  await addAuthenticator(page);
  const account = newAccount('reauth');
  await signUpVerified(page, account);
  await addPasskeyOnProfile(page);

  // Deleting the account asks who it is; the passkey answers.
  await page.getByRole('button', { name: 'Delete account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete account' });
  await dialog.getByRole('button', { name: 'Use a passkey instead' }).click();
  await expect(page).toHaveURL('/');
  await expectSignedOut(page);

  // The account and its passkey are gone.
  await signInWithPasskeyButton(page);
  await expect(page.getByRole('alert').filter({ hasText: 'This passkey is not recognised.' })).toBeVisible();
});

test('says so when the person cancels, and when the browser has no passkeys', async ({ page }) => {
  await withoutAutofill(page);
  const { cdp, authenticatorId } = await addAuthenticator(page);
  // An authenticator that never finds the person: the browser's prompt ends without a passkey.
  await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: false });
  await signInWithPasskeyButton(page);
  await expect(
    page.getByRole('alert').filter({ hasText: 'The passkey request was cancelled or timed out.' }),
  ).toBeVisible();

  await page.addInitScript(() => {
    Object.defineProperty(window, 'PublicKeyCredential', { value: undefined });
  });
  await signInWithPasskeyButton(page);
  await expect(page.getByRole('alert').filter({ hasText: 'This browser does not support passkeys.' })).toBeVisible();
});

test('the email field offers the passkey in its autofill, and picking it signs in', async ({ page }) => {
  await addAuthenticator(page);
  const account = newAccount('autofill');
  await signUpVerified(page, account);
  await addPasskeyOnProfile(page);
  await logOutFromProfile(page);

  await page.goto('/login');
  // Picked from the autofill list (the virtual authenticator picks at once): no button pressed.
  await expect(page).toHaveURL('/');
  await expectSignedIn(page);
  await topBar(page).getByRole('link', { name: 'Profile' }).click();
  await expect(page.getByTestId('profile-email')).toHaveText(account.email);
});

test('the login form asks the browser for passkeys in the email field’s autofill', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByLabel('Email')).toHaveAttribute('autocomplete', 'username webauthn');
});

test.describe('after the recent-sign-in window', () => {
  // A server whose recent-sign-in window is two seconds, so the test need not wait out five minutes.
  const staleOrigin = `http://localhost:${stalePort}`;
  let staleServer: ServerProcess;
  let staleDataDir: string;
  test.use({ baseURL: staleOrigin });

  test.beforeAll(async () => {
    staleDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-e2e-passkeys-'));
    staleServer = await startServerProcess(
      {
        PUBLIC_URL: staleOrigin,
        DATA_DIR: staleDataDir,
        LOG_LEVEL: 'warn',
        RECENT_SIGN_IN_SECONDS: '2',
        SMTP_URL: sink.url,
      },
      stalePort,
    );
  });
  test.afterAll(async () => {
    await staleServer?.stop();
    fs.rmSync(staleDataDir, { recursive: true, force: true });
  });

  test('adding a passkey asks who it is first: the password for the first one, a passkey after that', async ({
    page,
  }) => {
    await withoutAutofill(page);
    await addAuthenticator(page);
    const account = newAccount('stale');
    await signUpVerified(page, account);
    await topBar(page).getByRole('link', { name: 'Profile' }).click();
    const section = page.getByRole('region', { name: 'Passkeys' });
    await expect(section.getByText('You have no passkeys yet.')).toBeVisible();
    await page.waitForTimeout(2500); // the sign-up is no longer recent

    await section.getByRole('button', { name: 'Add a passkey' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' });
    await expect(dialog).toBeVisible();
    // No passkey yet to prove it with.
    await expect(dialog.getByRole('button', { name: 'Use a passkey instead' })).toHaveCount(0);
    await dialog.getByLabel('Current password').fill(account.password);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(section.getByText('Passkey added.', { exact: false })).toBeVisible();
    await expect(section.getByTestId('passkey-list').getByRole('listitem')).toHaveCount(1);

    await page.waitForTimeout(2500);
    // Again on the same device: proved with its passkey, then the browser finds it already has one.
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    await dialog.getByRole('button', { name: 'Use a passkey instead' }).click();
    await expect(dialog).toBeHidden();
    await expect(section.getByRole('alert')).toHaveText('This device already has a passkey for your account.');
  });
});

test('two passkeys made in one browser get names that tell them apart (issue 26.9)', async ({ page }) => {
  await withoutAutofill(page);
  const first = await addAuthenticator(page);
  await signUpVerified(page, newAccount('two-keys'));
  const section = await addPasskeyOnProfile(page);
  const items = section.getByTestId('passkey-list').getByRole('listitem');
  // A second authenticator on the same browser (the first one put away, as a second security
  // key or a new phone would be): the page proposes the same device name.
  await first.cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: first.authenticatorId });
  await addAuthenticator(page);
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(items).toHaveCount(2);
  const [one, two] = await Promise.all(
    [
      items.nth(0).getByRole('button', { name: /^Rename passkey / }),
      items.nth(1).getByRole('button', { name: /^Rename passkey / }),
    ].map((button) => button.getAttribute('aria-label')),
  );
  expect(one).toMatch(/^Rename passkey Chrome on \w+$/);
  expect(two).toBe(`${one} (2)`);
});
