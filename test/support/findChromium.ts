import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Where the browser tests find a Chromium without downloading one (decision 0780): CHROME_PATH,
 * then the headless shells (Debian's package, then the ones `npx playwright install` left in
 * its cache), then full browsers (Debian's or other Linux packages, Playwright's, Chrome or
 * Chromium installed on macOS). A headless shell first: it halved the browser's CPU time per
 * test here (decision 0530).
 */

export interface ChromiumSearch {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  homeDir: string;
  /** Where the system's absolute locations (/usr/bin, /Applications) are looked up; '/' but in tests. */
  root: string;
}

export type ChromiumFound = { path: string; source: string };

/** What `npm test` prints, on one line, when there is none. */
export const NO_CHROMIUM_MESSAGE =
  'No Chromium for the browser tests: install one (Debian or Ubuntu: `sudo apt-get install chromium-headless-shell`; ' +
  'macOS: Google Chrome, or `brew install --cask chromium`; anywhere: `npx playwright install chromium-headless-shell`), ' +
  'or set CHROME_PATH to a Chrome or Chromium executable.';

function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Playwright's browser cache, where its own code puts it (PLAYWRIGHT_BROWSERS_PATH overrides). */
function playwrightCache(search: ChromiumSearch): string {
  const { env, platform, homeDir } = search;
  const configured = env.PLAYWRIGHT_BROWSERS_PATH;
  if (configured && configured !== '0') return configured;
  if (platform === 'darwin') return path.join(homeDir, 'Library', 'Caches', 'ms-playwright');
  if (platform === 'win32')
    return path.join(env.LOCALAPPDATA ?? path.join(homeDir, 'AppData', 'Local'), 'ms-playwright');
  return path.join(env.XDG_CACHE_HOME ?? path.join(homeDir, '.cache'), 'ms-playwright');
}

/**
 * The executables under Playwright's folders named `prefix-REVISION`, newest revision first.
 * Each entry of `inside` is a path within such a folder: current Playwright's and older layouts.
 */
function playwrightExecutables(search: ChromiumSearch, prefix: string, inside: string[][]): string[] {
  const cache = playwrightCache(search);
  let names: string[];
  try {
    names = fs.readdirSync(cache);
  } catch {
    return [];
  }
  const revision = (name: string) => Number(name.slice(prefix.length + 1));
  return names
    .filter((name) => name.startsWith(`${prefix}-`) && Number.isInteger(revision(name)))
    .sort((a, b) => revision(b) - revision(a))
    .flatMap((name) => inside.map((parts) => path.join(cache, name, ...parts)));
}

function candidates(search: ChromiumSearch): ChromiumFound[] {
  const system = (...parts: string[]) => path.join(search.root, ...parts);
  const macApps = (app: string, binary: string) => [
    system('Applications', `${app}.app`, 'Contents', 'MacOS', binary),
    path.join(search.homeDir, 'Applications', `${app}.app`, 'Contents', 'MacOS', binary),
  ];
  const named = (source: string, paths: string[]) => paths.map((file) => ({ path: file, source }));
  return [
    ...named("Debian's chromium-headless-shell", [system('usr', 'bin', 'chromium-headless-shell')]),
    ...named(
      "Playwright's headless shell",
      playwrightExecutables(search, 'chromium_headless_shell', [
        ['chrome-headless-shell-linux64', 'chrome-headless-shell'],
        ['chrome-headless-shell-linux-arm64', 'chrome-headless-shell'],
        ['chrome-headless-shell-mac-arm64', 'chrome-headless-shell'],
        ['chrome-headless-shell-mac-x64', 'chrome-headless-shell'],
        ['chrome-linux', 'headless_shell'],
        ['chrome-mac', 'headless_shell'],
      ]),
    ),
    ...named('the chromium package', [
      system('usr', 'bin', 'chromium'),
      system('usr', 'bin', 'chromium-browser'),
      system('snap', 'bin', 'chromium'),
    ]),
    ...named(
      "Playwright's Chromium",
      playwrightExecutables(search, 'chromium', [
        ['chrome-linux64', 'chrome'],
        ['chrome-linux-arm64', 'chrome'],
        ['chrome-mac-arm64', 'Google Chrome for Testing.app', 'Contents', 'MacOS', 'Google Chrome for Testing'],
        ['chrome-mac-x64', 'Google Chrome for Testing.app', 'Contents', 'MacOS', 'Google Chrome for Testing'],
        ['chrome-linux', 'chrome'],
        ['chrome-mac', 'Chromium.app', 'Contents', 'MacOS', 'Chromium'],
      ]),
    ),
    ...named('Google Chrome', [
      ...macApps('Google Chrome', 'Google Chrome'),
      system('usr', 'bin', 'google-chrome-stable'),
      system('usr', 'bin', 'google-chrome'),
    ]),
    ...named('Chromium', macApps('Chromium', 'Chromium')),
  ];
}

/**
 * The Chromium the browser tests run, or why there is none (one line). A CHROME_PATH that
 * names no executable is an error rather than a reason to look elsewhere: it was meant.
 */
export function findChromium(search: ChromiumSearch): ChromiumFound | { error: string } {
  const chosen = search.env.CHROME_PATH;
  if (chosen) {
    return isExecutableFile(chosen)
      ? { path: chosen, source: 'CHROME_PATH' }
      : { error: `CHROME_PATH is ${chosen}, which is not an executable file. ${NO_CHROMIUM_MESSAGE}` };
  }
  return candidates(search).find((candidate) => isExecutableFile(candidate.path)) ?? { error: NO_CHROMIUM_MESSAGE };
}

/** findChromium on this machine. */
export function findChromiumHere(): ChromiumFound | { error: string } {
  return findChromium({ env: process.env, platform: process.platform, homeDir: os.homedir(), root: '/' });
}
