import { expect, test, type APIRequestContext } from '@playwright/test';
import { createAccount, expectSignedIn, logIn, newAccount, signInThroughApi, topBar } from './support/accounts.ts';
import { axeViolations } from './support/axe.ts';
import { linkIn, waitForMail } from './support/mailbox.ts';

// Issue 15 section 3, "nothing lost, nobody misled": each behaviour found in the trial, tried in
// a real Chromium against the real server. Each test makes its own people and articles.

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const IMAGE = 'http://127.0.0.1:9/picture.png';

interface Writer {
  email: string;
  password: string;
  idToken: string;
  uid: string;
}

async function writerByApi(request: APIRequestContext, name = 'Flo Writer'): Promise<Writer> {
  const email = `flows-${unique()}@example.com`;
  const password = 'correct horse battery';
  const response = await request.post('/identity/v1/accounts:signUp?key=e2e', {
    data: { email, password, displayName: name, returnSecureToken: true },
  });
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as { idToken: string; localId: string };
  return { email, password, idToken: body.idToken, uid: body.localId };
}

async function articleByApi(request: APIRequestContext, writer: Writer, title: string): Promise<string> {
  const response = await request.post('/api/articles', {
    headers: { authorization: `Bearer ${writer.idToken}` },
    data: { image: IMAGE, title, description: `Words of ${title}.` },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

test('what people type is laid out by its own direction (dir="auto") in every form', async ({ page, request }) => {
  const writer = await writerByApi(request);
  for (const route of ['/login', '/signup', '/forgot-password']) {
    await page.goto(route);
    const inputs = page.getByRole('main').locator('input:not([type=hidden])');
    await expect(inputs.first()).toBeVisible();
    for (const input of await inputs.all()) await expect(input, route).toHaveAttribute('dir', 'auto');
  }

  await signInThroughApi(page, writer, '/article-update');
  const title = page.getByLabel('Title', { exact: true });
  await title.fill('مرحبا بالعالم');
  await expect(title).toHaveAttribute('dir', 'auto');
  // The browser resolves the direction from the text: right to left for Arabic.
  expect(await title.evaluate((element) => getComputedStyle(element).direction)).toBe('rtl');
  const body = page.getByLabel('Description', { exact: true });
  await body.fill('שלום עולם');
  await expect(body).toHaveAttribute('dir', 'auto');
  expect(await body.evaluate((element) => getComputedStyle(element).direction)).toBe('rtl');
  // The preview (beside the text on a wide screen) too.
  await expect(page.locator('[dir="auto"]', { hasText: 'שלום עולם' }).last()).toBeVisible();

  await page.goto('/profile');
  await expect(page.getByTestId('profile-name')).toHaveAttribute('dir', 'auto');
  await page.getByRole('button', { name: 'Update Profile' }).click();
  await page.getByLabel('Name').fill('نور');
  await expect(page.getByLabel('Name')).toHaveAttribute('dir', 'auto');
  expect(await page.getByLabel('Name').evaluate((element) => getComputedStyle(element).direction)).toBe('rtl');
  await expect(page.getByLabel('Email')).toHaveAttribute('dir', 'auto');
});

test('a signed-in person opening /login or /signup is taken home', async ({ page, request }) => {
  const writer = await writerByApi(request);
  await signInThroughApi(page, writer);
  for (const route of ['/login', '/signup']) {
    // Typed into the address bar (a full load, the session restored from its cookie)...
    await page.goto(route);
    await expect(page, route).toHaveURL('/');
    await expectSignedIn(page);
  }
  // ...and reached inside the app (Back to an old /login entry, say).
  await page.evaluate(() => {
    history.pushState(null, '', '/signup');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page).toHaveURL('/');
});

test('/forgot-password leads back to /login, and after a reset the login form has the email', async ({ page }) => {
  const account = newAccount('flows-reset');
  await createAccount(page, account);

  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByRole('link', { name: 'Forgot Password?' }).click();
  await expect(page).toHaveURL('/forgot-password');
  // The email typed on the login page came along, and the way back is a link.
  await expect(page.getByLabel('Email')).toHaveValue(account.email);
  await page.getByRole('link', { name: 'Back to Login' }).click();
  await expect(page).toHaveURL('/login');
  await expect(page.getByLabel('Email')).toHaveValue(account.email);

  await page.getByRole('link', { name: 'Forgot Password?' }).click();
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toContainText('reset link has been sent');
  const link = linkIn(await waitForMail(account.email, /reset/i), '/reset-password');

  // A fresh tab, as when the link is opened from the mail program.
  await page.goto('/');
  await page.goto(link.pathname + link.search);
  const newPassword = `${account.password}-new`;
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page).toHaveURL('/login');
  await expect(page.getByLabel('Email')).toHaveValue(account.email);
  await page.getByLabel('Password').fill(newPassword);
  await page.getByRole('main').getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL('/');
  await expectSignedIn(page);
});

test('leaving the editor with unsaved changes asks first: Cancel, the Home link and Back', async ({
  page,
  request,
}) => {
  const writer = await writerByApi(request);
  await signInThroughApi(page, writer);
  const leaveDialog = page.getByRole('dialog', { name: 'Leave without saving?' });

  // Nothing typed: Cancel simply leaves.
  await page.getByRole('link', { name: 'Add an article' }).click();
  await expect(page).toHaveURL('/article-update');
  await page.getByRole('link', { name: 'Cancel' }).click();
  await expect(page).toHaveURL('/');
  await expect(leaveDialog).toBeHidden();

  await page.getByRole('link', { name: 'Add an article' }).click();
  const title = `Unsaved ${unique()}`;
  await page.getByLabel('Title', { exact: true }).fill(title);

  // Cancel asks; Keep editing stays with the text.
  await page.getByRole('link', { name: 'Cancel' }).click();
  await expect(leaveDialog).toBeVisible();
  await expect(leaveDialog.getByRole('button', { name: 'Keep editing' })).toBeFocused();
  // The question itself passes axe, in both colour schemes, on a phone too.
  for (const [colorScheme, width] of [
    ['light', 1280],
    ['dark', 390],
  ] as const) {
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width, height: 844 });
    expect(await axeViolations(page), `${colorScheme} ${width}`).toEqual([]);
  }
  await leaveDialog.getByRole('button', { name: 'Keep editing' }).click();
  await expect(leaveDialog).toBeHidden();
  await expect(page).toHaveURL('/article-update');
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue(title);

  // The top bar's Home link asks; Escape stays.
  await topBar(page).getByRole('link', { name: 'Home' }).click();
  await expect(leaveDialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(leaveDialog).toBeHidden();
  await expect(page).toHaveURL('/article-update');

  // The browser's Back asks, and the address stays the editor's while it does.
  await page.goBack({ timeout: 3_000 }).catch(() => null);
  await expect(leaveDialog).toBeVisible();
  await expect(page).toHaveURL('/article-update');
  await leaveDialog.getByRole('button', { name: 'Keep editing' }).click();
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue(title);

  // Closing the tab: the browser's own question (beforeunload).
  const beforeUnload = page.waitForEvent('dialog');
  await page.close({ runBeforeUnload: true });
  const question = await beforeUnload;
  expect(question.type()).toBe('beforeunload');
  await question.dismiss();
});

test('Back past the editor leaves only once "Discard changes" is chosen, and the draft is then gone', async ({
  page,
  request,
}) => {
  const writer = await writerByApi(request);
  await signInThroughApi(page, writer);
  await page.getByRole('link', { name: 'Add an article' }).click();
  await page.getByLabel('Title', { exact: true }).fill(`Dropped ${unique()}`);
  await page.goBack({ timeout: 3_000 }).catch(() => null);
  const leaveDialog = page.getByRole('dialog', { name: 'Leave without saving?' });
  await leaveDialog.getByRole('button', { name: 'Discard changes' }).click();
  await expect(page).toHaveURL('/');
  await page.getByRole('link', { name: 'Add an article' }).click();
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue('');

  // Leave, keep draft: the draft is kept on the server (issue 39.7), among the profile's drafts,
  // reloads and other devices included; the new article's form starts empty again.
  const kept = `Kept ${unique()}`;
  await page.getByLabel('Title', { exact: true }).fill(kept);
  await topBar(page).getByRole('link', { name: 'Profile' }).click();
  await leaveDialog.getByRole('button', { name: 'Leave, keep draft' }).click();
  await expect(page).toHaveURL('/profile');
  await page.reload();
  await expect(page.getByRole('main').getByRole('link', { name: kept, exact: true })).toBeVisible();
  await page.goto('/article-update');
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue('');
});

test('Back from an article returns to the list as it was: the pages loaded and the place scrolled to', async ({
  page,
  request,
}) => {
  const writer = await writerByApi(request);
  const stamp = unique();
  const titles: string[] = [];
  // 30 of one's own, newest last: the first one made sits on the second page of 20.
  for (let index = 0; index < 30; index++) {
    titles.push(`Scrolled ${stamp} ${index}`);
    await articleByApi(request, writer, titles[index]!);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  const target = page.getByRole('article', { name: titles[0], exact: true });
  // The second page comes as the list's end is reached.
  await expect(async () => {
    await page.mouse.wheel(0, 4000);
    await expect(target).toBeAttached({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await target.scrollIntoViewIfNeeded();
  const cardsBefore = await page.getByRole('article').count();
  expect(cardsBefore).toBeGreaterThan(20);
  const scrolledTo = await page.evaluate(() => window.scrollY);
  expect(scrolledTo).toBeGreaterThan(500);

  await target.getByRole('link', { name: titles[0] }).click();
  await expect(page.getByRole('heading', { level: 1, name: titles[0] })).toBeVisible();
  // A new screen starts at its top.
  expect(await page.evaluate(() => window.scrollY)).toBe(0);

  await page.goBack();
  await expect(page).toHaveURL('/');
  await expect(target).toBeInViewport();
  await expect(target.getByRole('link', { name: titles[0] })).toBeFocused();
  expect(await page.getByRole('article').count()).toBe(cardsBefore);
  expect(Math.abs((await page.evaluate(() => window.scrollY)) - scrolledTo)).toBeLessThanOrEqual(2);

  // A new visit (the Home link) is a fresh list from the top.
  await topBar(page).getByRole('link', { name: 'Home' }).click();
  await expect(page.getByRole('article').first()).toBeVisible();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
});

test('a stalled API call ends in a message with Retry within 30 s, and Retry loads the list', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const writer = await writerByApi(request);
  const title = `Stalled ${unique()}`;
  await articleByApi(request, writer, title);
  // The server takes the call and never answers (a stalled proxy or radio); later calls go through.
  let stall = true;
  await page.route('**/api/articles?*', async (route) => {
    if (!stall) await route.continue();
  });
  // The home page arrives with its first articles in the HTML: the list is fetched when the app
  // shows it, as on a way back from another screen.
  await page.goto('/login');
  const started = Date.now();
  await topBar(page).getByRole('link', { name: 'Home' }).click();
  const alert = page.getByRole('main').getByRole('alert');
  await expect(alert).toContainText('The articles could not be loaded.', { timeout: 30_000 });
  expect(Date.now() - started).toBeLessThan(30_000);
  // No skeleton cards left behind the message.
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);

  stall = false;
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('article', { name: title, exact: true })).toBeVisible();
  await expect(alert).toHaveCount(0);
});

test('a screen whose code cannot be fetched says whether the server is unreachable or Inkwell was updated', async ({
  page,
  request,
}) => {
  const writer = await writerByApi(request);
  const title = `Unreachable ${unique()}`;
  await articleByApi(request, writer, title);
  let serverUp = false;
  // The article screen's code fails to arrive; the health check tells a dead server from a new version.
  await page.route('**/assets/ArticlePage-*.js', (route) => route.abort('internetdisconnected'));
  await page.route('**/readyz', (route) => (serverUp ? route.continue() : route.abort('internetdisconnected')));
  await page.goto('/');
  await page.getByRole('link', { name: title, exact: true }).click();
  const alert = page.getByRole('main').getByRole('alert');
  await expect(alert).toContainText('The server could not be reached. Check your connection, then try again.');
  await expect(alert).not.toContainText('updated');
  await expect(alert.getByRole('button', { name: 'Try again' })).toBeVisible();

  serverUp = true;
  await page.goto('/');
  await page.getByRole('link', { name: title, exact: true }).click();
  await expect(alert).toContainText('Inkwell may have been updated since this tab opened.');
  await expect(alert.getByRole('button', { name: 'Reload the page' })).toBeVisible();
});

test('the profile lists one’s own articles with Edit and Delete; after a delete focus moves on, never to <body>', async ({
  page,
  request,
}) => {
  const writer = await writerByApi(request);
  const other = await writerByApi(request, 'Someone Else');
  const stamp = unique();
  const mine = [`Mine A ${stamp}`, `Mine B ${stamp}`, `Mine C ${stamp}`];
  const ids: string[] = [];
  for (const title of mine) ids.push(await articleByApi(request, writer, title));
  await articleByApi(request, other, `Not mine ${stamp}`);
  await signInThroughApi(page, writer);
  await topBar(page).getByRole('link', { name: 'Profile' }).click();

  const section = page.getByRole('region', { name: 'Your articles' });
  // Newest first, and only the signed-in person's.
  await expect(section.getByRole('listitem')).toHaveCount(3);
  await expect(section.getByRole('listitem').first()).toContainText(mine[2]!);
  await expect(section).not.toContainText('Not mine');

  const row = (title: string) => section.getByRole('listitem').filter({ hasText: title });
  await expect(row(mine[1]!).getByRole('link', { name: /^Edit/ })).toHaveAttribute('href', `/article-update/${ids[1]}`);
  const dialog = page.getByRole('dialog', { name: 'Are you sure you want to delete this article?' });

  // Deleting the middle one: the next one (older) takes the focus.
  await row(mine[1]!)
    .getByRole('button', { name: /^Delete/ })
    .click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(row(mine[1]!)).toHaveCount(0);
  await expect(section.getByRole('link', { name: mine[0], exact: true })).toBeFocused();
  expect((await request.get(`/api/articles/${ids[1]}`)).status()).toBe(404);

  // The last in the list: the one before it.
  await row(mine[0]!)
    .getByRole('button', { name: /^Delete/ })
    .click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(section.getByRole('link', { name: mine[2], exact: true })).toBeFocused();

  // The only one left: the heading.
  await row(mine[2]!)
    .getByRole('button', { name: /^Delete/ })
    .click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(section.getByRole('heading', { name: 'Your articles' })).toBeFocused();
  await expect(section).toContainText('You have not written any articles yet.');
  await section.getByRole('link', { name: 'Add an article' }).click();
  await expect(page).toHaveURL('/article-update');
});

test('after a delete from a home card, focus moves to the next card', async ({ page, request }) => {
  const writer = await writerByApi(request);
  const stamp = unique();
  const older = `Next card ${stamp}`;
  const doomed = `Doomed card ${stamp}`;
  await articleByApi(request, writer, older);
  await articleByApi(request, writer, doomed);
  await signInThroughApi(page, writer);
  const card = (title: string) => page.getByRole('article', { name: title, exact: true });
  await card(doomed)
    .getByRole('button', { name: /^Delete/ })
    .click();
  await page
    .getByRole('dialog', { name: 'Are you sure you want to delete this article?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(card(doomed)).toHaveCount(0);
  // Newest first: the card after the deleted one is the older article (unless another test's came between).
  const focused = page.locator(':focus');
  await expect(focused).toHaveCount(1);
  expect(await focused.evaluate((element) => element.tagName)).toBe('A');
  expect(await focused.evaluate((element) => element.closest('article') !== null)).toBe(true);
  await expect(card(older)).toBeVisible();
});

test('deleting the account says how many articles go with it', async ({ page, request }) => {
  const writer = await writerByApi(request);
  const ids = [];
  for (let index = 0; index < 3; index++) ids.push(await articleByApi(request, writer, `Goes too ${unique()}`));
  await signInThroughApi(page, writer);
  await topBar(page).getByRole('link', { name: 'Profile' }).click();
  await page.getByRole('button', { name: 'Delete account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete account' });
  await expect(dialog).toContainText('This permanently deletes your account and all 3 of your articles.');
  await dialog.getByLabel('Current password').fill(writer.password);
  await dialog.getByRole('button', { name: 'Delete account' }).click();
  await expect(page).toHaveURL('/');
  for (const id of ids) expect((await request.get(`/api/articles/${id}`)).status()).toBe(404);

  // Someone with none is told so.
  const quiet = await writerByApi(request);
  await signInThroughApi(page, quiet);
  await topBar(page).getByRole('link', { name: 'Profile' }).click();
  await page.getByRole('button', { name: 'Delete account' }).click();
  await expect(dialog).toContainText('You have no articles.');
});

test('no blank screen on a first visit: screens’ code is fetched ahead, the editor’s when its link is pointed at', async ({
  page,
  request,
}) => {
  const writer = await writerByApi(request);
  const asked: string[] = [];
  page.on('request', (sent) => asked.push(new URL(sent.url()).pathname));
  await page.goto('/');
  // Idle after load: the login screen's code arrives without anyone asking for the screen.
  await expect.poll(() => asked.some((path) => /\/assets\/LoginPage-[\w-]+\.js$/.test(path))).toBe(true);
  expect(asked.some((path) => /\/assets\/ArticleEditorPage-/.test(path))).toBe(false);
  // So once the network is gone, the login screen still shows (its code came ahead).
  await page.route('**/assets/**', (route) => route.abort('internetdisconnected'));
  await topBar(page).getByRole('link', { name: 'Login' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Login' })).toBeVisible();
  await page.unroute('**/assets/**');

  await logIn(page, writer.email, writer.password);
  await expect(page).toHaveURL('/');
  const before = asked.length;
  await page.getByRole('link', { name: 'Add an article' }).hover();
  await expect
    .poll(() => asked.slice(before).some((path) => /\/assets\/ArticleEditorPage-[\w-]+\.js$/.test(path)))
    .toBe(true);
});

test('while the session is restored the top bar shows a quiet placeholder; a stalled restore gives way within 10 s', async ({
  page,
  request,
}) => {
  const writer = await writerByApi(request);
  await signInThroughApi(page, writer);
  // The server takes its time telling whether the cookie holds a session: until the test lets it answer.
  let answer = () => {};
  const answered = new Promise<void>((resolve) => (answer = resolve));
  await page.route('**/identity/v1/token*', async (route) => {
    await answered;
    await route.continue().catch(() => undefined);
  });
  // The page's timers run on the test's clock, so the seconds the app waits pass at once.
  const started = Date.now();
  await page.clock.install({ time: started });
  await page.goto('/');
  // The quiet placeholder: a grey box where Login or Profile will be (the Login link, hidden
  // until the session is known, shows only its box: it is the way in when script is off).
  const placeholder = topBar(page).locator('.auth-pending');
  await expect(placeholder).toHaveCount(1);
  expect(await placeholder.evaluate((element) => getComputedStyle(element, '::before').backgroundColor)).not.toBe(
    'rgba(0, 0, 0, 0)',
  );
  expect((await placeholder.boundingBox())!.width).toBeGreaterThan(40);
  await expect(topBar(page).getByRole('link', { name: /^(Login|Profile)$/ })).toHaveCount(0);
  // Within 10 s the page goes on without it, signed out for now (its clock stops there;
  // the page itself is server-rendered, readable at once)...
  await page.clock.pauseAt(started + 10_000);
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
  await expect(topBar(page).getByRole('link', { name: 'Login' })).toBeVisible();
  // ...and the late answer still signs the tab in.
  answer();
  await expect(topBar(page).getByRole('link', { name: 'Profile' })).toBeVisible({ timeout: 10_000 });
});

test('failures say what happened: offline is not "Inkwell may have been updated"', async ({
  page,
  context,
  request,
}) => {
  const writer = await writerByApi(request);
  const title = `Offline ${unique()}`;
  await articleByApi(request, writer, title);
  const asked: string[] = [];
  page.on('request', (sent) => asked.push(new URL(sent.url()).pathname));
  await page.goto('/');
  // The article screen's code has come ahead (idle), so only the data call meets the dead network.
  await expect.poll(() => asked.some((path) => /\/assets\/ArticlePage-[\w-]+\.js$/.test(path))).toBe(true);
  // ...and the chunks it imports have arrived too (asked for is not arrived: a fresh-clone run
  // went offline while one was on its way, and the screen's code, not its data, failed).
  await page.waitForLoadState('networkidle');
  await context.setOffline(true);
  await page.getByRole('link', { name: title, exact: true }).click();
  const alert = page.getByRole('main').getByRole('alert');
  await expect(alert).toContainText('The article could not be loaded. This device seems to be offline.');
  await context.setOffline(false);
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
});
