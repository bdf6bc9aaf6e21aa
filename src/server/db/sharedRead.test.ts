import { describe, expect, it } from 'vitest';
import { sharedRead } from './sharedRead.ts';

describe('a read shared by the callers of its moment', () => {
  it('never answers a caller with a read that started before it asked, and shares the next one', async () => {
    let value = 0;
    let started = 0;
    const pending: Array<() => void> = [];
    const read = sharedRead(() => {
      started += 1;
      const seen = value; // what the database holds when this read starts
      return new Promise<number>((resolve) => pending.push(() => resolve(seen)));
    });

    const first = read();
    value = 1; // a write commits while the first read is under way
    const second = read();
    const third = read();
    expect(started).toBe(1);
    pending.shift()!();
    expect(await first).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toBe(2); // one more read, for both callers that came during the first
    pending.shift()!();
    expect(await second).toBe(1);
    expect(await third).toBe(1);
  });

  it('starts afresh after a failed read', async () => {
    let calls = 0;
    const read = sharedRead(async () => {
      calls += 1;
      if (calls === 1) throw new Error('connection lost');
      return 'ok';
    });
    await expect(read()).rejects.toThrow('connection lost');
    await expect(read()).resolves.toBe('ok');
  });
});
