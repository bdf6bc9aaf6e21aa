import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { signInThroughApi } from './support/accounts.ts';
import { axeViolations } from './support/axe.ts';
import { screenshot } from './support/looks.ts';
import { apiPublish, apiSignUp } from './support/api.ts';
import { PICTURE_ORIGIN } from './support/pictures.ts';

// Author profiles (issue 26 point 7, decision 0420): a picture uploaded from the profile, a bio,
// both on the author page at a readable URL and the picture in bylines; the old uid URL redirects.

const face = () =>
  sharp({ create: { width: 900, height: 900, channels: 3, background: { r: 190, g: 90, b: 40 } } })
    .jpeg()
    .toBuffer();

test('a picture and a bio set on the profile show on the author page and in bylines, with or without JavaScript', async ({
  page,
  request,
  browser,
}) => {
  const author = await apiSignUp(request, 'Solveig Strand');
  const article = await apiPublish(request, author, {
    image: `${PICTURE_ORIGIN}/1.svg`,
    title: `Salt and light ${author.uid}`,
    description: 'A first article.',
  });
  await signInThroughApi(page, author, '/profile');

  const section = page.getByRole('region', { name: 'Author profile' });
  const chooser = page.waitForEvent('filechooser');
  await section.getByRole('button', { name: 'Change picture' }).click();
  await (await chooser).setFiles({ name: 'face.jpg', mimeType: 'image/jpeg', buffer: await face() });
  await expect(section.getByText('Profile picture updated.')).toBeVisible();
  const preview = section.locator('img');
  await expect(preview).toHaveAttribute('src', /\/images\/[A-Za-z0-9_-]{22}\/480w$/);
  await expect.poll(() => preview.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(480);

  const bio = 'Writes about the coast, its boats and the people who fish from them.';
  await section.getByLabel('Bio').fill(bio);
  await section.getByRole('button', { name: 'Save bio' }).click();
  await expect(section.getByText('Bio saved.')).toBeVisible();

  await section.getByRole('link', { name: 'View your author page' }).click();
  await expect(page).toHaveURL(/\/author\/solveig-strand(-\d+)?$/);
  const slugPath = new URL(page.url()).pathname;
  await expect(page.getByRole('heading', { level: 1, name: 'Solveig Strand' })).toBeVisible();
  await expect(page.getByText(bio)).toBeVisible();
  await expect(page.getByText('1 article', { exact: true })).toBeVisible();
  await expect(page.locator('header img')).toHaveAttribute('src', /\/images\/[A-Za-z0-9_-]{22}\/480w$/);

  // Bylines: the card's small picture beside the name, the article page's larger one.
  await page.goto('/');
  const card = page.getByRole('article', { name: article.title });
  const byline = card.getByRole('link', { name: 'Solveig Strand' });
  await expect(byline).toHaveAttribute('href', slugPath);
  await expect(byline.locator('img')).toHaveAttribute('src', /\/480w$/);
  await page.goto(`/article/${article.id}`);
  await expect(page.getByRole('main').locator('img[src$="/480w"]')).toHaveCount(1);

  // The old address by uid answers 301 to the readable one.
  const answer = await request.get(`/author/${author.uid}`, { maxRedirects: 0 });
  expect(answer.status()).toBe(301);
  expect(answer.headers().location).toBe(slugPath);
  await page.goto(`/author/${author.uid}`);
  await expect(page).toHaveURL(slugPath);

  // Without JavaScript the server's page carries the picture, the bio and the count.
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noScript.newPage();
  const response = await plain.goto(slugPath);
  expect(response?.status()).toBe(200);
  await expect(plain.getByRole('heading', { level: 1, name: 'Solveig Strand' })).toBeVisible();
  await expect(plain.getByText(bio)).toBeVisible();
  await expect(plain.getByText('1 article', { exact: true })).toBeVisible();
  const picture = plain.locator('header img');
  await expect(picture).toHaveAttribute('src', /\/480w$/);
  await expect.poll(() => picture.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(480);
  await noScript.close();
});

test('an author without a picture is shown by their initial; a renamed author’s old page redirects', async ({
  page,
  request,
}) => {
  const author = await apiSignUp(request, 'Eirik Vik');
  await page.goto(`/author/${author.uid}`);
  await expect(page).toHaveURL(/\/author\/eirik-vik(-\d+)?$/);
  const oldPath = new URL(page.url()).pathname;
  await expect(page.locator('header span[aria-hidden="true"]').filter({ hasText: /^E$/ })).toBeVisible();
  await expect(page.getByText('0 articles', { exact: true })).toBeVisible();

  const renamed = await request.post('/identity/v1/accounts:update?key=e2e', {
    data: { idToken: author.idToken, displayName: 'Eirik Vikane' },
  });
  expect(renamed.status()).toBe(200);
  await page.goto(oldPath);
  await expect(page).toHaveURL(/\/author\/eirik-vikane(-\d+)?$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Eirik Vikane' })).toBeVisible();
});

test('an image uploaded into the body asks for its alt text and caption and is served with its resized copies', async ({
  page,
  request,
}) => {
  const author = await apiSignUp(request, 'Inline Writer');
  await signInThroughApi(page, author, '/article-update');
  await page.getByLabel('Image URL').fill(`${PICTURE_ORIGIN}/2.svg`);
  const title = `Boats at dawn ${author.uid}`;
  await page.getByLabel('Title', { exact: true }).fill(title);
  const body = page.getByLabel('Description', { exact: true });
  await body.fill('The harbour before six.');
  await body.press('End');

  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Insert an image' }).click();
  const picture = sharp({ create: { width: 1800, height: 1200, channels: 3, background: { r: 30, g: 80, b: 140 } } });
  await (
    await chooser
  ).setFiles({ name: 'IMG_2041.jpg', mimeType: 'image/jpeg', buffer: await picture.jpeg().toBuffer() });
  const altField = page.getByLabel('Describe this image for people who cannot see it (alt text)');
  await expect(altField).toBeFocused();
  await altField.fill('Three fishing boats moored in a grey harbour');
  await page.getByLabel('Caption (optional: shown under the image)').fill('The harbour at six, from the pier');
  await altField.press('Enter');
  await expect(body).toHaveValue(
    /!\[Three fishing boats moored in a grey harbour\]\(http[^)]+\/1800x1200\.jpg "The harbour at six, from the pier"\)$/,
  );
  await expect(body).not.toHaveValue(/IMG_2041/);
  await page.getByRole('button', { name: 'Add Article' }).click();
  await expect(page).toHaveURL(/\/article\/[A-Za-z0-9]{20}$/);

  const inline = page.getByRole('main').getByRole('img', { name: 'Three fishing boats moored in a grey harbour' });
  const src = await inline.getAttribute('src');
  expect(src).toMatch(/\/images\/[A-Za-z0-9_-]{22}\/1800x1200\.jpg$/);
  const base = src!.replace(/\/[^/]+$/, '');
  await expect(inline).toHaveAttribute(
    'srcset',
    `${base}/480w 480w, ${base}/960w 960w, ${base}/1600w 1600w, ${base}/1800w 1800w`,
  );
  await expect(inline).toHaveAttribute('sizes', '(min-width: 45rem) 42rem, 100vw');
  await expect(inline).toHaveAttribute('width', '1800');
  await expect(inline).toHaveAttribute('height', '1200');
  // The caption is shown under the picture, as its figure's caption.
  await expect(page.getByRole('main').getByRole('figure', { name: 'The harbour at six, from the pier' })).toContainText(
    'The harbour at six, from the pier',
  );
  // The browser takes a resized copy, not the 1800 px original, for a column this wide.
  await expect.poll(() => inline.evaluate((image: HTMLImageElement) => image.currentSrc)).toMatch(/\/(960|1600)w$/);
});

test('the profile comes in headed groups, with a nav to each beside them on a wide screen', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const person = await apiSignUp(request, 'Greta Groups');
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInThroughApi(page, person, '/profile');
  const groups = ['About you', 'Signing in', 'Notifications', 'Danger zone'];
  for (const name of groups) {
    await expect(page.getByRole('region', { name, exact: true })).toBeVisible();
  }
  // The spec's controls are where they were, each in its group.
  const about = page.getByRole('region', { name: 'About you', exact: true });
  await expect(about.getByRole('button', { name: 'Update Profile' })).toBeVisible();
  await expect(about.getByRole('button', { name: 'Log Out' })).toBeVisible();
  await expect(about.getByRole('region', { name: 'Author profile' })).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Signing in', exact: true }).getByRole('region', { name: 'Sign-in methods' }),
  ).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Danger zone', exact: true }).getByRole('button', { name: 'Delete account' }),
  ).toBeVisible();
  await expect(page.getByRole('region', { name: 'Your articles' })).toBeVisible();

  const nav = page.getByRole('navigation', { name: 'Profile sections' });
  await expect(nav).toBeVisible();
  await expect(nav.getByRole('link')).toHaveText([
    ...groups.slice(0, 3),
    'Your drafts',
    'Your articles',
    'Danger zone',
  ]);
  await nav.getByRole('link', { name: 'Danger zone' }).click();
  await expect(page).toHaveURL(/#profile-danger$/);
  await expect(page.getByRole('heading', { name: 'Danger zone' })).toBeInViewport();
  // It stays in view while the page scrolls.
  await expect(nav).toBeInViewport();

  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1280, height: 800 },
    ]) {
      await page.setViewportSize(viewport);
      await page.evaluate(() => window.scrollTo(0, 0));
      // On a phone the groups follow one another; the nav would only push them down.
      await expect(nav).toBeVisible({ visible: viewport.width > 1000 });
      await screenshot(page, `test-results/screens/profile-groups-${colorScheme}-${viewport.width}.png`, {
        fullPage: true,
      });
    }
    expect(await axeViolations(page)).toEqual([]);
  }
});
