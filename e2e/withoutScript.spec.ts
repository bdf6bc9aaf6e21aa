import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { apiPublish, apiSignUp } from './support/api.ts';
import { PICTURE_ORIGIN } from './support/pictures.ts';
import { lookAt } from './support/looks.ts';

// What a reader meets without JavaScript, and the phone's top bar (issue 39.4, 39.7; DESIGN.md §9.6).

const SCREENS_DIR = path.join('test-results', 'screens', 'without-script');

const screenshots = (page: Page, label: string, only?: { width: number; height: number }, axe = true) =>
  lookAt(page, label, { dir: SCREENS_DIR, viewports: only ? [only] : undefined, axe });

const topBar = (page: Page) => page.getByRole('navigation', { name: 'Main' });

test('without JavaScript the top bar’s Login is a visible link to the login screen', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  for (const where of ['/', '/login', '/search?q=stone']) {
    await page.goto(where);
    const login = topBar(page).getByRole('link', { name: 'Login', exact: true });
    await expect(login).toBeVisible();
    await expect(login).toHaveAttribute('href', '/login');
    // Its label is painted, not transparent on a grey block.
    await expect(login).toHaveCSS('color', 'rgb(255, 255, 255)');
  }
  await page.goto('/');
  await screenshots(page, 'top-bar', undefined, false);
  await context.close();
});

test('the phone’s top bar keeps Home and Login, and its search box spans the bar while one types', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  const login = topBar(page).getByRole('link', { name: 'Login', exact: true });
  await expect(login).toBeVisible();
  await expect(login).toHaveCSS('color', 'rgb(255, 255, 255)');
  const search = topBar(page).getByRole('searchbox', { name: 'Search articles' });
  const home = (await topBar(page).getByRole('link', { name: 'Home', exact: true }).boundingBox())!;
  const button = (await login.boundingBox())!;
  const box = (await search.boundingBox())!;
  // Side by side, on the screen.
  expect(home.x + home.width).toBeLessThanOrEqual(box.x);
  expect(box.x + box.width).toBeLessThanOrEqual(button.x);
  expect(button.x + button.width).toBeLessThanOrEqual(390);
  expect(box.width).toBeGreaterThanOrEqual(90);

  await search.click();
  await search.fill('whetstone');
  await screenshots(page, 'phone-search-typing', { width: 390, height: 844 });
  const typing = (await search.boundingBox())!;
  expect(typing.width).toBeGreaterThanOrEqual(340);
  expect(typing.x + typing.width).toBeLessThanOrEqual(390);
  expect(typing.y).toBe(box.y);

  // Left, it is back in its place, and Home and Login are there as before.
  await page.keyboard.press('Shift+Tab');
  expect(await search.boundingBox()).toEqual(box);
  await expect(topBar(page).getByRole('link', { name: 'Home', exact: true })).toBeVisible();
  await search.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL('/search?q=whetstone');
});

test('without JavaScript, the tag page is there and Load more is a link: every article of the home, tag and author lists is reachable', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const author = await apiSignUp(request, `Lena Long ${Date.now().toString(36)}`);
  const titles: string[] = [];
  const tag = `noscript${Date.now().toString(36)}`;
  for (let n = 1; n <= 23; n += 1) {
    const title = `Reachable ${Date.now().toString(36)} #${n}`;
    await apiPublish(request, author, {
      image: `${PICTURE_ORIGIN}/cover.jpg`,
      title,
      description: 'Without script.',
      tags: [tag],
    });
    titles.push(title);
  }
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const oldest = () => page.getByRole('heading', { name: titles[0]!, exact: true });

  for (const start of ['/', `/tag/${tag}`, 'author']) {
    if (start !== 'author') await page.goto(start);
    else {
      await page.goto('/');
      await page.getByRole('link', { name: author.name }).first().click();
      await expect(page.getByRole('heading', { name: author.name, level: 1 })).toBeVisible();
    }
    const startPath = new URL(page.url()).pathname;
    await expect(page.getByRole('heading', { name: titles[22]!, exact: true })).toBeVisible();
    for (let hops = 0; hops < 30 && (await oldest().count()) === 0; hops += 1) {
      const loadMore = page.getByRole('link', { name: 'Load more' });
      await expect(loadMore).toHaveAttribute('href', /^\?cursor=/);
      await loadMore.click();
      expect(new URL(page.url()).pathname).toBe(startPath);
    }
    await expect(oldest()).toBeVisible();
  }
  await screenshots(page, 'author-second-page', undefined, false);
  await page.goto(`/tag/${tag}`);
  await expect(page.getByRole('heading', { name: tag, level: 1 })).toBeVisible();
  await screenshots(page, 'tag-page', undefined, false);
  expect((await page.goto('/tag/no-such-tag-anywhere'))?.status()).toBe(404);

  // A cursor this site did not issue is refused, not a 500.
  expect((await page.goto('/?cursor=not-a-cursor'))?.status()).toBe(400);
  await context.close();
});

