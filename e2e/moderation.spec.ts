import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { Role } from '../src/shared/roles.ts';
import { apiPublish, apiSignUp, type ApiAccount } from './support/api.ts';
import { signInThroughApi, topBar } from './support/accounts.ts';
import { PICTURE_ORIGIN } from './support/pictures.ts';
import { lookAt } from './support/looks.ts';
import { giveRole } from './support/operator.ts';

// Drafts, review, hiding and reports through the real screens, against the e2e server (its
// database is given roles the operator's way, `npm run admin -- users role`).

const SCREENS_DIR = path.join('test-results', 'screens', 'moderation');
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** An account with `role`, made through the API and the admin command. */
async function accountWithRole(page: Page, name: string, role: Role): Promise<ApiAccount> {
  const account = await apiSignUp(page.request, `${name} ${unique()}`);
  if (role !== 'author') await giveRole(account.email, role);
  return account;
}

/** A page of its own (its own session) in the same browser, with the test pictures served. */
/** Light and dark at both sizes (pictures when wanted), each scheme checked with axe; `fullPage` for buttons below the fold. */
const screenshots = (page: Page, label: string, fullPage = false) =>
  lookAt(page, label, { dir: SCREENS_DIR, fullPage });

const notFoundHeading = (page: Page) => page.getByRole('heading', { name: 'Page not found' });

