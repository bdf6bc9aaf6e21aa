import { expect, test, type Page } from '@playwright/test';
import { signIn } from './support/accounts.ts';
import { apiSignUp, type ApiAccount } from './support/api.ts';
import { axeViolations } from './support/axe.ts';
import { screenshot } from './support/looks.ts';

// The writer's desk (DESIGN.md §9.6) in a real browser against the real server: a draft with
// only a title, an excerpt on the card, scheduling from the editor, and autosave restoring the
// text in another browser.

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const COVER = 'http://127.0.0.1:9/picture.png';
const SCREENS_DIR = 'test-results/screens';

async function newEditor(page: Page, account: ApiAccount) {
  await signIn(page, account);
  await page.goto('/article-update');
  await expect(page.getByRole('heading', { name: 'Add an Article' })).toBeVisible();
}

test('a draft with only a title is saved, and opens on its page as a draft', async ({ page, request }) => {
  await newEditor(page, await apiSignUp(request, 'Dora Drafter'));
  const title = `Only a title ${unique()}`;
  await page.getByLabel('Title', { exact: true }).fill(title);
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page).toHaveURL(/\/article\/[A-Za-z0-9]{20}$/);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByTestId('article-status')).toContainText('Draft saved.');
});

test('the excerpt written in the editor is what the home page card shows', async ({ page, request }) => {
  await newEditor(page, await apiSignUp(request, 'Esme Excerpt'));
  const title = `With an excerpt ${unique()}`;
  const excerpt = `A line of my own choosing ${unique()}.`;
  await page.getByLabel('Image URL').fill(COVER);
  await page.getByLabel('Title', { exact: true }).fill(title);
  await page
    .getByLabel('Description', { exact: true })
    .fill('The body starts here, and the card would have shown this otherwise.');
  await page.getByLabel('Excerpt').fill(excerpt);
  await page.getByRole('button', { name: 'Add Article' }).click();
  await expect(page).toHaveURL(/\/article\/[A-Za-z0-9]{20}$/);
  await page.goto('/');
  const card = page.getByRole('article').filter({ hasText: title });
  await expect(card.getByText(excerpt)).toBeVisible();
  await expect(card).not.toContainText('The body starts here');
});

test('scheduling from the editor: a local date and time, and the page tells its author when', async ({
  page,
  request,
}) => {
  const account = await apiSignUp(request, 'Sam Scheduler');
  await newEditor(page, account);
  const title = `Scheduled ${unique()}`;
  await page.getByLabel('Image URL').fill(COVER);
  await page.getByLabel('Title', { exact: true }).fill(title);
  await page.getByLabel('Description', { exact: true }).fill('Out tomorrow.');
  await page.getByLabel('Schedule').check();
  // Choosing to schedule without a time says what is missing.
  await page.getByRole('button', { name: 'Schedule' }).click();
  await expect(page.getByText('Choose when to publish it.')).toBeVisible();
  const when = await page.evaluate(() => {
    const date = new Date(Date.now() + 24 * 3600_000);
    date.setSeconds(0, 0);
    const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    return { local, iso: date.toISOString(), shown: date.toLocaleString() };
  });
  await page.getByLabel('Publish at').fill(when.local);
  await page.getByRole('button', { name: 'Schedule' }).click();
  await expect(page).toHaveURL(/\/article\/[A-Za-z0-9]{20}$/);
  await expect(page.getByTestId('article-status')).toContainText(`Scheduled for ${when.shown}`);
  const id = page.url().split('/').at(-1)!;
  // Sent as UTC, as the browser's local time meant it.
  const stored = await request.get(`/api/articles/${id}`, { headers: { authorization: `Bearer ${account.idToken}` } });
  expect(await stored.json()).toMatchObject({ status: 'scheduled', publishAt: when.iso });
});

test('autosave: a draft goes to the server as one writes, and another browser opens the latest text', async ({
  page,
  browser,
  request,
}) => {
  const account = await apiSignUp(request, 'Ada Autosave');
  const title = `Autosaved ${unique()}`;
  const created = await request.post('/api/articles', {
    headers: { authorization: `Bearer ${account.idToken}` },
    data: { title, status: 'draft' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await signIn(page, account);
  await page.goto(`/article-update/${id}`);
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue(title);
  await page.getByLabel('Description', { exact: true }).fill('First words, never submitted.');
  await expect(page.getByTestId('autosave-status')).toHaveText('Saved', { timeout: 10_000 });
  await page.getByLabel('Description', { exact: true }).fill('First words, and then some more.');
  // Typing again: no longer "Saved" until the next save has gone through.
  await expect(page.getByTestId('autosave-status')).not.toHaveText('Saved');
  await expect(page.getByTestId('autosave-status')).toHaveText('Saved', { timeout: 10_000 });
  // Still a draft: nothing was published by the saves.
  const stored = await request.get(`/api/articles/${id}`, { headers: { authorization: `Bearer ${account.idToken}` } });
  expect(await stored.json()).toMatchObject({ status: 'draft', description: 'First words, and then some more.' });

  const elsewhere = await browser.newContext();
  try {
    const other = await elsewhere.newPage();
    await signIn(other, account);
    await other.goto(`/article-update/${id}`);
    await expect(other.getByLabel('Title', { exact: true })).toHaveValue(title);
    await expect(other.getByLabel('Description', { exact: true })).toHaveValue('First words, and then some more.');
  } finally {
    await elsewhere.close();
  }
});

test('"Leave, keep draft" on a new article keeps it on the server, not only in the tab', async ({ page, request }) => {
  const account = await apiSignUp(request, 'Lee Leaver');
  await newEditor(page, account);
  const title = `Left for later ${unique()}`;
  await page.getByLabel('Title', { exact: true }).fill(title);
  await page.getByRole('link', { name: 'Cancel' }).click();
  await page
    .getByRole('dialog', { name: 'Leave without saving?' })
    .getByRole('button', { name: 'Leave, keep draft' })
    .click();
  await expect(page).toHaveURL('/');
  const drafts = await request.get(`/api/articles?author=${account.uid}&status=draft`, {
    headers: { authorization: `Bearer ${account.idToken}` },
  });
  expect(((await drafts.json()) as { articles: { title: string }[] }).articles.map((a) => a.title)).toEqual([title]);
});

test('the editor with its desk: axe in both themes, screenshots at a phone and a laptop size', async ({
  page,
  request,
}) => {
  await newEditor(page, await apiSignUp(request, 'Vera Viewer'));
  await page.getByLabel('Title', { exact: true }).fill('A long article');
  await page.getByLabel('Excerpt').fill('What this long article is about, in a line.');
  await page
    .getByLabel('Description', { exact: true })
    .fill(Array.from({ length: 40 }, (_, i) => `Paragraph ${i + 1}.`).join('\n\n'));
  await page.getByLabel('Schedule').check();
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await axeViolations(page)).toEqual([]);
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1280, height: 800 },
    ]) {
      await page.setViewportSize(viewport);
      // The excerpt and the schedule in view, the article running on below them.
      await page.getByLabel('Excerpt').scrollIntoViewIfNeeded();
      // The actions stay in the window however long the article.
      await expect(page.getByRole('button', { name: 'Save draft' })).toBeInViewport();
      await screenshot(page, `${SCREENS_DIR}/${theme}-writers-desk-editor-${viewport.width}.png`);
    }
  }
});
