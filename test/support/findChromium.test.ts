import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findChromium, NO_CHROMIUM_MESSAGE, type ChromiumSearch } from './findChromium.ts';

// The finder against a made-up file system: a temporary folder stands for '/' and the home folder.
describe('finding a Chromium for the browser tests', () => {
  let root: string;
  let home: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-chromium-'));
    home = path.join(root, 'home', 'someone');
    fs.mkdirSync(home, { recursive: true });
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const executable = (...parts: string[]) => {
    const file = path.join(...parts);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '#!/bin/sh\n', { mode: 0o755 });
    return file;
  };
  const search = (overrides: Partial<ChromiumSearch> = {}): ChromiumSearch => ({
    env: {},
    platform: 'linux',
    homeDir: home,
    root,
    ...overrides,
  });

  it('says in one line how to get one when there is none', () => {
    const found = findChromium(search());
    expect(found).toEqual({ error: NO_CHROMIUM_MESSAGE });
    expect(NO_CHROMIUM_MESSAGE).not.toContain('\n');
    expect(NO_CHROMIUM_MESSAGE).toContain('apt-get install chromium-headless-shell');
    expect(NO_CHROMIUM_MESSAGE).toContain('npx playwright install chromium-headless-shell');
    expect(NO_CHROMIUM_MESSAGE).toContain('CHROME_PATH');
  });

  it('takes CHROME_PATH over everything, and refuses one that names no executable', () => {
    executable(root, 'usr', 'bin', 'chromium-headless-shell');
    const mine = executable(root, 'opt', 'my-chrome');
    expect(findChromium(search({ env: { CHROME_PATH: mine } }))).toEqual({ path: mine, source: 'CHROME_PATH' });

    const missing = path.join(root, 'nowhere', 'chrome');
    const refused = findChromium(search({ env: { CHROME_PATH: missing } }));
    expect(refused).toEqual({ error: expect.stringContaining(`CHROME_PATH is ${missing}, which is not`) });
    const notExecutable = path.join(root, 'opt', 'plain-file');
    fs.writeFileSync(notExecutable, '', { mode: 0o644 });
    expect(findChromium(search({ env: { CHROME_PATH: notExecutable } }))).toHaveProperty('error');
    expect(findChromium(search({ env: { CHROME_PATH: path.join(root, 'opt') } }))).toHaveProperty('error');
  });

  it("prefers Debian's headless shell, then Playwright's, then a full browser", () => {
    const debianFull = executable(root, 'usr', 'bin', 'chromium');
    expect(findChromium(search())).toEqual({ path: debianFull, source: 'the chromium package' });

    const cache = path.join(home, '.cache', 'ms-playwright');
    const playwrightShell = executable(
      cache,
      'chromium_headless_shell-1255',
      'chrome-headless-shell-linux64',
      'chrome-headless-shell',
    );
    expect(findChromium(search())).toEqual({ path: playwrightShell, source: "Playwright's headless shell" });

    const debianShell = executable(root, 'usr', 'bin', 'chromium-headless-shell');
    expect(findChromium(search())).toEqual({ path: debianShell, source: "Debian's chromium-headless-shell" });
  });

  it("finds Playwright's own browsers where it keeps them, the newest revision first", () => {
    const cache = path.join(home, '.cache', 'ms-playwright');
    executable(cache, 'chromium-1100', 'chrome-linux', 'chrome');
    const newest = executable(cache, 'chromium-1255', 'chrome-linux64', 'chrome');
    // Not a browser folder of Playwright's, whatever it holds.
    executable(cache, 'chromium-tip-of-tree-9999', 'chrome-linux64', 'chrome');
    expect(findChromium(search())).toEqual({ path: newest, source: "Playwright's Chromium" });

    // XDG_CACHE_HOME and PLAYWRIGHT_BROWSERS_PATH move the cache, as they move Playwright's.
    const xdg = path.join(root, 'xdg');
    const inXdg = executable(xdg, 'ms-playwright', 'chromium-1255', 'chrome-linux64', 'chrome');
    expect(findChromium(search({ env: { XDG_CACHE_HOME: xdg } }))).toMatchObject({ path: inXdg });
    const shared = path.join(root, 'shared-browsers');
    const inShared = executable(shared, 'chromium_headless_shell-1255', 'chrome-linux', 'headless_shell');
    expect(findChromium(search({ env: { PLAYWRIGHT_BROWSERS_PATH: shared } }))).toMatchObject({ path: inShared });
  });

  it('finds Chrome or Chromium installed on macOS', () => {
    const mac = (overrides: Partial<ChromiumSearch> = {}) => search({ platform: 'darwin', ...overrides });
    const chromium = executable(home, 'Applications', 'Chromium.app', 'Contents', 'MacOS', 'Chromium');
    expect(findChromium(mac())).toEqual({ path: chromium, source: 'Chromium' });
    const chrome = executable(root, 'Applications', 'Google Chrome.app', 'Contents', 'MacOS', 'Google Chrome');
    expect(findChromium(mac())).toEqual({ path: chrome, source: 'Google Chrome' });
    const cache = path.join(home, 'Library', 'Caches', 'ms-playwright');
    const shell = executable(
      cache,
      'chromium_headless_shell-1255',
      'chrome-headless-shell-mac-arm64',
      'chrome-headless-shell',
    );
    expect(findChromium(mac())).toEqual({ path: shell, source: "Playwright's headless shell" });
  });
});
