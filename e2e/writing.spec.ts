import { expect, test, type APIRequestContext } from '@playwright/test';
import sharp from 'sharp';
import { signInThroughApi } from './support/accounts.ts';

// Writing: the Markdown editor, its preview and image uploads, against the real server.
// Each test makes its own author; pictures are made here with sharp.

interface Person {
  email: string;
  password: string;
  idToken: string;
}

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const UNREACHABLE_IMAGE = 'http://127.0.0.1:9/picture.png';
const UPLOADED_URL = /^http:\/\/127\.0\.0\.1:\d+\/images\/[A-Za-z0-9_-]{22}\/(\d+)x(\d+)\.jpg$/;

async function signUp(request: APIRequestContext): Promise<Person> {
  const email = `writing-${unique()}@example.com`;
  const password = 'correct horse battery';
  const response = await request.post('/identity/v1/accounts:signUp?key=e2e', {
    data: { email, password, displayName: 'Wren Writer', returnSecureToken: true },
  });
  expect(response.status(), await response.text()).toBe(200);
  return { email, password, idToken: ((await response.json()) as { idToken: string }).idToken };
}

const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 190 } } })
    .jpeg()
    .toBuffer();

test('formatting written in the editor shows on the article page, code scrolling inside it on a phone', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInThroughApi(page, await signUp(request), '/article-update');
  await expect(page.getByRole('heading', { name: 'Add an Article' })).toBeVisible();
  const title = `Formatted ${unique()}`;
  await page.getByLabel('Image URL').fill(UNREACHABLE_IMAGE);
  await page.getByLabel('Title', { exact: true }).fill(title);
  await page
    .getByLabel('Description', { exact: true })
    .fill(
      [
        '# Part one',
        'Some **bold** and _italic_ text with a [link](https://example.com/page).',
        '- first\n- second',
        '> a quote',
        '```\nconst aVeryLongLineOfCode = "that would not fit on any phone screen at all, not even sideways, really";\n```',
      ].join('\n\n'),
    );
  await page.getByRole('button', { name: 'Add Article' }).click();
  await expect(page).toHaveURL(/\/article\/[A-Za-z0-9]{20}$/);

  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.locator('h1')).toHaveCount(1);
  await expect(main.getByRole('heading', { level: 2, name: 'Part one' })).toBeVisible();
  await expect(main.locator('strong', { hasText: 'bold' })).toBeVisible();
  await expect(main.locator('em', { hasText: 'italic' })).toBeVisible();
  const link = main.getByRole('link', { name: 'link' });
  await expect(link).toHaveAttribute('href', 'https://example.com/page');
  await expect(link).toHaveAttribute('rel', 'nofollow ugc noopener');
  // The body's list (the More articles list below the article has items of its own).
  await expect(main.locator('article').first().getByRole('listitem')).toHaveText(['first', 'second']);
  await expect(main.locator('blockquote')).toHaveText('a quote');

  const code = main.locator('pre');
  await expect(code).toBeVisible();
  const fits = await code.evaluate((pre) => ({
    scrolls: pre.scrollWidth > pre.clientWidth,
    overflowX: getComputedStyle(pre).overflowX,
    pageWidth: document.documentElement.scrollWidth,
  }));
  expect(fits).toEqual({ scrolls: true, overflowX: 'auto', pageWidth: 390 });
});

