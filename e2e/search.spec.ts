import { expect, test, type Page } from '@playwright/test';
import { apiPublish, apiSignUp } from './support/api.ts';
import { PICTURE_ORIGIN } from './support/pictures.ts';
import { lookAt } from './support/looks.ts';

// The top bar's search and the tag pages (DESIGN.md §8.5), through the real server and API.

const SCREENS_DIR = 'test-results/screens';

const screenshots = (page: Page, label: string) => lookAt(page, label, { dir: SCREENS_DIR, fullPage: true });

test('the top bar searches the articles: marked snippets, tags, paging and an empty state', async ({
  page,
  request,
}) => {
  // Four accessibility passes (two screens, light and dark) beside the searching itself.
  test.setTimeout(90_000);
  const writer = await apiSignUp(request, 'Marina Quay');
  // Unique to this run, and ending in a letter whose plural every stemmer reduces back to it
  // (a random ending in "s" or "u" would not be: "…ss" and "…us" keep their s).
  const word = `zephyr${writer.uid
    .slice(0, 6)
    .toLowerCase()
    .replace(/[^a-z]/g, 'q')}t`;
  const titled = await apiPublish(request, writer, {
    image: `${PICTURE_ORIGIN}/1.svg`,
    title: `The ${word} harbour`,
    description: 'Boats <b>rocked</b> gently & gulls cried.',
    tags: ['Harbours'],
  });
  for (let i = 0; i < 21; i++) {
    await apiPublish(request, writer, {
      image: `${PICTURE_ORIGIN}/2.svg`,
      title: `Logbook ${i}`,
      description: `Day ${i}: the ${word}s blew from the west across the café terrace.`,
    });
  }

  await page.goto('/');
  const box = page.getByRole('search').getByRole('searchbox', { name: 'Search articles' });
  // The spec's Home link and Login button are still there beside it.
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' })).toBeVisible();
  await box.fill(word.toUpperCase());
  await box.press('Enter');
  await expect(page).toHaveURL(`/search?q=${word.toUpperCase()}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`“${word.toUpperCase()}”`);
  await expect(page).toHaveTitle(`Search: ${word.toUpperCase()} – Inkwell`);

  const results = page.getByRole('list', { name: 'Results' }).getByRole('article');
  // A title match first; 20 a page.
  await expect(results).toHaveCount(20);
  await expect(results.first()).toHaveAccessibleName(titled.title);
  await expect(results.first().getByRole('link', { name: 'Harbours' })).toBeVisible();
  // The body's words are marked (the plural too: stemming); the HTML in the text stays text.
  await expect(results.nth(1).locator('mark')).toHaveText(`${word}s`);
  await expect(results.first()).toContainText('Boats <b>rocked</b> gently & gulls cried.');
  await expect(results.first().locator('b')).toHaveCount(0);

  // A link to the next page (DESIGN.md §9.6), taken over: the list grows in place.
  await page.getByRole('link', { name: 'More results' }).click();
  await expect(results).toHaveCount(22);
  await expect(page).toHaveURL(`/search?q=${word.toUpperCase()}`);
  await expect(page.getByRole('link', { name: 'More results' })).toHaveCount(0);
  await page.goto(`/search?q=${word}`);
  await expect(results).toHaveCount(20);
  await screenshots(page, 'search-results');

  // Diacritics ignored: "cafe" finds "café".
  await page.goto(`/search?q=${encodeURIComponent(`cafe ${word}`)}`);
  await expect(results.first().locator('mark').filter({ hasText: 'café' })).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search articles' }).fill(`${word} -${word}`);
  await page.getByRole('searchbox', { name: 'Search articles' }).press('Enter');
  await expect(page.getByText(`No articles match “${word} -${word}”.`)).toBeVisible();
  await screenshots(page, 'search-empty');
});

test('a tag on a card leads to its page; a tag without articles is not found', async ({ page, request }) => {
  const writer = await apiSignUp(request, 'Tam Tagger');
  const tag = `Knots ${writer.uid.slice(0, 5)}`;
  const first = await apiPublish(request, writer, {
    image: `${PICTURE_ORIGIN}/1.svg`,
    title: `Bowline ${writer.uid}`,
    description: 'The king of knots.',
    tags: [tag, 'Sailing'],
  });
  await apiPublish(request, writer, {
    image: `${PICTURE_ORIGIN}/2.svg`,
    title: `Untagged ${writer.uid}`,
    description: 'No tags here.',
  });

  await page.goto(`/author/${writer.uid}`);
  const card = page.getByRole('article', { name: first.title });
  await card.getByRole('link', { name: tag }).click();
  // Lower case, runs of other characters one hyphen, none at either end (a uid may end in "_").
  const slug = tag
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  await expect(page).toHaveURL(`/tag/${slug}`);
  await expect(page.getByRole('heading', { level: 1, name: tag })).toBeVisible();
  await expect(page).toHaveTitle(`${tag} – Inkwell`);
  const cards = page.getByRole('main').getByRole('article');
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toHaveAccessibleName(first.title);
  await screenshots(page, 'tag-page');

  // The article page links its tags too.
  await page.goto(`/article/${first.id}`);
  await expect(page.getByRole('main').getByRole('link', { name: 'Sailing' })).toHaveAttribute('href', '/tag/sailing');

  const missing = await page.goto('/tag/no-article-has-this-tag');
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
});
