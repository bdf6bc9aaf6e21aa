import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;
// The real SMTP sink the app sends its emails to; tests read them over HTTP (e2e/support/mailbox.ts).
const smtpSinkPort = port + 1000;
const smtpSinkHttpPort = port + 1001;
// A real OpenID provider on loopback (test/support/oidcProviderServer.ts): "Continue with Test ID".
const oidcProviderPort = port + 1002;
const oidcIssuer = `http://127.0.0.1:${oidcProviderPort}`;
process.env.E2E_OIDC_ISSUER ??= oidcIssuer;
process.env.E2E_MAILBOX_URL ??= `http://127.0.0.1:${smtpSinkHttpPort}/messages`;
// Set once in the runner process; workers inherit it, so all agree on one data dir.
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-e2e-'));

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/e2e',
  forbidOnly: true,
  retries: 0,
  // One worker: every spec shares one server and one database, and several specs publish 20-30
  // articles to page through; run beside a test that looks for its own card on the home list's
  // first page, they pushed it off (seen in CI). Serially, each test's articles are the newest.
  workers: 1,
  reporter: process.env.CI ? 'list' : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        // The system Chromium; Playwright never downloads a browser here.
        launchOptions: {
          executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
          ],
        },
      },
    },
  ],
  webServer: [
    {
      command: `node test/support/smtpSinkServer.ts --port ${smtpSinkPort} --http-port ${smtpSinkHttpPort}`,
      url: process.env.E2E_MAILBOX_URL,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: `node test/support/oidcProviderServer.ts --port ${oidcProviderPort} --redirect-uri ${baseURL}/identity/oauth/oidc.test/callback`,
      url: `${oidcIssuer}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      // What production runs: npm start builds what is stale (prestart), then serves the bundle.
      command: 'npm start',
      url: `${baseURL}/readyz`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: baseURL,
        DATA_DIR: process.env.E2E_DATA_DIR,
        SMTP_URL: `smtp://127.0.0.1:${smtpSinkPort}`,
        LOG_LEVEL: 'warn',
        // Short, so the reauthentication test need not wait out the real 5 minutes.
        RECENT_SIGN_IN_SECONDS: '30',
        OIDC_TEST_ISSUER: oidcIssuer,
        OIDC_TEST_CLIENT_ID: 'inkwell-test-client',
        OIDC_TEST_CLIENT_SECRET: 'inkwell-test-client-secret-0123456789',
        OIDC_TEST_NAME: 'Test ID',
      },
    },
  ],
});