test('hostile Markdown runs nothing and loads nothing', async ({ page, request }) => {
  const author = await signUp(request);
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const requested: string[] = [];
  page.on('request', (req) => requested.push(req.url()));
  const description = [
    '<script>alert("script")</script>',
    '<img src=x onerror=alert("img")>',
    '[click me](javascript:alert("link"))',
    '![pixel](data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIG9ubG9hZD0iYWxlcnQoMSkiLz4=)',
    '<a href="https://evil.example" onmouseover="alert(\'a\')">hover</a>',
  ].join('\n\n');
  const created = await request.post('/api/articles', {
    headers: { authorization: `Bearer ${author.idToken}` },
    data: { image: UNREACHABLE_IMAGE, title: `Hostile ${unique()}`, description },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  await page.goto(`/article/${id}`);
  const main = page.getByRole('main');
  await expect(main.getByText('<script>alert("script")</script>')).toBeVisible();
  await expect(main.getByText('[click me](javascript:alert("link"))')).toBeVisible();
  await expect(main.locator('script, iframe, object, embed, [onerror], [onmouseover], [onload]')).toHaveCount(0);
  await expect(main.locator('a[href^="javascript:"], img[src^="data:"], img[src="x"]')).toHaveCount(0);
  await main.getByText('hover').hover();
  await main.getByText('[click me]', { exact: false }).click();
  expect(dialogs).toEqual([]);
  expect(requested.filter((url) => url.startsWith('data:') || url.includes('evil.example'))).toEqual([]);
});

test('an upload through the editor fills the Image URL, previews the cover, and the pages use its sizes', async ({
  page,
  request,
}) => {
  await signInThroughApi(page, await signUp(request), '/article-update');

  // An address that does not load says so.
  await page.getByLabel('Image URL').fill(UNREACHABLE_IMAGE);
  await expect(page.getByText('The image at this address could not be loaded.', { exact: false })).toBeVisible();

  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload' }).click();
  await (await chooser).setFiles({ name: 'cover.jpg', mimeType: 'image/jpeg', buffer: await photo(1800, 1000) });
  await expect(page.getByLabel('Image URL')).toHaveValue(UPLOADED_URL);
  const url = await page.getByLabel('Image URL').inputValue();
  expect(url).toMatch(/\/1800x1000\.jpg$/);
  await expect(page.getByText('could not be loaded', { exact: false })).toHaveCount(0);
  const preview = page.getByRole('img', { name: 'Cover preview' });
  await expect(preview).toHaveAttribute('src', url);
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1800);

  const title = `Uploaded cover ${unique()}`;
  await page.getByLabel('Title', { exact: true }).fill(title);
  await page.getByLabel('Description', { exact: true }).fill('A picture above.');
  await page.getByRole('button', { name: 'Add Article' }).click();
  await expect(page).toHaveURL(/\/article\/[A-Za-z0-9]{20}$/);

  const base = url.replace(/\/[^/]+$/, '');
  const srcset = `${base}/480w 480w, ${base}/960w 960w, ${base}/1600w 1600w, ${base}/1800w 1800w`;
  const cover = page.getByRole('main').locator(`img[src="${url}"]`);
  await expect(cover).toHaveAttribute('srcset', srcset);
  await expect(cover).toHaveAttribute('width', '1800');
  await expect(cover).toHaveAttribute('height', '1000');
  await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  await page.goto('/');
  const card = page.getByRole('article', { name: title, exact: true });
  await expect(card.locator('img')).toHaveAttribute('srcset', srcset);
  // A card in the grid (310px), or the featured newest card (560px) on a laptop.
  await expect(card.locator('img')).toHaveAttribute('sizes', /\b(310|560)px\b/);
});

test('pasting an image into the body uploads it and inserts its Markdown', async ({ page, request }) => {
  await signInThroughApi(page, await signUp(request), '/article-update');
  const body = page.getByLabel('Description', { exact: true });
  await body.fill('Before the picture.');
  const bytes = [...(await photo(640, 480))];
  await body.evaluate((textarea: HTMLTextAreaElement, data: number[]) => {
    textarea.focus();
    textarea.setSelectionRange(textarea.value.length, textarea.value.length);
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(data)], 'holiday snap.jpg', { type: 'image/jpeg' }));
    textarea.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
  }, bytes);
  // Inserted without alt text; the editor asks for it rather than using the file name (issue 26).
  await expect(body).toHaveValue(
    /^Before the picture\.\n\n!\[\]\(http:\/\/127\.0\.0\.1:\d+\/images\/[A-Za-z0-9_-]{22}\/640x480\.jpg\)$/,
  );
  await page.getByLabel('Describe this image for people who cannot see it (alt text)').fill('holiday snap');
  await page.getByRole('button', { name: 'Add description' }).click();
  await expect(body).toHaveValue(
    /^Before the picture\.\n\n!\[holiday snap\]\(http:\/\/127\.0\.0\.1:\d+\/images\/[A-Za-z0-9_-]{22}\/640x480\.jpg\)$/,
  );
  // The preview beside it (a wide screen) shows the picture.
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview.getByRole('img', { name: 'holiday snap' })).toBeVisible();
});