test('the server-rendered tag page is taken over by the app without an error', async ({ page, request }) => {
  const author = await apiSignUp(request, `Tia Tagger ${Date.now().toString(36)}`);
  const tag = `taken${Date.now().toString(36)}`;
  const title = `Tagged ${Date.now().toString(36)}`;
  await apiPublish(request, author, {
    image: `${PICTURE_ORIGIN}/cover.jpg`,
    title,
    description: 'Tagged.',
    tags: [tag],
  });
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  const lists: string[] = [];
  page.on('request', (sent) => {
    if (new URL(sent.url()).pathname === '/api/articles') lists.push(sent.url());
  });
  await page.goto(`/tag/${tag}`);
  await expect(page.getByRole('heading', { name: tag, level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await screenshots(page, 'tag-page-script');
  // Its list came in the page: the app asked for none.
  expect(lists).toEqual([]);
  expect(errors).toEqual([]);
});

test('without JavaScript the top bar’s box searches: the results are in the page and More results is a link; with it, the same results, taken over cleanly', async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const author = await apiSignUp(request, `Sam Searcher ${Date.now().toString(36)}`);
  // Letters only, ending in one no stemmer takes off (search.spec.ts).
  const word = `grindq${Date.now()
    .toString(36)
    .replace(/[^a-z]/g, 'q')}t`;
  for (let n = 1; n <= 22; n += 1) {
    await apiPublish(request, author, {
      image: `${PICTURE_ORIGIN}/cover.jpg`,
      title: `Sharpening ${word} #${n}`,
      description: `Day ${n}: the ${word} stone, soaked.`,
    });
  }
  const context = await browser.newContext({ javaScriptEnabled: false });
  const quiet = await context.newPage();
  await quiet.goto('/');
  await topBar(quiet).getByRole('searchbox', { name: 'Search articles' }).fill(word);
  await topBar(quiet).getByRole('searchbox', { name: 'Search articles' }).press('Enter');
  await expect(quiet).toHaveURL(`/search?q=${word}`);
  const results = (shown: Page) => shown.getByRole('list', { name: 'Results' }).getByRole('article');
  await expect(quiet.getByRole('heading', { level: 1 })).toHaveText(`“${word}”`);
  await expect(results(quiet)).toHaveCount(20);
  await expect(results(quiet).nth(1).locator('mark')).toHaveText(word);
  const withoutScript = await results(quiet).getByRole('heading').allTextContents();
  await screenshots(quiet, 'search-results', undefined, false);
  const more = quiet.getByRole('link', { name: 'More results' });
  await expect(more).toHaveAttribute('href', `/search?q=${word}&cursor=20`);
  await more.click();
  await expect(results(quiet)).toHaveCount(2);
  await expect(quiet.getByRole('link', { name: 'More results' })).toHaveCount(0);
  const secondPage = await results(quiet).getByRole('heading').allTextContents();
  expect(new Set([...withoutScript, ...secondPage]).size).toBe(22);
  expect((await quiet.goto(`/search?q=${word}&cursor=nope`))?.status()).toBe(400);
  await context.close();

  // With script: the same results, from the page itself (no search asked again), no console error.
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  const searches: string[] = [];
  page.on('request', (sent) => {
    if (new URL(sent.url()).pathname === '/api/search') searches.push(sent.url());
  });
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      (window as unknown as { servedHeading: Element | null }).servedHeading = document.querySelector('main h1');
    });
  });
  await page.goto(`/search?q=${word}`);
  await expect(results(page)).toHaveCount(20);
  await page.waitForLoadState('networkidle');
  // Hydrated as it stood: the served heading is still the one on screen (not rendered again).
  expect(
    await page.evaluate(
      () =>
        (window as unknown as { servedHeading: Element | null }).servedHeading === document.querySelector('main h1'),
    ),
  ).toBe(true);
  expect(await results(page).getByRole('heading').allTextContents()).toEqual(withoutScript);
  expect(searches).toEqual([]);
  await screenshots(page, 'search-results-script');
  // Taken over: More results grows the list in place.
  await page.getByRole('link', { name: 'More results' }).click();
  await expect(results(page)).toHaveCount(22);
  await expect(page).toHaveURL(`/search?q=${word}`);
  expect(searches).toHaveLength(1);
  expect(errors).toEqual([]);
});
