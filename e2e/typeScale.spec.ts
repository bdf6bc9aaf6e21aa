import { expect, test } from '@playwright/test';
import { apiPublish, apiSignUp } from './support/api.ts';
import { PICTURE_ORIGIN } from './support/pictures.ts';

// Issue 26 §5: every heading level reads above the body, code is readable, card titles are whole.

test('every heading level is larger than the body text, and code is readable', async ({ page, request }) => {
  const author = await apiSignUp(request, 'Type Setter');
  const article = await apiPublish(request, author, {
    image: `${PICTURE_ORIGIN}/3.svg`,
    title: `Type scale ${author.uid}`,
    description:
      '# One\n\nBody text.\n\n## Two\n\n### Three\n\n#### Four\n\n##### Five\n\nSome `inline code` here.\n\n```\nconst block = true;\n```',
  });
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(viewport);
    await page.goto(`/article/${article.id}`);
    const size = (selector: string) =>
      page
        .locator(`article ${selector}`)
        .first()
        .evaluate((element) => parseFloat(getComputedStyle(element).fontSize));
    const body = await size('p');
    const headings = [];
    for (const level of ['h2', 'h3', 'h4', 'h5', 'h6']) headings.push(await size(level));
    // Each level above the body, each smaller than the one above it.
    for (const [index, heading] of headings.entries()) {
      expect(heading, `h${index + 2} at ${viewport.width}px`).toBeGreaterThan(body);
      if (index > 0) expect(heading).toBeLessThan(headings[index - 1]!);
    }
    expect(await size('p code')).toBeGreaterThanOrEqual(15);
    expect(await size('pre code')).toBeGreaterThanOrEqual(15);
  }
});

test('card titles are shown whole, however long', async ({ page, request }) => {
  const author = await apiSignUp(request, 'Long Titles');
  const title = `A title long enough to need three or four lines on a card in the grid of the home page ${author.uid}`;
  await apiPublish(request, author, { image: `${PICTURE_ORIGIN}/4.svg`, title, description: 'Short.' });
  await apiPublish(request, author, {
    image: `${PICTURE_ORIGIN}/5.svg`,
    title: `Newer ${author.uid}`,
    description: 'x',
  });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  const heading = page.getByRole('heading', { name: title });
  await expect(heading).toBeVisible();
  const clipped = await heading.evaluate((element) => element.scrollHeight > element.clientHeight + 1);
  expect(clipped).toBe(false);
  expect(await heading.evaluate((element) => element.getBoundingClientRect().height)).toBeGreaterThan(60);
});
