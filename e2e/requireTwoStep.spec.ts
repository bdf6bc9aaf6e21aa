import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { freePort, startServerProcess, type ServerProcess } from '../test/support/serverProcess.ts';
import { signIn } from './support/accounts.ts';
import { lookAt, screenshot } from './support/looks.ts';
import { giveRole } from './support/operator.ts';

const SCREENS_DIR = path.join('test-results', 'screens', 'require-two-step');
const REFUSAL = 'Turn on two-step verification on your profile first: this site requires it for editors and owners.';

// REQUIRE_TWO_STEP=editors (docs/product.md, Roles), on a server of its own.
test.describe('a site that requires two-step verification of editors and owners', () => {
  let server: ServerProcess;
  let dataDir: string;
  test.beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-e2e-require-two-step-'));
    const port = await freePort();
    server = await startServerProcess(
      { DATA_DIR: dataDir, REQUIRE_TWO_STEP: 'editors', LOG_LEVEL: 'warn', PUBLIC_URL: `http://127.0.0.1:${port}` },
      port,
    );
  });
  test.afterAll(async () => {
    await server?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('the admin page and the editor say why an owner without it is refused, and the admin page links the profile', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const email = `owner-${Date.now().toString(36)}@example.com`;
    const password = 'correct horse battery staple';
    const signedUp = await request.post(`${server.url}/identity/v1/accounts:signUp?key=e2e`, {
      data: { email, password, displayName: 'Olga Owner', returnSecureToken: true },
    });
    expect(signedUp.status()).toBe(200);
    await giveRole(email, 'owner', dataDir);

    await signIn(page, { email, password }, server.url);
    await page.goto(`${server.url}/admin`);
    await expect(page.getByRole('heading', { level: 1, name: 'Site administration' })).toBeVisible();
    await expect(page.getByText(REFUSAL).first()).toBeVisible();
    await lookAt(page, 'admin', { dir: SCREENS_DIR, fullPage: true, axe: false });
    await page.getByRole('link', { name: 'Turn on two-step verification' }).first().click();
    await expect(page).toHaveURL(`${server.url}/profile`);

    await page.goto(`${server.url}/article-update`);
    await page.getByLabel('Image URL').fill('http://127.0.0.1:9/picture.png');
    await page.getByLabel('Title', { exact: true }).fill('Held back');
    await page.getByLabel('Description', { exact: true }).fill('Not until two-step is on.');
    await page.getByRole('button', { name: 'Add Article' }).click();
    await expect(page.getByText(REFUSAL)).toBeVisible();
    await screenshot(page, `${SCREENS_DIR}/editor-light-1280.png`, { fullPage: true });
  });
});
