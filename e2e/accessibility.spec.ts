import fs from 'node:fs';
import { test as base, expect, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { axeViolations } from './support/axe.ts';
import { linkIn, waitForMail } from './support/mailbox.ts';
import { PICTURE_ORIGIN } from './support/pictures.ts';

// Every screen (docs/product.md) through axe-core, signed out and signed in, light and dark, with a
// screenshot of each at a phone and a laptop size (test-results/screens/, for a person to review).
// One account and one set of articles per file, made through the real API.

const SCREENS_DIR = 'test-results/screens';
/** SITE_TITLE's default: the home page's heading (its masthead) and the end of every title. */
const SITE_TITLE = 'Inkwell';
const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];
const THEMES = ['light', 'dark'] as const;

interface Person {
  email: string;
  password: string;
  idToken: string;
}

interface Fixture {
  author: Person;
  authorId: string;
  articleId: string;
  articleTitle: string;
  resetLink: string;
}

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
let fixture: Fixture;
type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

async function makeFixture(request: APIRequestContext): Promise<Fixture> {
  const email = `a11y-${unique()}@example.com`;
  const password = 'correct horse battery';
  const signUp = await request.post('/identity/v1/accounts:signUp?key=e2e', {
    data: { email, password, displayName: 'Grace Hopper', returnSecureToken: true },
  });
  expect(signUp.status(), await signUp.text()).toBe(200);
  const { idToken, localId } = (await signUp.json()) as { idToken: string; localId: string };
  const samples = [
    ['Notes from a quiet harbour', 'Boats come in at dawn. The gulls know the schedule better than anyone.'],
    ['A very long title that keeps going to see how cards wrap their headings over several lines', 'Short.'],
    ['Compilers, explained slowly', 'What happens between the text you type and the program that runs. '.repeat(6)],
  ];
  let last = { id: '', title: '' };
  for (const [index, [title, description]] of samples.entries()) {
    const response = await request.post('/api/articles', {
      headers: { authorization: `Bearer ${idToken}` },
      data: { image: `${PICTURE_ORIGIN}/${index}.svg`, title: `${title} ${unique()}`, description },
    });
    expect(response.status(), await response.text()).toBe(201);
    last = (await response.json()) as { id: string; title: string };
  }
  const reset = await request.post('/identity/v1/accounts:sendOobCode?key=e2e', {
    data: { requestType: 'PASSWORD_RESET', email },
  });
  expect(reset.status(), await reset.text()).toBe(200);
  const link = linkIn(await waitForMail(email, /reset/i), '/reset-password');
  return {
    author: { email, password, idToken },
    authorId: localId,
    articleId: last.id,
    articleTitle: last.title,
    resetLink: `${link.pathname}${link.search}`,
  };
}

interface Screen {
  name: string;
  title(): string;
  open(page: Page): Promise<void>;
  /** A modal dialog's backdrop covers the viewport only: shoot the viewport, not the whole page. */
  viewportOnly?: boolean;
}

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });

async function visit(page: Page, path: string, headingName: string) {
  await page.goto(path);
  await expect(heading(page, headingName)).toBeVisible();
}

const signedOutScreens: Screen[] = [
  {
    name: 'home',
    title: () => SITE_TITLE,
    open: async (page) => {
      await visit(page, '/', SITE_TITLE);
      // Any card: other spec files publish into the same server at once, so the fixture's own
      // article may already be past the first page here (the author page below checks it).
      await expect(page.getByRole('article').first()).toBeVisible();
    },
  },
  {
    name: 'article',
    title: () => `${fixture.articleTitle} – Inkwell`,
    open: (page) => visit(page, `/article/${fixture.articleId}`, fixture.articleTitle),
  },
  {
    name: 'author',
    title: () => `Grace Hopper – ${SITE_TITLE}`,
    open: async (page) => {
      await visit(page, `/author/${fixture.authorId}`, 'Grace Hopper');
      await expect(page.getByRole('article', { name: fixture.articleTitle })).toBeVisible();
    },
  },
  { name: 'login', title: () => 'Login – Inkwell', open: (page) => visit(page, '/login', 'Login') },
  { name: 'signup', title: () => 'Sign Up – Inkwell', open: (page) => visit(page, '/signup', 'Sign Up') },
  {
    name: 'forgot-password',
    title: () => 'Forgot Password – Inkwell',
    open: (page) => visit(page, '/forgot-password', 'Forgot Password'),
  },
  {
    name: 'reset-password',
    title: () => 'Reset Password – Inkwell',
    open: async (page) => {
      await visit(page, fixture.resetLink, 'Reset Password');
      await expect(page.getByTestId('reset-email')).toHaveText(fixture.author.email);
    },
  },
  {
    // An emailed action link that no longer works: the page's error state.
    name: 'email-action',
    title: () => 'Email address – Inkwell',
    open: async (page) => {
      await visit(page, '/action?mode=verifyEmail&oobCode=spent-link', 'Email address');
      await expect(page.getByRole('main').getByRole('alert')).toHaveText(
        'This link has expired or has already been used.',
      );
    },
  },
  {
    name: 'not-found',
    title: () => 'Page not found – Inkwell',
    open: (page) => visit(page, '/no-such-page', 'Page not found'),
  },
];

