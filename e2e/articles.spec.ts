import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signInThroughApi } from './support/accounts.ts';

// The articles screens against the real server: accounts through /identity, articles through /api.
// Tests share one server and run in parallel, so each makes its own people and articles and
// never assumes the list holds only its own.

interface Person {
  name: string;
  email: string;
  password: string;
  idToken: string;
  uid: string;
}

interface ArticleJson {
  id: string;
  image: string;
  title: string;
  description: string;
  authorId: string;
  authorName: string | null;
  date: string;
}

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const IMAGE = 'http://127.0.0.1:9/picture.png'; // Nothing listens there: also shows the placeholder path.

async function signUp(request: APIRequestContext, name = 'Ada Writer'): Promise<Person> {
  const email = `writer-${unique()}@example.com`;
  const password = 'correct horse battery';
  const response = await request.post('/identity/v1/accounts:signUp?key=e2e', {
    data: { email, password, displayName: name, returnSecureToken: true },
  });
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as { idToken: string; localId: string };
  return { name, email, password, idToken: body.idToken, uid: body.localId };
}

async function createArticle(
  request: APIRequestContext,
  author: Person,
  fields: { title: string; description?: string; image?: string },
): Promise<ArticleJson> {
  const response = await request.post('/api/articles', {
    headers: { authorization: `Bearer ${author.idToken}` },
    data: { image: fields.image ?? IMAGE, title: fields.title, description: fields.description ?? 'Some words.' },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as ArticleJson;
}

const card = (page: Page, title: string) => page.getByRole('article', { name: title, exact: true });

test('a signed-in user adds an article and lands on its page', async ({ page, request }) => {
  const author = await signUp(request);
  await signInThroughApi(page, author);
  await page.getByRole('link', { name: 'Add an article' }).click();
  await expect(page).toHaveURL('/article-update');
  await expect(page.getByRole('heading', { name: 'Add an Article' })).toBeVisible();
  await expect(page).toHaveTitle('Add an Article – Inkwell');

  const title = `Spring notes ${unique()}`;
  await page.getByLabel('Image URL').fill(IMAGE);
  await page.getByLabel('Title', { exact: true }).fill(title);
  await page.getByLabel('Description', { exact: true }).fill('First line.\nSecond line.');
  await page.getByRole('button', { name: 'Add Article' }).click();

  await expect(page).toHaveURL(/\/article\/[A-Za-z0-9]{20}$/);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page).toHaveTitle(`${title} – Inkwell`);
  // Line breaks survive as text.
  expect(await page.getByText('First line.').innerText()).toBe('First line.\nSecond line.');
  await expect(page.getByText(author.name)).toBeVisible();
  // The article's own date (the "more articles" cards below carry theirs too).
  await expect(page.getByRole('main').locator('header time[datetime]').first()).toBeVisible();
  // The image points nowhere: a neutral placeholder, not a broken image (the article's own
  // cover comes first; the "more articles" cards below may have placeholders too).
  await expect(page.getByTestId('image-placeholder').first()).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await expect(card(page, title)).toBeVisible();
  await expect(card(page, title).getByText(author.name)).toBeVisible();
});

test('Cancel on the form goes home; Add Article checks the fields with the shared rules', async ({ page, request }) => {
  const author = await signUp(request);
  await signInThroughApi(page, author, '/article-update');
  await page.getByLabel('Image URL').fill(IMAGE);
  await page.getByLabel('Title', { exact: true }).fill('   ');
  await page.getByLabel('Description', { exact: true }).fill('Body');
  await page.getByRole('button', { name: 'Add Article' }).click();
  const titleField = page.getByLabel('Title', { exact: true });
  await expect(titleField).toHaveAttribute('aria-invalid', 'true');
  await expect(titleField).toBeFocused();
  await expect(page.getByText('Title is required.')).toBeVisible();
  await expect(page).toHaveURL('/article-update');

  // Typed but unsaved: Cancel asks first (issue 15), then goes home.
  await page.getByRole('link', { name: 'Cancel' }).click();
  await page
    .getByRole('dialog', { name: 'Leave without saving?' })
    .getByRole('button', { name: 'Discard changes' })
    .click();
  await expect(page).toHaveURL('/');
});

test('a failed save keeps what was typed and shows a message', async ({ page, request }) => {
  const author = await signUp(request);
  await signInThroughApi(page, author, '/article-update');
  const title = `Kept ${unique()}`;
  await page.getByLabel('Image URL').fill(IMAGE);
  await page.getByLabel('Title', { exact: true }).fill(title);
  await page.getByLabel('Description', { exact: true }).fill('Nothing is lost.');
  // The internet-free stand-in for a network failure: the next create never reaches the server.
  await page.route('**/api/articles', (route) => route.abort('connectionfailed'), { times: 1 });
  await page.getByRole('button', { name: 'Add Article' }).click();
  // It says what happened (issue 15): the server was not reached, and the text is still here.
  await expect(page.getByRole('alert')).toHaveText(
    'The server could not be reached, so the article is not saved yet. Your text is kept here.',
  );
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue(title);
  await expect(page.getByLabel('Description', { exact: true })).toHaveValue('Nothing is lost.');

  await page.getByRole('button', { name: 'Add Article' }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
});

test('the author edits an article from its card; the form comes prefilled', async ({ page, request }) => {
  const author = await signUp(request);
  const article = await createArticle(request, author, { title: `Draft ${unique()}`, description: 'Old text' });
  await signInThroughApi(page, author);

  await card(page, article.title).getByRole('link', { name: /^Edit/ }).click();
  await expect(page).toHaveURL(`/article-update/${article.id}`);
  await expect(page.getByRole('heading', { name: 'Edit Article' })).toBeVisible();
  await expect(page.getByLabel('Image URL')).toHaveValue(article.image);
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue(article.title);
  await expect(page.getByLabel('Description', { exact: true })).toHaveValue('Old text');

  const newTitle = `Final ${unique()}`;
  await page.getByLabel('Title', { exact: true }).fill(newTitle);
  await page.getByRole('button', { name: 'Save Article' }).click();
  await expect(page).toHaveURL(`/article/${article.id}`);
  await expect(page.getByRole('heading', { level: 1, name: newTitle })).toBeVisible();
  await expect(page.getByText('Old text')).toBeVisible();
});

test('a draft left in the editor gives way to values saved since', async ({ page, request }) => {
  const author = await signUp(request);
  const article = await createArticle(request, author, { title: `Drafty ${unique()}`, description: 'First text' });
  await signInThroughApi(page, author);
  const home = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' });

  await card(page, article.title).getByRole('link', { name: /^Edit/ }).click();
  const typed = `Typed ${unique()}`;
  await page.getByLabel('Title', { exact: true }).fill(typed);
  const leaveKeepingDraft = () =>
    page
      .getByRole('dialog', { name: 'Leave without saving?' })
      .getByRole('button', { name: 'Leave, keep draft' })
      .click();
  await home.click();
  await leaveKeepingDraft();
  // Nothing changed meanwhile: the draft comes back.
  await card(page, article.title).getByRole('link', { name: /^Edit/ }).click();
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue(typed);
  await home.click();
  await leaveKeepingDraft();

  const newer = { image: IMAGE, title: `Saved elsewhere ${unique()}`, description: 'Newer text' };
  const saved = await request.put(`/api/articles/${article.id}`, {
    headers: { authorization: `Bearer ${author.idToken}` },
    data: newer,
  });
  expect(saved.status(), await saved.text()).toBe(200);
  await page.reload();
  await card(page, newer.title).getByRole('link', { name: /^Edit/ }).click();
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue(newer.title);
  await expect(page.getByLabel('Description', { exact: true })).toHaveValue('Newer text');
});

test('Log Out forgets the drafts typed in the tab', async ({ page, request }) => {
  const first = await signUp(request);
  const second = await signUp(request, 'Cy Next');
  await signInThroughApi(page, first);
  await page.getByRole('link', { name: 'Add an article' }).click();
  await page.getByLabel('Title', { exact: true }).fill(`Private ${unique()}`);
  await page.getByRole('link', { name: 'Profile' }).click();
  await page
    .getByRole('dialog', { name: 'Leave without saving?' })
    .getByRole('button', { name: 'Leave, keep draft' })
    .click();
  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL('/');

  await signInThroughApi(page, second);
  await page.getByRole('link', { name: 'Add an article' }).click();
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue('');
});

test('someone else cannot open the edit form of an article', async ({ page, request }) => {
  const author = await signUp(request);
  const other = await signUp(request, 'Bo Reader');
  const article = await createArticle(request, author, { title: `Mine ${unique()}` });
  await signInThroughApi(page, other, `/article-update/${article.id}`);
  await expect(page.getByRole('alert')).toContainText('You can only edit your own articles.');
  await expect(page.getByLabel('Title', { exact: true })).toHaveCount(0);
});

test('delete asks first: Cancel keeps the card, confirming removes it without a reload', async ({ page, request }) => {
  const author = await signUp(request);
  const article = await createArticle(request, author, { title: `Doomed ${unique()}` });
  await signInThroughApi(page, author);
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

  const dialog = page.getByRole('dialog', { name: 'Are you sure you want to delete this article?' });
  await card(page, article.title)
    .getByRole('button', { name: /^Delete/ })
    .click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(card(page, article.title)).toBeVisible();

  // Escape cancels too.
  await card(page, article.title)
    .getByRole('button', { name: /^Delete/ })
    .click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(card(page, article.title)).toBeVisible();

  await card(page, article.title)
    .getByRole('button', { name: /^Delete/ })
    .click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(card(page, article.title)).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  expect((await request.get(`/api/articles/${article.id}`)).status()).toBe(404);
});

test('Edit and Delete show only on your own cards; Add an article only when signed in', async ({ page, request }) => {
  const author = await signUp(request);
  const other = await signUp(request, 'Bo Reader');
  const article = await createArticle(request, author, { title: `Owned ${unique()}` });

  await page.goto('/');
  await expect(card(page, article.title)).toBeVisible();
  await expect(card(page, article.title).getByRole('link', { name: /^Edit/ })).toHaveCount(0);
  await expect(card(page, article.title).getByRole('button', { name: /^Delete/ })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Add an article' })).toHaveCount(0);

  await signInThroughApi(page, other);
  await expect(card(page, article.title)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add an article' })).toBeVisible();
  await expect(card(page, article.title).getByRole('link', { name: /^Edit/ })).toHaveCount(0);
  await expect(card(page, article.title).getByRole('button', { name: /^Delete/ })).toHaveCount(0);
});

test('the list comes a page at a time, by scrolling or Load more, down to the oldest', async ({ page, request }) => {
  const author = await signUp(request);
  const tag = unique();
  const titles: string[] = [];
  for (let n = 1; n <= 23; n += 1) {
    titles.push((await createArticle(request, author, { title: `Page test ${tag} #${n}` })).title);
  }
  const oldest = titles[0]!;
  const newest = titles[22]!;

  await page.goto('/');
  await expect(card(page, newest)).toBeVisible();
  const cards = page.locator('main article');
  await expect(cards).toHaveCount(20);
  await expect(card(page, oldest)).toHaveCount(0);

  // Scrolling to the end fetches the next page by itself.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect.poll(() => cards.count()).toBeGreaterThan(20);

  // The button does the same for anyone who does not scroll, until the oldest is there.
  const loadMore = page.getByRole('link', { name: 'Load more' });
  for (let clicks = 0; clicks < 50 && (await card(page, oldest).count()) === 0; clicks += 1) {
    if (await loadMore.isEnabled().catch(() => false)) await loadMore.click();
    await page.waitForTimeout(100);
  }
  await expect(card(page, oldest)).toBeVisible();
  // Every article once: pages never overlap.
  const ids = await cards.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('aria-labelledby')));
  expect(new Set(ids).size).toBe(ids.length);
});

test('an unknown article id shows the 404 page with HTTP 404', async ({ page }) => {
  const response = await page.goto('/article/AAAAAAAAAAAAAAAAAAAA');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to home' }).click();
  await expect(page).toHaveURL('/');
});

test('markup in an article is shown as text and never runs', async ({ page, request }) => {
  const author = await signUp(request);
  const title = `<script>alert(1)</script> ${unique()}`;
  const description = '<img src=x onerror=alert(1)>';
  const article = await createArticle(request, author, { title, description });
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });

  await page.goto('/');
  await expect(card(page, title)).toBeVisible();
  await expect(card(page, title).getByText(description)).toBeVisible();

  await page.goto(`/article/${article.id}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByText(description, { exact: true })).toBeVisible();
  await expect(page.locator('main img[src="x"]')).toHaveCount(0);
  await expect(page.locator('main script')).toHaveCount(0);
  expect(dialogs).toEqual([]);
});

test('a failed list call says so, is logged, and Retry recovers', async ({ page, request }) => {
  const author = await signUp(request);
  const article = await createArticle(request, author, { title: `Retry me ${unique()}` });
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  // The internet-free stand-in for a network failure: the first list call never arrives.
  await page.route(
    (url) => url.pathname === '/api/articles',
    (route) => route.abort('connectionfailed'),
    {
      times: 1,
    },
  );

  // The home page arrives with its list (server-rendered): the call is made when the app
  // shows the home screen itself, after a link followed inside it.
  await page.goto('/login');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home', exact: true }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('The articles could not be loaded.');
  expect(consoleErrors.some((text) => text.includes('Articles API'))).toBe(true);

  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(card(page, article.title)).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('a failed article call says so and Retry recovers', async ({ page, request }) => {
  const author = await signUp(request);
  const article = await createArticle(request, author, { title: `Single ${unique()}` });
  await page.route(`**/api/articles/${article.id}`, (route) => route.abort('connectionfailed'), { times: 1 });

  // The article page arrives with its article (server-rendered); the app calls for it when a card is followed.
  await page.goto('/');
  await page.getByRole('link', { name: article.title }).click();
  await expect(page.getByRole('alert')).toContainText('The article could not be loaded.');
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('heading', { level: 1, name: article.title })).toBeVisible();
});

test('the home page and the form fit a 360 px phone', async ({ page, request }) => {
  const author = await signUp(request);
  await createArticle(request, author, { title: `Narrow ${'x'.repeat(80)}` });
  await signInThroughApi(page, author);
  await page.setViewportSize({ width: 360, height: 740 });
  for (const route of ['/', '/article-update']) {
    await page.goto(route);
    await page.waitForLoadState('networkidle');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, route).toBeLessThanOrEqual(0);
  }
});

test('on a phone every card spans the list, however short its text', async ({ page, request }) => {
  const author = await signUp(request);
  await createArticle(request, author, { title: `Tiny ${Date.now()}`, description: 'Short.' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  const list = page.getByRole('list').filter({ has: page.getByRole('article') });
  const card = page.getByRole('article').first();
  await card.waitFor();
  const [listBox, cardBox] = [await list.boundingBox(), await card.boundingBox()];
  expect(cardBox!.width).toBeCloseTo(listBox!.width, 0);
});
