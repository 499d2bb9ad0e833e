import { describe, expect, it } from 'vitest';
import { MemoryRateLimitStore } from './rate-limit';

describe('MemoryRateLimitStore', () => {
  it('counts hits per key within a window and starts over when it ends', () => {
    let now = 1_000;
    const store = new MemoryRateLimitStore(() => now);
    expect(store.hit('a', 60_000)).toEqual({ count: 1, resetAt: 61_000 });
    expect(store.hit('a', 60_000).count).toBe(2);
    expect(store.hit('b', 60_000).count).toBe(1);
    now = 61_000;
    expect(store.hit('a', 60_000)).toEqual({ count: 1, resetAt: 121_000 });
  });

  it('stays bounded when many addresses hit it', () => {
    let now = 0;
    const store = new MemoryRateLimitStore(() => now, 10);
    for (let i = 0; i < 10; i++) store.hit(`k${i}`, 1000);
    now = 2000;
    // Every earlier window has expired: the sweep frees them and the new key starts at 1.
    expect(store.hit('new', 1000).count).toBe(1);
    for (let i = 0; i < 50; i++) store.hit(`live${i}`, 1000);
    expect(store.hit('live49', 1000).count).toBeLessThanOrEqual(2);
  });
});