const signedInScreens: Screen[] = [
  {
    name: 'home',
    title: () => SITE_TITLE,
    open: async (page) => {
      await visit(page, '/', SITE_TITLE);
      await expect(page.getByRole('article').first()).toBeVisible();
      await expect(page.getByRole('link', { name: 'Add an article' })).toBeVisible();
    },
  },
  {
    name: 'delete-dialog',
    viewportOnly: true,
    title: () => 'Grace Hopper – Inkwell',
    open: async (page) => {
      // The author's own page: only their articles, so the fixture's card is surely on it.
      await visit(page, `/author/${fixture.authorId}`, 'Grace Hopper');
      await page
        .getByRole('article', { name: fixture.articleTitle })
        .getByRole('button', { name: /^Delete/ })
        .click();
      await expect(page.getByRole('dialog', { name: 'Are you sure you want to delete this article?' })).toBeVisible();
    },
  },
  {
    name: 'article',
    title: () => `${fixture.articleTitle} – Inkwell`,
    open: (page) => visit(page, `/article/${fixture.articleId}`, fixture.articleTitle),
  },
  {
    name: 'author',
    title: () => `Grace Hopper – ${SITE_TITLE}`,
    open: async (page) => {
      await visit(page, `/author/${fixture.authorId}`, 'Grace Hopper');
      await expect(page.getByRole('article', { name: fixture.articleTitle })).toBeVisible();
    },
  },
  { name: 'profile', title: () => 'Profile – Inkwell', open: (page) => visit(page, '/profile', 'Profile') },
  {
    name: 'profile-edit',
    title: () => 'Profile – Inkwell',
    open: async (page) => {
      await visit(page, '/profile', 'Profile');
      await page.getByRole('button', { name: 'Update Profile' }).click();
      await expect(page.getByRole('button', { name: 'Save Updates' })).toBeVisible();
    },
  },
  {
    name: 'article-add',
    title: () => 'Add an Article – Inkwell',
    open: (page) => visit(page, '/article-update', 'Add an Article'),
  },
  {
    name: 'article-edit',
    title: () => 'Edit Article – Inkwell',
    open: async (page) => {
      await visit(page, `/article-update/${fixture.articleId}`, 'Edit Article');
      await expect(page.getByLabel('Title', { exact: true })).toHaveValue(fixture.articleTitle);
    },
  },
];

async function logIn(page: Page) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(fixture.author.email);
  await page.getByLabel('Password').fill(fixture.author.password);
  await page.getByRole('main').getByRole('button', { name: 'Login' }).click();
  await expect(heading(page, SITE_TITLE)).toBeVisible();
}

/**
 * Checks one screen, opened once: its title, and in each theme axe, screenshots at both sizes and
 * no sideways scroll at 360 px. The theme changes by media emulation on the open page, as when
 * a person switches their system's theme (decision 0550: one page load for both themes).
 */
