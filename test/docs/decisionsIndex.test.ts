import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/decisions/README.md is where a newcomer looks up why something is as it is: a record
// missing from it, or listed under another file name, is a reason nobody finds (decision 0801).
const dir = path.join(import.meta.dirname, '../../docs/decisions');
const records = fs
  .readdirSync(dir)
  .filter((name) => /^\d{4}-.+\.md$/.test(name))
  .sort();

describe('the decision records', () => {
  it('are each listed in the index by their file name, and the index lists no record that is gone', () => {
    const index = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
    const listed = [...index.matchAll(/^\| \[(\d{4})\]\(([^)]+)\)/gm)].map((match) => match[2]!);
    expect(listed.sort()).toEqual(records);
  });

  it('each end with their date and status, in the one format', () => {
    for (const name of records) {
      const text = fs.readFileSync(path.join(dir, name), 'utf8').trimEnd();
      expect(text.split('\n')[0], name).toMatch(/^# \S/);
      expect(text, name).toMatch(/\*\*What\.\*\*/);
      expect(text.split('\n').at(-1), name).toMatch(/^Date: \d{4}-\d{2}-\d{2}\b.*Status: \S/);
    }
  });
});
