import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { Role } from '../src/shared/roles.ts';
import { apiPublish, apiSignUp, type ApiAccount } from './support/api.ts';
import { logOutFromProfile, signInThroughApi } from './support/accounts.ts';
import { waitForMail } from './support/mailbox.ts';
import { PICTURE_ORIGIN } from './support/pictures.ts';
import { lookAt } from './support/looks.ts';
import { giveRole } from './support/operator.ts';

// Comments (DESIGN.md §9.2) through the real screens: post, reply, edit, report and moderate,
// each screen checked with axe in both colour schemes and photographed at two sizes.

const SCREENS_DIR = path.join('test-results', 'screens', 'comments');
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** An account with a verified address (through the mail the sink got) and `role`. */
async function verifiedAccount(page: Page, name: string, role?: Role): Promise<ApiAccount> {
  const account = await apiSignUp(page.request, `${name} ${unique()}`);
  const mail = await waitForMail(account.email, /Verify/);
  const code = /oobCode=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
  const applied = await page.request.post('/identity/v1/accounts:update?key=e2e', { data: { oobCode: code } });
  expect(applied.status(), await applied.text()).toBe(200);
  if (role) await giveRole(account.email, role);
  return account;
}

const screenshots = (page: Page, label: string) => lookAt(page, label, { dir: SCREENS_DIR, settle: showComments });

const comments = (page: Page) => page.locator('#comments');
/** Scrolls to the comments (their code loads as they come near; the element is then replaced). */
const showComments = (page: Page) => page.evaluate(() => document.getElementById('comments')?.scrollIntoView());
const commentBy = (page: Page, name: string) =>
  comments(page)
    .getByRole('article')
    .filter({ has: page.locator('header', { hasText: name }) });

