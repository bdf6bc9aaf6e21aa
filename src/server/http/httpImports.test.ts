import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The lint rule (eslint.config.js) is what keeps src/server/http/ free of features (issue 41,
// point 8); `npm run check` runs it. This shows it bites, and lets what http/ may import through.
const eslint = new ESLint({ cwd: path.join(import.meta.dirname, '../../..') });
const httpFile = path.join(import.meta.dirname, 'example.ts');

async function importErrors(source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: httpFile });
  return result!.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('src/server/http imports no feature', () => {
  it('refuses an import of a feature folder, or of any other server folder', async () => {
    for (const from of [
      '../identity/createIdentity.ts',
      '../images/imageId.ts',
      '../db/database.ts',
      '../../web/api/client.ts',
    ]) {
      const errors = await importErrors(`import { x } from '${from}';\nexport const used = x;\n`);
      expect(errors, from).toHaveLength(1);
      expect(errors[0]).toContain('src/server/http/ imports no feature');
    }
  });

  it('allows libraries, shared code and its own folder', async () => {
    const errors = await importErrors(
      "import Fastify from 'fastify';\nimport { can } from '../../shared/roles.ts';\nimport { sendProblem } from './problem.ts';\nexport const used = [Fastify, can, sendProblem];\n",
    );
    expect(errors).toEqual([]);
  });
});
