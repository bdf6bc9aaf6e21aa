import { describe, expect, it } from 'vitest';
import { createDeliveryTimingMask } from './deliveryTimingMask.ts';

describe('the delivery timing mask', () => {
  it('waits a default time before any real delivery, then like a recent real one', () => {
    let pick = 0;
    const mask = createDeliveryTimingMask(() => pick);
    expect(mask.imitate(0)).toEqual({ waitMs: 150, fail: false });
    mask.record({ durationMs: 40, failed: false }, 1000);
    mask.record({ durationMs: 900, failed: false }, 2000);
    expect(mask.imitate(3000).waitMs).toBe(40);
    pick = 0.99;
    expect(mask.imitate(3000).waitMs).toBe(900);
  });

  it('fails while the latest real delivery failed, for five minutes', () => {
    const mask = createDeliveryTimingMask(() => 0);
    mask.record({ durationMs: 10_000, failed: true }, 1000);
    expect(mask.imitate(2000)).toEqual({ waitMs: 10_000, fail: true });
    expect(mask.imitate(1000 + 5 * 60 * 1000).fail).toBe(false);
    mask.record({ durationMs: 20, failed: false }, 2000);
    expect(mask.imitate(3000).fail).toBe(false);
  });

  it('remembers only the last 20 durations', () => {
    const mask = createDeliveryTimingMask(() => 0);
    for (let i = 0; i < 25; i++) mask.record({ durationMs: i, failed: false }, i);
    expect(mask.imitate(100).waitMs).toBe(5);
  });
});
