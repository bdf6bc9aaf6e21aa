import { defineConfig, devices } from '@playwright/test';
import {
  dataDirVariable,
  mailboxUrlVariable,
  oidcIssuerVariable,
  serverUrlVariable,
} from './e2e/support/workerServers.ts';
import { findChromiumHere } from './test/support/findChromium.ts';

// Each worker has a server, data folder and SMTP sink of its own, started by the global setup
// (e2e/support/workerServers.ts). This file is read again in every worker, which finds its
// server by its parallel index; the runner itself (index unset) opens no page.
const slot = process.env.TEST_PARALLEL_INDEX ?? '0';
const baseURL = process.env[serverUrlVariable(slot)];
// The real SMTP sink that worker's server sends its emails to (e2e/support/mailbox.ts reads it).
const mailboxUrl = process.env[mailboxUrlVariable(slot)];
if (mailboxUrl) process.env.E2E_MAILBOX_URL = mailboxUrl;
// The OpenID provider that worker's server signs people in with (e2e/providers.spec.ts).
const oidcIssuer = process.env[oidcIssuerVariable(slot)];
if (oidcIssuer) process.env.E2E_OIDC_ISSUER = oidcIssuer;
// Its data folder, for specs that run the admin command against that server's database.
const dataDir = process.env[dataDirVariable(slot)];
if (dataDir) process.env.E2E_DATA_DIR = dataDir;
/**
 * A Chromium already on this machine, a headless shell first (test/support/findChromium.ts:
 * CHROME_PATH, Debian's packages, Playwright's own installed browsers, Chrome or Chromium on
 * macOS); without one, one line saying how to get one, before any server starts (decision 0780).
 */
const chromium = findChromiumHere();
if ('error' in chromium) {
  console.error(chromium.error);
  process.exit(1);
}
// A spec that starts an app of its own (startTestApp) opens it in a browser: the real web app.
process.env.INKWELL_TEST_WEB_DIST ??= 'built';

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/e2e',
  forbidOnly: true,
  retries: 0,
  // A journey test (sign up, verify, act, sign out, check) takes 10-12 s on a quiet machine and
  // 2-3 times that while Vitest shares the two cores (npm test); Playwright's 30 s default ended
  // a passing passkey journey on CI at 30 s.
  timeout: 60_000,
  // An expect waits up to 10 s for what it expects (Playwright's default is 5): a page that
  // answers in 1 s alone can take several while both suites share two cores. A passing check
  // returns as soon as it holds, so only a failure waits longer; speed is the benchmarks' to
  // judge (npm run bench, npm run lighthouse), not these tests'.
  expect: { timeout: 10_000 },
  // Spec files are spread over the workers; a file's tests run in order in one worker, against
  // that worker's server, so a test's articles are the newest there. Three workers on these
  // 2-core machines: a test spends part of its time waiting on a server (measured:
  // docs/decisions/0530); E2E_WORKERS overrides.
  workers: Number(process.env.E2E_WORKERS ?? 3),
  globalSetup: './e2e/support/workerServers.ts',
  reporter: process.env.CI ? 'list' : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL,
    // Recording a trace for every test cost 8 % of the suite's time; a failure keeps its
    // screenshot and page snapshot. `npx playwright test --trace retain-on-failure` to debug.
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        // A Chromium found on this machine; Playwright never downloads a browser here.
        launchOptions: {
          executablePath: chromium.path,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
            // The browser reaches this machine only: a page that asks for something on the
            // internet (the OpenID provider's login page asks for a web font) gets "name not
            // resolved" at once on every machine, without routing each request through the test
            // (decision 0898).
            '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
          ],
        },
      },
    },
  ],
});
