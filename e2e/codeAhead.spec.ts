import { expect, test, type Page } from '@playwright/test';
import { apiSignUp } from './support/api.ts';
import { expectSignedIn, logIn } from './support/accounts.ts';
import { giveRole } from './support/operator.ts';

// Issue 41 and DESIGN.md §6: the browser fetches ahead, when idle, only the code of the screens
// this visitor can use next (the screen records' codeAhead, src/shared/routes.ts).

/** The screens whose code chunks (assets/<Screen>-hash.js) the page has asked for so far. */
function screenChunksAsked(page: Page): Set<string> {
  const asked = new Set<string>();
  page.on('request', (request) => {
    const name = /\/assets\/([A-Z]\w+Page)-[\w-]+\.js$/.exec(new URL(request.url()).pathname)?.[1];
    if (name) asked.add(name);
  });
  return asked;
}

const STAFF_AND_OTHERS = ['AdminPage', 'TagPage', 'SearchPage', 'ProfilePage', 'ArticleEditorPage', 'EmailActionPage'];

test("a signed-out reader's browser fetches the reading screens and the way in ahead, not the staff, tag or search screens", async ({
  page,
}) => {
  const asked = screenChunksAsked(page);
  await page.goto('/');
  await expect
    .poll(() => ['ArticlePage', 'AuthorPage', 'LoginPage', 'SignupPage'].filter((name) => !asked.has(name)))
    .toEqual([]);
  await page.waitForLoadState('networkidle');
  expect(STAFF_AND_OTHERS.filter((name) => asked.has(name))).toEqual([]);

  // The search screen's code comes when its box is about to be used.
  await page.getByRole('searchbox', { name: 'Search articles' }).focus();
  await expect.poll(() => asked.has('SearchPage')).toBe(true);
  expect(asked.has('AdminPage')).toBe(false);
});

test('a page that never idles still fetches the next screens ahead, a few seconds after load', async ({ page }) => {
  // The main thread is kept busy, as on a slow phone running other script: the browser never
  // has an idle moment to offer.
  await page.addInitScript(() => {
    // A task always waiting (a message to itself) leaves the browser no idle moment.
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      const until = performance.now() + 5;
      while (performance.now() < until) {
        // busy
      }
      channel.port2.postMessage(null);
    };
    channel.port2.postMessage(null);
  });
  const asked = screenChunksAsked(page);
  await page.goto('/');
  await expect.poll(() => asked.has('LoginPage'), { timeout: 15_000 }).toBe(true);
});

test('once an owner has signed in, the profile and admin screens are fetched ahead', async ({ page, request }) => {
  const owner = await apiSignUp(request, 'Ahead Owner');
  await giveRole(owner.email, 'owner');
  const asked = screenChunksAsked(page);
  await page.goto('/login');
  await page.waitForLoadState('networkidle');
  expect(asked.has('AdminPage')).toBe(false);
  await logIn(page, owner.email, owner.password);
  await expectSignedIn(page);
  await expect.poll(() => asked.has('ProfilePage') && asked.has('AdminPage')).toBe(true);
});
