import { expect, test, type Page } from '@playwright/test';

// Budgets (docs/architecture.md) and issues 6 and 26: the reading screens come with their data in the
// page, readable before the app's code arrives; nothing waits for a call made after the code.

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

test('the article page arrives with its article: readable while the screen code loads, and never asked for', async ({
  page,
  request,
}) => {
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

  // The screen's code is held back until the article has been seen: it must not wait for it.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let codeArrived = false;
  await page.route('**/assets/ArticlePage-*.js', async (route) => {
    await held;
    codeArrived = true;
    await route.continue();
  });
  const timings = recordTimings(page);
  await page.goto(`/article/${article.id}`, { waitUntil: 'commit' });
  await expect(page.getByRole('heading', { name: article.title })).toBeVisible();
  await expect(page.getByText('Both at once.')).toBeVisible();
  expect(codeArrived).toBe(false);
  release();
  await page.waitForLoadState('networkidle');
  expect(timings.countOf(new RegExp(`^/api/articles/${article.id}$`))).toBe(0);
});

test('the home page arrives with its list: cards on screen before the app runs, no call for them', async ({
  page,
  request,
}) => {
  const signUp = await request.post('/identity/v1/accounts:signUp?key=e2e', {
    data: { email: `home-${unique()}@example.com`, password: 'correct horse battery', displayName: 'Home Page' },
  });
  const { idToken } = (await signUp.json()) as { idToken: string };
  const title = `On the list ${unique()}`;
  const created = await request.post('/api/articles', {
    headers: { authorization: `Bearer ${idToken}` },
    data: { image: 'http://127.0.0.1:9/picture.png', title, description: 'Served with the page.' },
  });
  expect(created.status()).toBe(201);
  // The app's code is held back until the list has been seen: the list must not wait for it.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let scriptsRan = false;
  await page.route('**/assets/*.js', async (route) => {
    await held;
    scriptsRan = true;
    await route.continue();
  });
  const timings = recordTimings(page);
  await page.goto('/', { waitUntil: 'commit' });
  await expect(page.getByRole('link', { name: title })).toBeVisible();
  expect(scriptsRan).toBe(false);
  release();
  await page.waitForLoadState('networkidle');
  expect(timings.countOf(/^\/api\/articles/)).toBe(0);
});