test('the preview tab renders on a phone, and the toolbar and shortcuts format the selection', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInThroughApi(page, await signUp(request), '/article-update');
  const body = page.getByLabel('Description', { exact: true });
  await body.fill('make this strong and this a link');
  await body.evaluate((textarea: HTMLTextAreaElement) => textarea.setSelectionRange(10, 21));
  await body.press('ControlOrMeta+b');
  await expect(body).toHaveValue('make this **strong and** this a link');
  await body.evaluate((textarea: HTMLTextAreaElement) => textarea.setSelectionRange(0, 4));
  await page.getByRole('button', { name: 'Italic' }).click();
  await expect(body).toHaveValue('_make_ this **strong and** this a link');
  // Undo takes a toolbar edit back like typing.
  await body.press('ControlOrMeta+z');
  await expect(body).toHaveValue('make this **strong and** this a link');

  await expect(page.getByRole('region', { name: 'Preview' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Preview' }).click();
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview.locator('strong')).toHaveText('strong and');
  await expect(body).toBeHidden();
  await page.getByRole('button', { name: 'Write' }).click();
  await expect(body).toBeVisible();
});

test('a long title shows every line, also after the window narrows to a phone', async ({ page, request }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInThroughApi(page, await signUp(request), '/article-update');
  const title = page.getByLabel('Title', { exact: true });
  await title.fill('Compilers, explained slowly: what happens between the text you type and the program that runs');
  const cutOff = () => title.evaluate((field: HTMLTextAreaElement) => field.scrollHeight - field.clientHeight);
  await expect.poll(cutOff).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 390, height: 844 });
  // Three lines or more on a phone, and none of them hidden.
  await expect.poll(() => title.evaluate((field: HTMLTextAreaElement) => field.clientHeight)).toBeGreaterThan(80);
  await expect.poll(cutOff).toBeLessThanOrEqual(0);
});

test('a restored draft says so and can be discarded; Cancel asks before it drops one (issue 26.8)', async ({
  page,
  request,
}) => {
  const author = await signUp(request);
  const created = await request.post('/api/articles', {
    headers: { authorization: `Bearer ${author.idToken}` },
    data: { image: UNREACHABLE_IMAGE, title: `Saved title ${unique()}`, description: 'Saved text' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const article = (await created.json()) as { id: string; title: string };
  await signInThroughApi(page, author);
  const editor = `/article-update/${article.id}`;
  const title = page.getByLabel('Title', { exact: true });
  const notice = page.getByTestId('restored-draft');
  const leaveDialog = page.getByRole('dialog', { name: 'Leave without saving?' });
  const cancel = page.getByRole('link', { name: 'Cancel' });

  await page.goto(editor);
  await expect(title).toHaveValue(article.title);
  // A form opened on the saved article says nothing about drafts.
  await expect(notice).toHaveCount(0);
  const typed = `Typed ${unique()}`;
  await title.fill(typed);
  await expect(notice).toHaveCount(0);
  await cancel.click();
  await leaveDialog.getByRole('button', { name: 'Leave, keep draft' }).click();
  await expect(page).toHaveURL('/');

  // Back in the editor (a fresh page load in the same tab): the draft, and a notice that it is one.
  await page.goto(editor);
  await expect(title).toHaveValue(typed);
  await expect(notice).toHaveText(/Your unsaved changes from earlier in this tab are back\./);

  // Cancel asks before it drops the restored draft; Keep editing keeps it all.
  await cancel.click();
  await expect(leaveDialog).toBeVisible();
  await leaveDialog.getByRole('button', { name: 'Keep editing' }).click();
  await expect(page).toHaveURL(editor);
  await expect(title).toHaveValue(typed);
  // Leaving by Cancel and keeping the draft keeps it for the next visit.
  await cancel.click();
  await leaveDialog.getByRole('button', { name: 'Leave, keep draft' }).click();
  await expect(page).toHaveURL('/');
  await page.goto(editor);
  await expect(title).toHaveValue(typed);

  // Discard draft puts the saved article back, and the draft is gone for good (a reload shows the article).
  await notice.getByRole('button', { name: 'Discard draft' }).click();
  await expect(title).toHaveValue(article.title);
  await expect(notice).toHaveCount(0);
  await page.reload();
  await expect(title).toHaveValue(article.title);
  await expect(notice).toHaveCount(0);
  // With nothing to lose, Cancel just leaves.
  await cancel.click();
  await expect(page).toHaveURL('/');
  await expect(leaveDialog).toHaveCount(0);
});

test('a new article’s restored draft: Discard empties the form, Cancel with nothing typed asks nothing', async ({
  page,
  request,
}) => {
  await signInThroughApi(page, await signUp(request));
  const title = page.getByLabel('Title', { exact: true });
  const description = page.getByLabel('Description', { exact: true });
  await page.goto('/article-update');
  await title.fill('Half a thought');
  await description.fill('The rest comes later');
  // Reloading keeps the typing (the browser asks first, in its own words).
  page.once('dialog', (dialog) => void dialog.accept());
  await page.reload();
  await expect(title).toHaveValue('Half a thought');
  await expect(description).toHaveValue('The rest comes later');
  const notice = page.getByTestId('restored-draft');
  await expect(notice).toBeVisible();
  await notice.getByRole('button', { name: 'Discard draft' }).click();
  await expect(title).toHaveValue('');
  await expect(description).toHaveValue('');
  await page.getByRole('link', { name: 'Cancel' }).click();
  await expect(page).toHaveURL('/');
});
