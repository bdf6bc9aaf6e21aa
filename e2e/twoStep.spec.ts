import { expect, test, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import {
  expectSignedIn,
  logOutAndLogInAgain,
  logOutFromProfile,
  newAccount,
  openProfile,
  signIn,
  signUpThroughApi,
} from './support/accounts.ts';
import { linkIn, waitForMail } from './support/mailbox.ts';
import { lookAt } from './support/looks.ts';

const SCREENS_DIR = 'test-results/screens';
const STEP_MS = 30_000;

/** What the authenticator app shows for the key on screen (spaces removed) at `at`. */
const codeAt = (key: string, at: number) =>
  TOTP.generate({
    secret: Secret.fromBase32(key.replace(/\s+/g, '')),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    timestamp: at,
  });

/** Axe finds nothing in either colour scheme; screenshots at a phone and a laptop size when wanted. */
const checkAndShoot = (page: Page, label: string) => lookAt(page, label, { dir: SCREENS_DIR, fullPage: true });

test('turns two-step verification on from the profile and signs in with a code, then turns it off', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const account = newAccount('two-step');
  await signUpThroughApi(page, account);
  const verify = await waitForMail(account.email, /^Verify your Inkwell email address$/);
  const link = linkIn(verify, '/action');
  await page.goto(link.pathname + link.search);
  await page.getByRole('link', { name: 'Go to your profile' }).click();

  const section = page.getByRole('region', { name: 'Two-step verification' });
  await expect(section.getByTestId('two-step-status')).toHaveText('Two-step verification is off.');
  await section.getByRole('button', { name: 'Turn on two-step verification' }).click();
  await expect(section.getByRole('img', { name: 'QR code for your authenticator app' }).locator('svg')).toBeVisible();
  const key = (await section.getByTestId('two-step-secret').textContent()) ?? '';
  expect(key.replace(/\s+/g, '')).toMatch(/^[A-Z2-7]{32}$/);
  await checkAndShoot(page, 'two-step-setup');

  await section.getByRole('textbox', { name: 'Code' }).fill('000000' === codeAt(key, Date.now()) ? '111111' : '000000');
  await section.getByRole('button', { name: 'Turn on', exact: true }).click();
  await expect(section.getByRole('alert')).toHaveText('That code is not right. Check your app and try again.');
  const enrolledAt = Date.now();
  await section.getByRole('textbox', { name: 'Code' }).fill(codeAt(key, enrolledAt));
  await section.getByRole('button', { name: 'Turn on', exact: true }).click();
  await expect(section.getByRole('alert')).toHaveText('Two-step verification is on.');
  const codes = section.getByTestId('recovery-codes').getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recoveryCodes = await codes.allTextContents();
  await section.getByRole('button', { name: 'Copy' }).click();
  await expect(section.getByRole('status')).toHaveText('Copied.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${recoveryCodes.join('\n')}\n`);
  const download = page.waitForEvent('download');
  await section.getByRole('button', { name: 'Download' }).click();
  expect((await download).suggestedFilename()).toBe('recovery-codes.txt');
  await checkAndShoot(page, 'two-step-recovery-codes');
  await section.getByRole('button', { name: 'Done' }).click();
  await expect(section.getByTestId('two-step-status')).toHaveText('Two-step verification is on.');

  // Signing in now asks for the code after the password.
  await logOutAndLogInAgain(page, account);
  await expect(page.getByRole('heading', { name: 'Enter your code' })).toBeVisible();
  await checkAndShoot(page, 'two-step-login-code');
  await page.getByRole('textbox', { name: 'Code' }).fill('123');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    'That code is not right. Check your app and try again.',
  );
  // The enrolling code's step is used up (no replay)...
  await page.getByRole('textbox', { name: 'Code' }).fill(codeAt(key, enrolledAt));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    'That code is not right. Check your app and try again.',
  );
  // ...and the app's next code signs in. The server takes one step of clock drift either way,
  // so the next step's code is good now: no need to wait up to 30 s for the clock to reach it.
  await page.getByRole('textbox', { name: 'Code' }).fill(codeAt(key, enrolledAt + STEP_MS));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL('/');
  await expectSignedIn(page);

  // A recovery code works in place of a code.
  await logOutAndLogInAgain(page, account);
  await page.getByRole('textbox', { name: 'Code' }).fill(recoveryCodes[1]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL('/');

  // Turning it off (the sign-in above is recent).
  await openProfile(page);
  await section.getByRole('button', { name: 'Turn off two-step verification' }).click();
  await expect(section.getByRole('alert')).toHaveText(
    'Two-step verification is off. Your other devices have been signed out.',
  );
  await expect(section.getByTestId('two-step-status')).toHaveText('Two-step verification is off.');
  await logOutFromProfile(page);
  await signIn(page, account);
});
