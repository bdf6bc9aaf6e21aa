import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The README's layout section and docs/architecture.md are how a newcomer finds their way:
// a folder added or renamed without them is a folder nobody can find.
const root = path.join(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
const foldersOf = (dir: string) =>
  fs
    .readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

function readmeLayout(): string {
  const readme = read('README.md');
  const section = readme.slice(readme.indexOf('## Layout'));
  return /```\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
}

describe('the documented layout', () => {
  it("names every folder of the repository and of its code in the README's layout", () => {
    const layout = readmeLayout();
    expect(layout).not.toBe('');
    const ignored = new Set(['node_modules', 'dist', 'data', 'test-results', 'playwright-report']);
    const topLevel = foldersOf('.').filter((name) => !name.startsWith('.') && !ignored.has(name));
    for (const name of topLevel) expect(layout, name).toMatch(new RegExp(`(^|\\s)${name}/`, 'm'));
    for (const dir of ['src/server', 'src/web', 'test', 'e2e']) {
      for (const name of foldersOf(dir)) expect(layout, `${dir}/${name}`).toContain(`${name}/`);
    }
  });

  it('gives every server feature folder a row in docs/architecture.md', () => {
    const architecture = read('docs/architecture.md');
    for (const name of foldersOf('src/server')) {
      expect(architecture, name).toContain(`src/server/${name}/`);
    }
  });
});