test('a contributor saves a draft and submits it; an editor publishes it from Review and it reaches the home page', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const contributor = await accountWithRole(page, 'Connie Contributor', 'contributor');
  const editor = await accountWithRole(page, 'Eddie Editor', 'editor');
  const title = `A draft for review ${unique()}`;
  await signInThroughApi(page, contributor);

  // A contributor is offered Submit for review and Save draft, never Add Article.
  await page.goto('/article-update');
  await expect(page.getByRole('button', { name: 'Submit for review' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Article' })).toHaveCount(0);
  await page.getByLabel('Image URL').fill(`${PICTURE_ORIGIN}/2.svg`);
  await page.getByLabel('Title', { exact: true }).fill(title);
  await page.getByLabel('Description', { exact: true }).fill('Words an editor will read **first**.');
  await screenshots(page, 'editor-contributor', true);
  await page.getByRole('button', { name: 'Save draft' }).click();

  // The draft's page, for its author: saved, and a Draft banner.
  await expect(page).toHaveURL(/\/article\/[^/]+$/);
  const draftUrl = new URL(page.url()).pathname;
  const banner = page.getByTestId('article-status');
  await expect(banner).toContainText('Draft saved.');
  await expect(banner).toContainText('Draft: only you and the editors can see this article.');
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await screenshots(page, 'article-draft-banner');

  // Nobody else sees it: a signed-out visitor gets the 404 page.
  const visitor = await browser.newPage();
  await visitor.goto(draftUrl);
  await expect(notFoundHeading(visitor)).toBeVisible();

  // The profile lists it among the drafts; from there, edit and submit it.
  await topBar(page).getByRole('link', { name: 'Profile' }).click();
  const drafts = page.getByTestId('your-drafts');
  await expect(drafts.getByTestId('draft').filter({ hasText: title })).toContainText('Draft');
  await screenshots(page, 'profile-drafts', true);
  await drafts.getByRole('link', { name: `Edit ${title}` }).click();
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue(title);
  await page.getByRole('button', { name: 'Submit for review' }).click();
  await expect(page.getByTestId('article-status')).toContainText('Submitted for review');
  await topBar(page).getByRole('link', { name: 'Profile' }).click();
  await expect(drafts.getByTestId('draft').filter({ hasText: title })).toContainText('Submitted for review');

  // The editor finds it under Review and publishes it.
  const editorPage = await browser.newPage();
  await signInThroughApi(editorPage, editor, '/admin');
  await editorPage.getByRole('tab', { name: 'Review' }).click();
  await expect(editorPage).toHaveURL('/admin?tab=review');
  const item = editorPage.getByTestId('review-item').filter({ hasText: title });
  await expect(item).toBeVisible();
  await expect(editorPage.getByRole('tab', { name: 'Log' })).toHaveCount(0);
  await screenshots(editorPage, 'admin-review');
  await item.getByRole('button', { name: `Publish ${title}` }).click();
  await expect(editorPage.getByText(`Published “${title}”.`)).toBeVisible();
  await expect(item).toHaveCount(0);

  // Published: on the home page for everyone, and gone from the author's drafts.
  await visitor.goto('/');
  await expect(visitor.getByRole('link', { name: title }).first()).toBeVisible();
  await visitor.goto(draftUrl);
  await expect(visitor.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await page.reload();
  await expect(drafts.getByText('You have no drafts', { exact: false })).toBeVisible();
});

test('an editor hides an article with a reason: the public gets the 404 page, the author sees why; Restore brings it back', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const author = await accountWithRole(page, 'Ava Author', 'author');
  const editor = await accountWithRole(page, 'Eli Editor', 'editor');
  const article = await apiPublish(page.request, author, {
    image: `${PICTURE_ORIGIN}/4.svg`,
    title: `To be hidden ${unique()}`,
    description: 'Something an editor will take down.',
  });
  const articleUrl = `/article/${article.id}`;
  const reason = 'It copies another site’s article word for word.';

  await signInThroughApi(page, editor, articleUrl);
  // Editors get Edit, Delete and Hide on someone else's article.
  await expect(page.getByRole('link', { name: 'Edit', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Hide' }).click();
  const dialog = page.getByRole('dialog', { name: 'Hide this article?' });
  await expect(dialog).toBeVisible();
  // Cancel keeps the page as it was.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('article-status')).toHaveCount(0);
  // So does Escape, and the focus goes back to the Hide button; the reason field is where typing goes.
  await page.getByRole('button', { name: 'Hide' }).click();
  await expect(dialog.getByLabel('Reason (shown to the author)')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Hide' })).toBeFocused();
  // A reason is required, and has at most 500 characters.
  await page.getByRole('button', { name: 'Hide' }).click();
  await dialog.getByRole('button', { name: 'Hide' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('A reason is required.');
  await dialog.getByLabel('Reason (shown to the author)').fill('x'.repeat(501));
  await dialog.getByRole('button', { name: 'Hide' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('The reason must be at most 500 characters.');
  await dialog.getByLabel('Reason (shown to the author)').fill(reason);
  await screenshots(page, 'hide-dialog');
  await dialog.getByRole('button', { name: 'Hide' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('article-status')).toContainText('Hidden by an editor');
  await expect(page.getByTestId('article-status')).toContainText(reason);
  await expect(page.getByRole('button', { name: 'Restore' })).toBeVisible();

  // Signed out: the 404 page, and the API says 404 too.
  const visitor = await browser.newPage();
  await visitor.goto(articleUrl);
  await expect(notFoundHeading(visitor)).toBeVisible();
  expect((await visitor.request.get(`/api/articles/${article.id}`)).status()).toBe(404);

  // The author sees the article, the banner and the reason; and it is Hidden in their drafts.
  const authorPage = await browser.newPage();
  await signInThroughApi(authorPage, author, articleUrl);
  await expect(authorPage.getByTestId('article-status')).toContainText(reason);
  await expect(authorPage.getByRole('button', { name: 'Report' })).toHaveCount(0);
  await screenshots(authorPage, 'article-hidden-banner');
  await topBar(authorPage).getByRole('link', { name: 'Profile' }).click();
  const listed = authorPage.getByTestId('your-drafts').getByTestId('draft').filter({ hasText: article.title });
  await expect(listed).toContainText('Hidden');
  await expect(listed).toContainText(reason);

  // Restore: public again.
  await page.getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByTestId('article-status')).toHaveCount(0);
  await visitor.goto(articleUrl);
  await expect(visitor.getByRole('heading', { level: 1, name: article.title })).toBeVisible();
});

test('readers report articles; an editor dismisses one report and hides from another; the owner reads both in the Log', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const author = await accountWithRole(page, 'Abe Author', 'author');
  const reader = await accountWithRole(page, 'Rita Reader', 'reader');
  const editor = await accountWithRole(page, 'Erin Editor', 'editor');
  const owner = await accountWithRole(page, 'Otto Owner', 'owner');
  const fine = await apiPublish(page.request, author, {
    image: `${PICTURE_ORIGIN}/1.svg`,
    title: `Reported but fine ${unique()}`,
    description: 'Nothing wrong here.',
  });
  const spam = await apiPublish(page.request, author, {
    image: `${PICTURE_ORIGIN}/5.svg`,
    title: `Reported spam ${unique()}`,
    description: 'Buy now!',
  });

  // The reader reports both; a second report of the same article is refused with a reason.
  await signInThroughApi(page, reader, `/article/${fine.id}`);
  await expect(page.getByRole('button', { name: 'Hide' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Report' }).click();
  const dialog = page.getByRole('dialog', { name: 'Report this article' });
  await dialog.getByLabel('Reason').fill('I think this is misleading.');
  await dialog.getByRole('button', { name: 'Report' }).click();
  await expect(page.getByText('Thank you: your report has been sent to the editors.')).toBeVisible();
  await page.getByRole('button', { name: 'Report' }).click();
  await dialog.getByLabel('Reason').fill('Still misleading.');
  await dialog.getByRole('button', { name: 'Report' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'You have already reported this article' })).toBeVisible();

  await page.goto(`/article/${spam.id}`);
  await page.getByRole('button', { name: 'Report' }).click();
  await dialog.getByLabel('Reason').fill('Advertising, nothing else.');
  await dialog.getByRole('button', { name: 'Report' }).click();
  await expect(page.getByText('Thank you: your report has been sent to the editors.')).toBeVisible();

  // The editor: dismiss the first with a note, hide from the second.
  const editorPage = await browser.newPage();
  await signInThroughApi(editorPage, editor, '/admin?tab=reports');
  const fineReport = editorPage.getByTestId('report').filter({ hasText: fine.title });
  const spamReport = editorPage.getByTestId('report').filter({ hasText: spam.title });
  await expect(fineReport).toContainText('I think this is misleading.');
  await expect(spamReport).toContainText('Advertising, nothing else.');
  // Who reported (issue 39): their name, linked to their author page.
  await expect(fineReport.getByRole('link', { name: reader.name })).toHaveAttribute('href', /^\/author\/rita-reader/);
  await screenshots(editorPage, 'admin-reports');
  await fineReport.getByLabel(/^Note/).fill('Checked the sources: accurate.');
  await fineReport.getByRole('button', { name: `Dismiss ${fine.title}` }).click();
  await expect(fineReport).toHaveCount(0);
  await spamReport.getByRole('button', { name: `Hide ${spam.title}` }).click();
  await expect(spamReport).toHaveCount(0);
  await expect(editorPage.getByText('The report is closed.')).toBeVisible();

  // Hidden from the report: gone for the public, with the report's reason for its author.
  const visitor = await browser.newPage();
  await visitor.goto(`/article/${spam.id}`);
  await expect(notFoundHeading(visitor)).toBeVisible();
  await visitor.goto(`/article/${fine.id}`);
  await expect(visitor.getByRole('heading', { level: 1, name: fine.title })).toBeVisible();

  // The owner's Log has both resolutions and the hide, newest first.
  const ownerPage = await browser.newPage();
  await signInThroughApi(ownerPage, owner, '/admin');
  await ownerPage.getByRole('tab', { name: 'Log' }).click();
  const entries = ownerPage.getByTestId('audit-entry');
  // Names and titles, not ids (issue 39): the editor who acted, the article they hid.
  const hide = entries.filter({ hasText: 'article.hide' }).filter({ hasText: spam.title });
  await expect(hide).toHaveCount(1);
  await expect(hide).toContainText(editor.name);
  await expect(hide).not.toContainText(editor.uid);
  await expect(hide.getByRole('link', { name: spam.title })).toHaveAttribute('href', `/article/${spam.id}`);
  await expect(entries.filter({ hasText: 'report.resolve' }).filter({ hasText: fine.title })).toHaveCount(1);
  await screenshots(ownerPage, 'admin-log');
});

test('the 21st report of a day is refused, and the Report dialog says why in the server’s words', async ({ page }) => {
  test.setTimeout(120_000);
  const author = await accountWithRole(page, 'Amy Author', 'author');
  const reader = await accountWithRole(page, 'Ray Reader', 'reader');
  const articles = [];
  for (let index = 0; index < 21; index++) {
    articles.push(
      await apiPublish(page.request, author, {
        image: `${PICTURE_ORIGIN}/${index}.svg`,
        title: `Reported ${index} ${unique()}`,
        description: 'One of many.',
      }),
    );
  }
  // Twenty reports through the API: the day's allowance (DESIGN.md §8.2).
  for (const article of articles.slice(0, 20)) {
    const response = await page.request.post(`/api/articles/${article.id}/reports`, {
      headers: { authorization: `Bearer ${reader.idToken}` },
      data: { reason: 'Part of a flood.' },
    });
    expect(response.status(), await response.text()).toBe(201);
  }

  await signInThroughApi(page, reader, `/article/${articles[20]!.id}`);
  await page.getByRole('button', { name: 'Report' }).click();
  const dialog = page.getByRole('dialog', { name: 'Report this article' });
  await dialog.getByLabel('Reason').fill('One more.');
  await dialog.getByRole('button', { name: 'Report' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('alert').filter({ hasText: 'Please try again tomorrow.' })).toBeVisible();
});

test('editors list every article in the Posts tab: status, author, a status filter, a title search, More', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const author = await accountWithRole(page, 'Pat Poster', 'author');
  const contributor = await accountWithRole(page, 'Cal Contributor', 'contributor');
  const editor = await accountWithRole(page, 'Eve Editor', 'editor');
  const mark = unique();
  const published = await apiPublish(page.request, author, {
    image: `${PICTURE_ORIGIN}/2.svg`,
    title: `Posts tab published ${mark}`,
    description: 'Out in the open.',
  });
  const draft = await page.request.post('/api/articles', {
    headers: { authorization: `Bearer ${contributor.idToken}` },
    data: { image: `${PICTURE_ORIGIN}/3.svg`, title: `Posts tab draft ${mark}`, description: 'Not yet.', tags: [] },
  });
  expect(draft.status(), await draft.text()).toBe(201);
  const draftId = ((await draft.json()) as { id: string }).id;

  // Authors have no Posts tab; the server refuses them the list anyway.
  await signInThroughApi(page, author, '/admin');
  await expect(notFoundHeading(page)).toBeVisible();

  const editorPage = await browser.newPage();
  await signInThroughApi(editorPage, editor, '/admin');
  await editorPage.getByRole('tab', { name: 'Posts' }).click();
  await expect(editorPage).toHaveURL('/admin?tab=posts');
  const posts = editorPage.getByTestId('post');
  const draftRow = posts.filter({ hasText: `Posts tab draft ${mark}` });
  const publishedRow = posts.filter({ hasText: `Posts tab published ${mark}` });
  await expect(draftRow).toContainText('Draft');
  await expect(draftRow).toContainText(contributor.name);
  await expect(draftRow.getByRole('link', { name: `Posts tab draft ${mark}` })).toHaveAttribute(
    'href',
    `/article/${draftId}`,
  );
  await expect(publishedRow).toContainText('Published');
  await expect(publishedRow.getByRole('link', { name: author.name })).toHaveAttribute('href', /^\/author\//);
  await screenshots(editorPage, 'admin-posts');

  // The status filter: drafts only.
  await editorPage.getByLabel('Status').selectOption('draft');
  await expect(publishedRow).toHaveCount(0);
  await expect(draftRow).toHaveCount(1);
  await expect(posts.filter({ hasNotText: 'Draft' })).toHaveCount(0);

  // The title search, case aside, within the status chosen; then every status again.
  await editorPage.getByLabel('Status').selectOption('all');
  await editorPage.getByLabel('Search titles').fill(`TAB PUBLISHED ${mark}`);
  await editorPage.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(posts).toHaveCount(1);
  await expect(publishedRow).toHaveCount(1);
  await editorPage.getByLabel('Search titles').fill(`nothing like it ${mark}`);
  await editorPage.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(editorPage.getByText('No articles match.')).toBeVisible();

  // Paging: 20 at a time, More brings the next page without repeating one.
  await editorPage.getByLabel('Search titles').fill('');
  await editorPage.getByRole('button', { name: 'Search', exact: true }).click();
  for (let index = 0; index < 20; index++) {
    await apiPublish(page.request, author, {
      image: `${PICTURE_ORIGIN}/${index % 6}.svg`,
      title: `Posts filler ${index} ${mark}`,
      description: 'Filler.',
    });
  }
  await editorPage.getByLabel('Status').selectOption('published');
  await editorPage.getByLabel('Status').selectOption('all');
  await expect(posts).toHaveCount(20);
  await expect(publishedRow).toHaveCount(0);
  await editorPage.getByRole('button', { name: 'More' }).click();
  await expect(publishedRow).toHaveCount(1);
  await expect(draftRow).toHaveCount(1);
  const titles = await posts.locator('a[href^="/article/"]').allTextContents();
  expect(new Set(titles).size).toBe(titles.length);
  expect(published.id).not.toBe(draftId);
});

test('a reader is not offered to write, and a refused save says why in the server’s words (issue 39.6)', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const reader = await accountWithRole(page, 'Rhea Reader', 'reader');
  const author = await accountWithRole(page, 'Arlo Author', 'author');

  // The author is offered Add an article (the control), the reader neither it nor the editor.
  const authorPage = await browser.newPage();
  await signInThroughApi(authorPage, author);
  await expect(authorPage.getByRole('link', { name: 'Add an article' })).toBeVisible();
  await signInThroughApi(page, reader);
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('heading', { name: 'Latest articles' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add an article' })).toHaveCount(0);
  await screenshots(page, 'home-reader');
  await page.goto('/article-update');
  await expect(notFoundHeading(page)).toBeVisible();
  await expect(page.getByLabel('Title', { exact: true })).toHaveCount(0);

  // The author, made a reader while writing: the save is refused with the server's reason.
  await authorPage.getByRole('link', { name: 'Add an article' }).click();
  await authorPage.getByLabel('Image URL').fill(`${PICTURE_ORIGIN}/2.svg`);
  await authorPage.getByLabel('Title', { exact: true }).fill(`Never saved ${unique()}`);
  await authorPage.getByLabel('Description', { exact: true }).fill('Written by someone who may no longer write.');
  await giveRole(author.email, 'reader');
  await authorPage.getByRole('button', { name: 'Save draft' }).click();
  await expect(authorPage.getByRole('alert')).toContainText('Your role does not allow writing articles.');
  await expect(authorPage.getByRole('alert')).not.toContainText('You can only edit your own articles.');
  await screenshots(authorPage, 'editor-refused', true);
  await authorPage.context().close();
});
