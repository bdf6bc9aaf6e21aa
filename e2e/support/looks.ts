import fs from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { axeViolations } from './axe.ts';

/**
 * How the feature specs check what a person sees: axe in both colour schemes on every run, and
 * screenshots at a phone and a laptop size in each scheme when asked for (`npm run screenshots`,
 * which sets SCREENSHOTS=1). e2e/accessibility.spec.ts writes a picture of every screen on
 * every run; the pictures here are of states inside a story (a dialog, a tab, a mail), wanted by
 * whoever changed that screen, and writing them cost about a tenth of the browser suite's time
 * (decision 0880).
 */
export const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

type Viewport = { width: number; height: number };

export const screenshotsWanted = process.env.SCREENSHOTS === '1';

/** Writes a screenshot of `target` to `file` when screenshots are wanted; otherwise nothing. */
export async function screenshot(
  target: Page | Locator,
  file: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  if (!screenshotsWanted) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await target.screenshot({ path: file, ...('goto' in target ? { fullPage: options.fullPage ?? false } : {}) });
}

export interface LookOptions {
  /** The folder the screenshots go to: `DIR/LABEL-SCHEME-WIDTH.png`. */
  dir: string;
  fullPage?: boolean;
  /** The sizes pictured (default: 390×844 and 1280×800). */
  viewports?: readonly Viewport[];
  /** Axe in each scheme (default true), at the last size pictured. */
  axe?: boolean;
  /** Run after each resize, before the picture and before axe (e.g. scrolling lazy parts into view). */
  settle?: (page: Page) => Promise<unknown>;
}

/**
 * Light and dark: pictures at each size (when wanted) and axe at the last of them, then back to
 * light at that size. The same checks run whether or not pictures are written.
 */
export async function lookAt(page: Page, label: string, options: LookOptions): Promise<void> {
  const viewports = options.viewports ?? VIEWPORTS;
  const last = viewports.at(-1)!;
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    if (screenshotsWanted) {
      for (const viewport of viewports) {
        await page.setViewportSize(viewport);
        await options.settle?.(page);
        await screenshot(page, path.join(options.dir, `${label}-${colorScheme}-${viewport.width}.png`), options);
      }
    }
    if (options.axe === false) continue;
    await page.setViewportSize(last);
    await options.settle?.(page);
    expect(await axeViolations(page), `${label} (${colorScheme}): axe violations`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(last);
}
