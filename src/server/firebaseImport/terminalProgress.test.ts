import { describe, expect, it } from 'vitest';
import { terminalProgress } from './terminalProgress.ts';

describe('the Firebase import progress line', () => {
  it('is drawn in place on a terminal, at most every 200 ms, and ends its line when done', () => {
    let written = '';
    const start = terminalProgress({ isTTY: true, write: (text) => (written += text) });
    const progress = start!('Users');
    progress(1_000, 41_000);
    progress(2_000, 41_000); // within 200 ms of the last: not drawn
    progress(41_000, 41_000); // the end is always drawn
    expect(written).toBe('\rUsers: 1,000 / 41,000\rUsers: 41,000 / 41,000\n');
  });

  it('prints nothing when the output is a pipe or a file', () => {
    expect(terminalProgress({ write: () => expect.unreachable('written to a pipe') })).toBeUndefined();
  });
});
