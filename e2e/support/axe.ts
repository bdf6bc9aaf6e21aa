import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import type { AxeResults } from 'axe-core';

/**
 * axe-core run inside the page, injected once per document (decision 0892). @axe-core/playwright
 * injected it again on every check and finished each in a blank page of its own: a new renderer
 * process per check, 0.55-0.65 s each here, against 0.05-0.08 s for a second check of the same
 * document this way. Our screens have no frames, so the wrapper's frame-by-frame run bought
 * nothing. The rules are axe's defaults, as before.
 */
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  rule: string;
  help: string;
  /** Each failing element's selector and what to fix. */
  targets: string[];
}

/** Axe's violations on the page as it is, each with the elements it names. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const results = await page.evaluate(() =>
    (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }).axe.run(document, {
      resultTypes: ['violations'],
    }),
  );
  return results.violations.map((violation) => ({
    rule: violation.id,
    help: violation.help,
    targets: violation.nodes.map((node) => `${node.target.join(' ')} — ${node.failureSummary ?? ''}`),
  }));
}
