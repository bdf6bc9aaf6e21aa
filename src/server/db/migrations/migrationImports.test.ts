import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The lint rule (eslint.config.js) is what keeps migrations frozen; this shows it bites.
const eslint = new ESLint({ cwd: path.join(import.meta.dirname, '../../../..') });
const migrationFile = path.join(import.meta.dirname, '9999_example.ts');

async function importErrors(source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: migrationFile });
  return result!.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('migrations import no application code', () => {
  it('refuses an import from outside the migrations folder', async () => {
    const errors = await importErrors(
      "import { renderMarkdown } from '../../../shared/markdown/renderMarkdown.ts';\nexport const used = renderMarkdown;\n",
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('A migration never imports application code');
  });

  it('allows libraries and frozen copies beside the migrations', async () => {
    const errors = await importErrors(
      "import { sql } from 'kysely';\nimport { renderMarkdown0006 } from './frozen/0006_renderMarkdown.ts';\nexport const used = [sql, renderMarkdown0006];\n",
    );
    expect(errors).toEqual([]);
  });
});
