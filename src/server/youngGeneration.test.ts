import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess } from './testing/serverProcess.ts';
import { argumentsWithSemiSpaceFlag, hasSemiSpaceFlag, SEMI_SPACE_MB } from './youngGeneration.ts';

describe('the young-generation cap', () => {
  it('adds the flag once, keeping every other argument in order', () => {
    expect(argumentsWithSemiSpaceFlag('/bin/node', ['--cpu-prof'], ['/bin/node', 'main.ts', 'x'], undefined)).toEqual([
      '/bin/node',
      `--max-semi-space-size=${SEMI_SPACE_MB}`,
      '--cpu-prof',
      'main.ts',
      'x',
    ]);
  });

  it("keeps an operator's own size, on the command line or in NODE_OPTIONS", () => {
    expect(hasSemiSpaceFlag(['--max-semi-space-size=32'], undefined)).toBe(true);
    expect(hasSemiSpaceFlag([], '--enable-source-maps --max-semi-space-size=4')).toBe(true);
    expect(hasSemiSpaceFlag(['--max-old-space-size=512'], '--max-old-space-size=512')).toBe(false);
    expect(argumentsWithSemiSpaceFlag('/bin/node', [], ['/bin/node', 'main.ts'], '--max-semi-space-size=4')).toBe(
      undefined,
    );
  });

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-heap-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('is in effect in the running server, under the PID that was started', async () => {
    const server = await startServerProcess({ DATA_DIR: dataDir });
    try {
      const commandLine = fs.readFileSync(`/proc/${server.child.pid}/cmdline`, 'utf8').split('\0');
      expect(commandLine).toContain(`--max-semi-space-size=${SEMI_SPACE_MB}`);
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
