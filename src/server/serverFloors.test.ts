import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// src/server's folders stand on floors (eslint.config.js' serverFloors, issue 41): an import
// that runs back up is a lint error in `npm run check`. This shows the rule bites at every depth
// of a folder, and lets through what stands below, a folder's own files and the schema's imports.
const eslint = new ESLint({ cwd: path.join(import.meta.dirname, '../..') });

async function importErrors(file: string, from: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import { x } from '${from}';\nexport const used = x;\n`, {
    filePath: path.join(import.meta.dirname, file),
  });
  return result!.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe("src/server's floors", () => {
  it('refuses an import of a folder or file that stands above', async () => {
    for (const [file, from] of [
      ['articles/articleRules.ts', '../roles/invitations.ts'],
      ['articles/search/searchRoutes.ts', '../../publishing/markupText.ts'],
      ['identity/core/signIn/example.ts', '../../../services.ts'],
      ['config.ts', './identity/createIdentity.ts'],
      ['db/database.ts', '../articles/articlesTables.ts'],
    ]) {
      const errors = await importErrors(file!, from!);
      expect(errors, `${file} -> ${from}`).toHaveLength(1);
      expect(errors[0]).toContain('serverFloors');
    }
  });

  it('allows what stands below, its own folder, shared code and the schema composing the tables', async () => {
    for (const [file, from] of [
      ['articles/articleRules.ts', '../../shared/roles.ts'],
      ['articles/search/searchRoutes.ts', '../articleRows.ts'],
      ['articles/search/searchRoutes.ts', '../../db/schema.ts'],
      ['roles/rolesRoutes.ts', '../publishing/markupText.ts'],
      ['config.ts', './providersConfig.ts'],
      ['db/schema.ts', '../articles/articlesTables.ts'],
      ['services.ts', './moving/export/exportRoutes.ts'],
    ]) {
      expect(await importErrors(file!, from!), `${file} -> ${from}`).toEqual([]);
    }
  });
});