test('a reader comments, an editor replies, the reader edits and reports, the editor hides', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const author = await verifiedAccount(page, 'Ann Author');
  const reader = await verifiedAccount(page, 'Rita Reader', 'reader');
  const editor = await verifiedAccount(page, 'Eddie Editor', 'editor');
  const article = await apiPublish(page.request, author, {
    image: `${PICTURE_ORIGIN}/cover.jpg`,
    title: `Worth a comment ${unique()}`,
    description: 'A short piece people will want to answer.\n\nWith a second paragraph.',
  });
  const articlePath = `/article/${article.id}`;

  // Without JavaScript, the comments are in the page the server sent.
  const noScript = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  await noScript.goto(articlePath);
  await expect(noScript.getByRole('heading', { name: 'Comments', level: 2 })).toBeVisible();
  await expect(noScript.getByText('No comments yet.')).toBeVisible();
  await noScript.close();

  // Signed out: a link to sign in.
  await page.goto(articlePath);
  await showComments(page);
  await expect(page.getByRole('link', { name: 'Sign in to comment' })).toBeVisible();
  await screenshots(page, 'signed-out');

  // The reader comments. A failed send keeps the text; so does a reload.
  await signInThroughApi(page, reader, articlePath);
  const box = page.getByLabel('Add a comment');
  await box.fill('Loved the *second* paragraph.');
  await page.reload();
  await expect(page.getByLabel('Add a comment')).toHaveValue('Loved the *second* paragraph.');
  await page.route(`**/api/articles/${article.id}/comments`, (route) =>
    route.request().method() === 'POST' ? route.abort() : route.continue(),
  );
  await page.getByRole('button', { name: 'Comment', exact: true }).click();
  await expect(comments(page).getByRole('alert')).toContainText('could not be sent');
  await expect(page.getByLabel('Add a comment')).toHaveValue('Loved the *second* paragraph.');
  await page.unroute(`**/api/articles/${article.id}/comments`);
  await page.getByRole('button', { name: 'Comment', exact: true }).click();
  const readersComment = commentBy(page, reader.name);
  await expect(readersComment.locator('em')).toHaveText('second');
  await expect(page.getByLabel('Add a comment')).toHaveValue('');
  await expect(page.getByRole('heading', { name: '1 comment', level: 2 })).toBeVisible();
  await screenshots(page, 'posted');

  // The editor replies, from their own browser.
  const editorPage = await browser.newPage();
  await signInThroughApi(editorPage, editor, articlePath);
  await commentBy(editorPage, reader.name)
    .getByRole('button', { name: `Reply ${reader.name}` })
    .click();
  await editorPage.getByLabel('Your reply').fill('Thank you for reading.');
  await screenshots(editorPage, 'replying');
  await editorPage.getByRole('button', { name: 'Reply', exact: true }).click();
  await expect(commentBy(editorPage, editor.name)).toContainText('Thank you for reading.');

  // The reader hears of the reply, and edits their comment.
  await waitForMail(reader.email, /replied to your comment/);
  await page.reload();
  await expect(commentBy(page, editor.name)).toBeVisible();
  await readersComment.getByRole('button', { name: `Edit ${reader.name}` }).click();
  const editBox = page.getByLabel('Edit your comment');
  await expect(editBox).toHaveValue('Loved the *second* paragraph.');
  await editBox.fill('Loved the *second* paragraph, and the first.');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(readersComment).toContainText('and the first.');
  await expect(readersComment).toContainText('edited');

  // The reader reports the reply.
  await commentBy(page, editor.name)
    .getByRole('button', { name: `Report ${editor.name}` })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Report this comment' });
  await dialog.getByLabel('Reason').fill('Just testing reports.');
  await screenshots(page, 'reporting');
  await dialog.getByRole('button', { name: 'Report' }).click();
  await expect(comments(page).getByRole('status')).toHaveText('Thank you: editors will look at it.');

  // The editor finds the report in /admin and hides the reader's comment from the article.
  await editorPage.goto('/admin?tab=reports');
  await expect(editorPage.getByText('Just testing reports.')).toBeVisible();
  await editorPage.goto(articlePath);
  await commentBy(editorPage, reader.name)
    .getByRole('button', { name: `Hide ${reader.name}` })
    .click();
  const hide = editorPage.getByRole('dialog', { name: 'Hide this comment?' });
  await hide.getByLabel('Reason').fill('Off topic');
  await hide.getByRole('button', { name: 'Hide' }).click();
  await expect(commentBy(editorPage, reader.name)).toContainText('Hidden: Off topic');
  await screenshots(editorPage, 'moderated');
  // Readers no longer see it, nor the replies of its thread (decision 0600).
  const anonymous = await browser.newPage();
  await anonymous.goto(articlePath);
  await showComments(anonymous);
  await expect(anonymous.getByText('No comments yet.')).toBeVisible();
  await expect(commentBy(anonymous, reader.name)).toHaveCount(0);
  // Restored, it is back.
  await commentBy(editorPage, reader.name)
    .getByRole('button', { name: `Restore ${reader.name}` })
    .click();
  await expect(commentBy(editorPage, reader.name)).not.toContainText('Hidden');
  await editorPage.goto('/admin?tab=comments');
  await expect(editorPage.getByText('No comments are waiting for approval.')).toBeVisible();
  await screenshots(editorPage, 'admin-queue');
});

test('Log Out forgets a comment typed and not sent, as it does article drafts', async ({ page }) => {
  const author = await verifiedAccount(page, 'Dora Author');
  const first = await verifiedAccount(page, 'Fay First');
  const next = await verifiedAccount(page, 'Ned Next');
  const article = await apiPublish(page.request, author, {
    image: `${PICTURE_ORIGIN}/cover.jpg`,
    title: `Shared desk ${unique()}`,
    description: 'Read on a shared computer.',
  });
  await signInThroughApi(page, first, `/article/${article.id}`);
  await page.getByLabel('Add a comment').fill('Not for the next person');
  // Kept across a reload of the tab: it is a draft.
  await page.reload();
  await expect(page.getByLabel('Add a comment')).toHaveValue('Not for the next person');
  page.once('dialog', (dialog) => void dialog.accept());
  await logOutFromProfile(page);

  await signInThroughApi(page, next, `/article/${article.id}`);
  await expect(page.getByLabel('Add a comment')).toHaveValue('');
});
