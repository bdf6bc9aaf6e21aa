import { expect, test } from '@playwright/test';
import { apiPublish, apiSignUp } from './support/api.ts';
import { signInThroughApi } from './support/accounts.ts';
import { PICTURE_ORIGIN } from './support/pictures.ts';

// The author page, /author/{slug} (uids redirect there; issue 15 §2, docs/product.md, Screens): an author's name and their
// articles, newest first, paged like the home list; 404 for an unknown uid; an empty state for
// an author with none. Accounts and articles are made through the real API.

test('a byline leads to the author page, which lists only their articles, newest first', async ({ page, request }) => {
  const ada = await apiSignUp(request, 'Ada Lovelace');
  const other = await apiSignUp(request, 'Someone Else');
  const first = await apiPublish(request, ada, {
    image: `${PICTURE_ORIGIN}/1.svg`,
    title: `On the Analytical Engine ${ada.uid}`,
    description: 'It weaves algebraic patterns.',
  });
  const theirs = await apiPublish(request, other, {
    image: `${PICTURE_ORIGIN}/2.svg`,
    title: `Not by Ada ${other.uid}`,
    description: 'Someone else wrote this.',
  });
  const second = await apiPublish(request, ada, {
    image: `${PICTURE_ORIGIN}/3.svg`,
    title: `Notes on notes ${ada.uid}`,
    description: 'Her famous Note G.',
  });

  await page.goto(`/article/${first.id}`);
  await page.getByRole('main').getByRole('link', { name: 'Ada Lovelace' }).first().click();
  // At the slug of the name (decision 0420); another run's Ada has the plain one.
  await expect(page).toHaveURL(/\/author\/ada-lovelace(-\d+)?$/);
  const heading = page.getByRole('heading', { level: 1, name: 'Ada Lovelace' });
  await expect(heading).toBeVisible();
  await expect(heading).toHaveAttribute('dir', 'auto');
  await expect(page).toHaveTitle('Ada Lovelace – Inkwell');

  const cards = page.getByRole('main').getByRole('article');
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(0)).toHaveAccessibleName(second.title);
  await expect(cards.nth(1)).toHaveAccessibleName(first.title);
  await expect(page.getByRole('article', { name: theirs.title })).toHaveCount(0);

  // The page also works as a first visit (server-filled, then the app).
  const response = await page.goto(`/author/${other.uid}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'Someone Else' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('article')).toHaveCount(1);
});

test('the author page pages like the home list', async ({ page, request }) => {
  test.setTimeout(60_000);
  const prolific = await apiSignUp(request, 'Prolific Writer');
  const titles: string[] = [];
  for (let index = 0; index < 23; index += 1) {
    const article = await apiPublish(request, prolific, {
      image: `${PICTURE_ORIGIN}/${index}.svg`,
      title: `Entry ${String(index).padStart(2, '0')} ${prolific.uid}`,
      description: `Entry number ${index}.`,
    });
    titles.push(article.title);
  }
  await page.goto(`/author/${prolific.uid}`);
  const cards = page.getByRole('main').getByRole('article');
  await expect(cards.first()).toHaveAccessibleName(titles[22]!);
  // A page is 20 cards; the rest arrive as the reader nears the end (or with Load more).
  await expect(cards).toHaveCount(20);
  await expect(page.getByRole('link', { name: 'Load more' })).toBeVisible();
  await page.getByRole('link', { name: 'Load more' }).scrollIntoViewIfNeeded();
  await expect(cards).toHaveCount(23);
  await expect(cards.last()).toHaveAccessibleName(titles[0]!);
  await expect(page.getByRole('link', { name: 'Load more' })).toHaveCount(0);
});

test('an unknown author is answered 404 with the 404 page', async ({ page }) => {
  const response = await page.goto('/author/no-such-author-uid');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to home' })).toBeVisible();
});

test('an author with no articles gets their page with an empty state; they are offered to write', async ({
  page,
  request,
}) => {
  const quiet = await apiSignUp(request, 'Quiet Person');
  const response = await page.goto(`/author/${quiet.uid}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'Quiet Person' })).toBeVisible();
  await expect(page.getByText('No articles yet.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Write your first article' })).toHaveCount(0);

  await signInThroughApi(page, quiet, `/author/${quiet.uid}`);
  await expect(page.getByText('No articles yet.')).toBeVisible();
  await page.getByRole('link', { name: 'Write your first article' }).click();
  await expect(page.getByRole('heading', { name: 'Add an Article' })).toBeVisible();
});

test('right-to-left names and titles read right on the author page', async ({ page, request }) => {
  const author = await apiSignUp(request, 'مريم الكاتبة');
  const article = await apiPublish(request, author, {
    image: `${PICTURE_ORIGIN}/4.svg`,
    title: `شروق الشمس على البحر ${author.uid.slice(0, 6)}`,
    description: 'نص قصير عن البحر.',
  });
  await page.goto(`/author/${author.uid}`);
  const heading = page.getByRole('heading', { level: 1, name: 'مريم الكاتبة' });
  await expect(heading).toBeVisible();
  // dir="auto" makes the browser take the direction from the text itself.
  expect(await heading.evaluate((element) => element.matches(':dir(rtl)'))).toBe(true);
  const title = page.getByRole('heading', { name: article.title });
  expect(await title.evaluate((element) => element.matches(':dir(rtl)'))).toBe(true);
  const excerpt = page.getByText('نص قصير عن البحر.');
  expect(await excerpt.evaluate((element) => element.matches(':dir(rtl)'))).toBe(true);
});

test("a first visit asks for no list: the author's first page comes in the page", async ({ page, request }) => {
  const author = await apiSignUp(request, 'Early Bird');
  await apiPublish(request, author, {
    image: `${PICTURE_ORIGIN}/5.svg`,
    title: `Up early ${author.uid}`,
    description: 'Before the code arrives.',
  });
  const asked: string[] = [];
  page.on('request', (sent) => {
    const url = new URL(sent.url());
    if (url.pathname === '/api/articles') asked.push(url.search);
  });
  await page.goto(`/author/${author.uid}`);
  await expect(page.getByRole('article', { name: `Up early ${author.uid}` })).toBeVisible();
  await page.waitForLoadState('networkidle');
  // Rendered by the server, with the data the app takes the page over with: nothing to ask for.
  expect(asked).toEqual([]);
});
