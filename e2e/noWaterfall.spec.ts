import { expect, test, type Page, type Route } from '@playwright/test';

// Budgets (docs/architecture.md) and issue 6: a screen's data is fetched in parallel with its code, not after
// it. Slow parts are slowed further on purpose (by DELAY_MS); a request that waited for them
// would start after they finish.
const DELAY_MS = 600;

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

/** Wall-clock times (ms) at which requests matching each pattern started and finished. */
function recordTimings(page: Page) {
  const started = new Map<string, number>();
  const finished = new Map<string, number>();
  const counts = new Map<string, number>();
  page.on('request', (request) => {
    if (!started.has(request.url())) started.set(request.url(), Date.now());
    counts.set(request.url(), (counts.get(request.url()) ?? 0) + 1);
  });
  page.on('requestfinished', (request) => finished.set(request.url(), Date.now()));
  const find = (times: Map<string, number>, pattern: RegExp) => {
    const entry = [...times].find(([url]) => pattern.test(new URL(url).pathname + new URL(url).search));
    return entry?.[1];
  };
  return {
    startOf: (pattern: RegExp) => find(started, pattern),
    endOf: (pattern: RegExp) => find(finished, pattern),
    countOf: (pattern: RegExp) => find(counts, pattern) ?? 0,
  };
}

async function slowly(route: Route) {
  await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
  await route.continue();
}

test('the article page asks for its article while the screen code is still loading', async ({ page, request }) => {
  const signUp = await request.post('/identity/v1/accounts:signUp?key=e2e', {
    data: { email: `prefetch-${unique()}@example.com`, password: 'correct horse battery', displayName: 'Pre Fetch' },
  });
  expect(signUp.status()).toBe(200);
  const { idToken } = (await signUp.json()) as { idToken: string };
  const created = await request.post('/api/articles', {
    headers: { authorization: `Bearer ${idToken}` },
    data: { image: 'http://127.0.0.1:9/picture.png', title: `Parallel ${unique()}`, description: 'Both at once.' },
  });
  expect(created.status()).toBe(201);
  const article = (await created.json()) as { id: string; title: string };

  await page.route('**/assets/ArticlePage-*.js', slowly);
  const timings = recordTimings(page);
  await page.goto(`/article/${article.id}`);
  await expect(page.getByRole('heading', { name: article.title })).toBeVisible();

  const apiStart = timings.startOf(new RegExp(`^/api/articles/${article.id}$`));
  const chunkEnd = timings.endOf(/^\/assets\/ArticlePage-[^/]+\.js$/);
  expect(apiStart, 'the article request').toBeDefined();
  expect(chunkEnd, 'the ArticlePage chunk').toBeDefined();
  // Started at boot, so well before the (slowed) screen code arrived.
  expect(apiStart!).toBeLessThan(chunkEnd! - DELAY_MS / 2);
  expect(timings.countOf(new RegExp(`^/api/articles/${article.id}$`))).toBe(1);
});

test('the home page asks for the first page of articles as soon as the main bundle runs', async ({ page }) => {
  // The session check, the stylesheet and the icon are slowed: the list must not wait for them.
  await page.route('**/identity/**', slowly);
  await page.route('**/assets/*.css', slowly);
  await page.route('**/favicon.svg', slowly);
  const timings = recordTimings(page);
  await page.goto('/');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect.poll(() => timings.startOf(/^\/api\/articles\?limit=20$/)).toBeDefined();

  const listStart = timings.startOf(/^\/api\/articles\?limit=20$/)!;
  const mainEnd = timings.endOf(/^\/assets\/index-[^/]+\.js$/)!;
  const sessionStart = timings.startOf(/^\/identity\//);
  expect(mainEnd, 'the main bundle').toBeDefined();
  // Right after the main bundle, not after the slowed session check or stylesheet.
  expect(listStart - mainEnd).toBeLessThan(DELAY_MS / 2);
  if (sessionStart !== undefined) expect(listStart).toBeLessThan(sessionStart + DELAY_MS / 2);
  const cssEnd = timings.endOf(/^\/assets\/[^/]+\.css$/);
  if (cssEnd !== undefined) expect(listStart).toBeLessThan(cssEnd);
  // The shell's preload hint and the app's own call are one request, not two.
  expect(timings.countOf(/^\/api\/articles\?limit=20$/)).toBe(1);
});