async function checkScreen(page: Page, screen: Screen, label: string) {
  await page.setViewportSize(VIEWPORTS[1]!);
  await screen.open(page);
  await expect(page, screen.name).toHaveTitle(screen.title());
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    await page.setViewportSize(VIEWPORTS[1]!);
    // Let images and fonts settle so colour contrast is measured against what a person sees.
    await page.evaluate(() => document.fonts.ready);
    expect(await axeViolations(page), `${theme}-${label}: axe violations`).toEqual([]);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.screenshot({
        path: `${SCREENS_DIR}/${theme}-${label}-${viewport.width}.png`,
        fullPage: !screen.viewportOnly,
      });
    }
    await page.setViewportSize({ width: 360, height: 740 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${theme}-${label}: sideways scroll at 360 px`).toBeLessThanOrEqual(0);
  }
}

// Made once per worker (not in beforeAll: a signed-in test that starts a worker, e.g. after a
// failure, needs its storage state before any hook runs). One account and sign-in per worker.
const test = base.extend<{ dataReady: void }, { articleData: Fixture; signedInState: StorageState }>({
  articleData: [
    async ({ playwright }, use, workerInfo) => {
      const request = await playwright.request.newContext({ baseURL: workerInfo.project.use.baseURL });
      fixture = await makeFixture(request);
      await request.dispose();
      fs.mkdirSync(SCREENS_DIR, { recursive: true });
      await use(fixture);
    },
    { scope: 'worker' },
  ],
  signedInState: [
    async ({ browser, articleData }, use, workerInfo) => {
      void articleData;
      const context = await browser.newContext({ baseURL: workerInfo.project.use.baseURL });
      await logIn(await context.newPage());
      const state = await context.storageState();
      await context.close();
      await use(state);
    },
    { scope: 'worker' },
  ],
  // Every test: the data exists (its pictures come from the picture server, e2e/support/pictures.ts).
  dataReady: [
    async ({ articleData }, use) => {
      void articleData;
      await use();
    },
    { auto: true },
  ],
});

test.describe('light and dark themes', () => {
  test.use({ reducedMotion: 'reduce' });

  for (const screen of signedOutScreens) {
    test(`signed out: ${screen.name} passes axe`, async ({ page }) => {
      await checkScreen(page, screen, `signed-out-${screen.name}`);
    });
  }

  test.describe('signed in', () => {
    test.use({ storageState: async ({ signedInState }, use) => use(signedInState) });
    for (const screen of signedInScreens) {
      test(`signed in: ${screen.name} passes axe`, async ({ page }) => {
        await checkScreen(page, screen, `signed-in-${screen.name}`);
      });
    }
  });
});

test('the article page carries JSON-LD and the browser reports no policy violation for it', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  await visit(page, `/article/${fixture.articleId}`, fixture.articleTitle);
  const jsonLd = await page.locator('script[type="application/ld+json"]').textContent();
  expect(JSON.parse(jsonLd ?? '{}')).toMatchObject({ '@type': 'BlogPosting', headline: fixture.articleTitle });
  expect(violations).toEqual([]);
});

test('focus goes to the heading after a client-side navigation, not on first load', async ({ page }) => {
  await visit(page, '/', SITE_TITLE);
  await expect(heading(page, SITE_TITLE)).not.toBeFocused();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' }).click();
  await expect(heading(page, 'Login')).toBeFocused();
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(heading(page, 'Sign Up')).toBeFocused();
  // A screen that loads its data after its code: the heading is focused once it appears.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await expect(heading(page, SITE_TITLE)).toBeFocused();
  // The newest card, whichever it is: other spec files publish into the same server meanwhile.
  const newest = page.getByRole('article').first().getByRole('heading').getByRole('link');
  const title = (await newest.innerText()).trim();
  await newest.click();
  await expect(heading(page, title)).toBeFocused();
});

for (const motion of ['no-preference', 'reduce'] as const) {
  test(`loading placeholders pulse only for a reader who has not asked for less motion (${motion})`, async ({
    page,
  }) => {
    await page.emulateMedia({ reducedMotion: motion });
    // The list is held back, so the placeholders stay while they are looked at.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/api\/articles\?/, async (route) => {
      await held;
      await route.continue();
    });
    await visit(page, '/login', 'Login');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
    const placeholder = page.getByRole('main').locator('li[aria-hidden="true"] > div').first();
    await expect(placeholder).toBeVisible();
    const animation = await placeholder.evaluate((element) => getComputedStyle(element).animationName);
    expect(animation).toBe(motion === 'reduce' ? 'none' : 'pulse');
    release();
    await expect(page.getByRole('main').getByRole('article').first()).toBeVisible();
  });
}

test('a failed form puts focus on its first error', async ({ page }) => {
  await visit(page, '/login', 'Login');
  await page.getByLabel('Email').fill(fixture.author.email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('main').getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText('Something went wrong. Make sure you create an account first')).toBeFocused();

  await visit(page, '/signup', 'Sign Up');
  await page.getByLabel('Your name').fill('Someone');
  await page.getByLabel('Your email').fill(`x-${unique()}@example.com`);
  await page.getByLabel('Your password', { exact: true }).fill('one password');
  await page.getByLabel('Confirm your password').fill('another password');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.getByText('Passwords do not match')).toBeFocused();
});

/** Tabs forward and backward through a dialog more times than it has controls: focus never leaves it. */
async function expectFocusTrapped(page: Page, dialogName: string) {
  const dialog = page.getByRole('dialog', { name: dialogName });
  await expect(dialog).toBeVisible();
  for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
    await page.keyboard.press(key);
    const inside = await dialog.evaluate(
      (element) => element.contains(document.activeElement) && document.activeElement !== element,
    );
    expect(inside, `focus inside "${dialogName}" after ${key}`).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
}

test.describe('signed in', () => {
  test.use({ storageState: async ({ signedInState }, use) => use(signedInState) });

  test('the delete confirmation and the password dialogs keep focus inside and close on Escape', async ({ page }) => {
    await visit(page, `/author/${fixture.authorId}`, 'Grace Hopper');
    const deleteButton = page
      .getByRole('article', { name: fixture.articleTitle })
      .getByRole('button', { name: /^Delete/ });
    await deleteButton.click();
    await expectFocusTrapped(page, 'Are you sure you want to delete this article?');
    // Nothing was deleted, and focus is back where it was.
    await expect(page.getByRole('article', { name: fixture.articleTitle })).toBeVisible();
    await expect(deleteButton).toBeFocused();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('button', { name: 'Delete account' }).click();
    await expectFocusTrapped(page, 'Delete account');
    await expect(page.getByRole('button', { name: 'Delete account' })).toBeFocused();
  });
});
