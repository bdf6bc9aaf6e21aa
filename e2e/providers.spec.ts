import { expect, test, type Page } from '@playwright/test';
import {
  createAccount,
  expectSignedIn,
  expectSignedOut,
  logIn,
  newAccount,
  signUpThroughApi,
  topBar,
} from './support/accounts.ts';
import { linkIn, waitForMail } from './support/mailbox.ts';
import { screenshot } from './support/looks.ts';

// The app is configured with a real OpenID provider on loopback (playwright.config.ts) as
// "Test ID" (oidc.test); its development login page accepts any login and password.
const issuer = process.env.E2E_OIDC_ISSUER!;

/** At the provider: sign in as `login` and consent; the browser comes back to the app. */
async function passProvider(page: Page, login: string) {
  await expect(page).toHaveURL(new RegExp(`^${issuer}/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

const uniqueLogin = (label: string) => `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;

async function openProfile(page: Page) {
  await topBar(page).getByRole('link', { name: 'Profile' }).click();
  await expect(page.getByRole('heading', { name: 'Sign-in methods' })).toBeVisible();
}

test('signs up with the provider from /signup, then logs in with it from /login', async ({ page }) => {
  const login = uniqueLogin('newcomer');
  await page.goto('/signup');
  await page.getByRole('link', { name: 'Continue with Test ID' }).click();
  await passProvider(page, login);
  await expect(page).toHaveURL('/');
  await expectSignedIn(page);

  await openProfile(page);
  await expect(page.getByTestId('profile-email')).toHaveText(`${login}@provider.test`);
  const methods = page.getByTestId('sign-in-methods');
  await expect(methods.getByTestId('provider-oidc.test')).toContainText(`Connected as ${login}@provider.test`);
  await expect(methods).toContainText('Not set');
  // The only way in cannot be removed.
  await methods.getByRole('button', { name: 'Disconnect Test ID' }).click();
  await expect(methods.getByRole('alert')).toHaveText(
    'This is your only way to sign in. Add another one before removing it.',
  );

  await page.getByRole('button', { name: 'Log Out' }).click();
  // Signed out before the next page: a signed-in visit to /login is sent home.
  await expectSignedOut(page);
  await page.goto('/login');
  await page.getByRole('link', { name: 'Continue with Test ID' }).click();
  // Still signed in at the provider, which has the person's consent: it sends them straight back.
  await expect(page).toHaveURL('/');
  await expectSignedIn(page);
  await openProfile(page);
  await expect(page.getByTestId('profile-email')).toHaveText(`${login}@provider.test`);
});

test('a sign-in started by a link, not the login button, lands signed in at its continue path (issue 35, finding 9)', async ({
  page,
}) => {
  // A fresh browser: no note in localStorage that it may hold a session.
  const login = uniqueLogin('linked');
  await page.goto('/identity/oauth/oidc.test/start?continue=/profile');
  await passProvider(page, login);
  await expect(page).toHaveURL('/profile');
  await expect(page.getByTestId('profile-email')).toHaveText(`${login}@provider.test`);
  await expectSignedIn(page);
  // A later load in the same browser still finds the session.
  await page.reload();
  await expect(page.getByTestId('profile-email')).toHaveText(`${login}@provider.test`);
});

test('the login page says why the sign-up policy refused a provider sign-up (issue 35, finding 8)', async ({
  page,
}) => {
  await page.goto('/login?error=signup_closed');
  await expect(page.getByText('Sign-up is closed.')).toBeVisible();
  await page.goto('/login?error=invitation_required');
  await expect(page.getByText('Sign-up is by invitation only.')).toBeVisible();
});

test('connects the provider to a password account on the profile, and disconnects it', async ({ page }) => {
  const account = newAccount('connector');
  await signUpThroughApi(page, account);
  // Connecting needs a verified address (decision 0551): the emailed link, opened here.
  const verify = linkIn(await waitForMail(account.email, /^Verify your Inkwell email address$/), '/action');
  await page.goto(verify.pathname + verify.search);
  await expect(page.getByRole('link', { name: 'Go to your profile' })).toBeVisible();
  await openProfile(page);
  const methods = page.getByTestId('sign-in-methods');
  await expect(methods.getByTestId('provider-oidc.test')).toContainText('Not connected');
  await methods.getByRole('button', { name: 'Connect Test ID' }).click();
  const login = uniqueLogin('connected');
  await passProvider(page, login);
  await expect(page).toHaveURL('/profile');
  await expect(methods.getByTestId('provider-oidc.test')).toContainText(`Connected as ${login}@provider.test`);
  await expect(page.getByTestId('profile-email')).toHaveText(account.email);
  for (const [colorScheme, width, height] of [
    ['light', 1280, 800],
    ['dark', 390, 844],
  ] as const) {
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width, height });
    await screenshot(methods, `test-results/screenshots/providers-profile-${width}-${colorScheme}.png`);
  }

  await methods.getByRole('button', { name: 'Disconnect Test ID' }).click();
  await expect(methods.getByRole('alert')).toHaveText('Test ID disconnected.');
  await expect(methods.getByTestId('provider-oidc.test')).toContainText('Not connected');
  // The password still signs in.
  await page.getByRole('button', { name: 'Log Out' }).click();
  // Signed out before the next page: a signed-in visit to /login is sent home.
  await expectSignedOut(page);
  await page.goto('/login');
  await logIn(page, account.email, account.password);
  await expectSignedIn(page);
});

test('a provider address that an account already holds sends the person back to /login, saying why', async ({
  page,
}) => {
  // The provider's people are <login>@provider.test: an account registered with that address first.
  const login = uniqueLogin('taken');
  const account = { ...newAccount('holder'), email: `${login}@provider.test` };
  await createAccount(page, account);
  // The provider verifies the address and the account never did: the provider takes it over.
  await page.goto('/login');
  await page.getByRole('link', { name: 'Continue with Test ID' }).click();
  await passProvider(page, login);
  await expect(page).toHaveURL('/');
  await expectSignedIn(page);
  // Its password no longer signs in.
  await page.getByRole('link', { name: 'Profile' }).click();
  await page.getByRole('button', { name: 'Log Out' }).click();
  // Signed out before the next page: a signed-in visit to /login is sent home.
  await expectSignedOut(page);
  await page.goto('/login');
  await logIn(page, account.email, account.password);
  await expect(page.getByRole('alert').first()).toContainText(/./);
  await expect(page).toHaveURL('/login');

  await page.goto('/login?error=account_exists');
  await expect(page.getByRole('alert').first()).toHaveText(
    'An account with this email already exists. Log in with your password, then connect the provider from your profile.',
  );
  await page.goto('/identity/oauth/oidc.test/callback?code=forged&state=forged');
  await expect(page).toHaveURL('/login?error=state_invalid');
  await expect(page.getByRole('alert').first()).toHaveText(
    'That sign-in link has expired or was already used. Please start again.',
  );
});

for (const colorScheme of ['light', 'dark'] as const) {
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    test(`login and signup show Continue with Test ID under the form (${colorScheme}, ${viewport.width}px)`, async ({
      page,
    }) => {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize(viewport);
      for (const screen of ['login', 'signup']) {
        await page.goto(`/${screen}`);
        const button = page.getByRole('link', { name: 'Continue with Test ID' });
        await expect(button).toBeVisible();
        // Under the spec's form: below its submit button.
        const submit = page.getByRole('main').getByRole('button', { name: screen === 'login' ? 'Login' : 'Sign Up' });
        expect((await button.boundingBox())!.y).toBeGreaterThan((await submit.boundingBox())!.y);
        await screenshot(page, `test-results/screenshots/providers-${screen}-${viewport.width}-${colorScheme}.png`, {
          fullPage: true,
        });
      }
    });
  }
}
