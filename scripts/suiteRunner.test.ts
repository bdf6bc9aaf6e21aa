import { describe, expect, it } from 'vitest';
import { runSuites } from './suiteRunner.ts';

// npm test's runner: CI trusts its exit code, and a person reads its interleaved output.
const node = (script: string) => ({ command: process.execPath, args: ['-e', script] });

describe('runSuites', () => {
  it('reports each suite’s exit code, so one failing suite fails the run', async () => {
    const results = await runSuites(
      [
        { label: 'good', ...node('process.exit(0)') },
        { label: 'bad', ...node('process.exit(3)') },
        { label: 'gone', command: '/no/such/program', args: [] },
      ],
      { cwd: process.cwd(), write: () => {} },
    );
    expect(results.map(({ label, code }) => ({ label, code }))).toEqual([
      { label: 'good', code: 0 },
      { label: 'bad', code: 3 },
      { label: 'gone', code: 1 },
    ]);
  });

  it('writes every line whole after its suite’s label, the unfinished last one too, from both streams', async () => {
    let output = '';
    await runSuites(
      [
        {
          label: 'a',
          ...node(
            "process.stdout.write('one\\ntw'); setTimeout(() => { process.stdout.write('o\\n“three”'); console.error('err'); }, 50)",
          ),
        },
        { label: 'b', ...node("console.log('other')") },
      ],
      { cwd: process.cwd(), write: (text) => (output += text) },
    );
    expect(output.split('\n').filter(Boolean).sort()).toEqual([
      'a │ err',
      'a │ one',
      'a │ two',
      'a │ “three”',
      'b │ other',
    ]);
  });
});
