import { describe, expect, it } from 'vitest';
import { ListingCache } from './listing-cache';

describe('ListingCache', () => {
  it('shares one load between concurrent misses of a key', async () => {
    const cache = new ListingCache<number>();
    let loads = 0;
    const load = async () => {
      loads++;
      await new Promise((r) => setImmediate(r));
      return 42;
    };
    expect(await Promise.all([cache.get('k', load), cache.get('k', load), cache.get('k', load)])).toEqual([42, 42, 42]);
    expect(loads).toBe(1);
  });

  it('serves fresh values, then stale ones while refreshing, then reloads after they expire', async () => {
    let now = 0;
    const cache = new ListingCache<number>(1000, 5000, 10, () => now);
    let value = 1;
    const load = async () => value;
    expect(await cache.get('k', load)).toBe(1);
    value = 2;
    now = 500;
    expect(await cache.get('k', load)).toBe(1);
    now = 2000;
    // Stale: the old value answers at once and a refresh runs behind it.
    expect(await cache.get('k', load)).toBe(1);
    await new Promise((r) => setImmediate(r));
    expect(await cache.get('k', load)).toBe(2);
    value = 3;
    now = 10_000;
    expect(await cache.get('k', load)).toBe(3);
  });

  it('keeps at most maxEntries keys', async () => {
    const cache = new ListingCache<string>(1000, 1000, 2);
    let loads = 0;
    const load = (v: string) => async () => {
      loads++;
      return v;
    };
    await cache.get('a', load('a'));
    await cache.get('b', load('b'));
    await cache.get('c', load('c'));
    await cache.get('a', load('a'));
    expect(loads).toBe(4);
  });

  it('does not cache a failed load', async () => {
    const cache = new ListingCache<number>();
    await expect(cache.get('k', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('k', async () => 7)).toBe(7);
  });

  it("hands a stale entry's background refresh to waitUntil, so a Worker keeps it alive", async () => {
    let now = 0;
    const cache = new ListingCache<number>(1000, 5000, 10, () => now);
    const kept: Promise<unknown>[] = [];
    let value = 1;
    const read = () =>
      cache.get(
        'k',
        async () => value,
        (p) => kept.push(p),
      );
    expect(await read()).toBe(1);
    expect(kept).toHaveLength(0);
    value = 2;
    now = 2000;
    expect(await read()).toBe(1);
    expect(kept).toHaveLength(1);
    await Promise.all(kept);
    expect(await cache.get('k', async () => 99)).toBe(2);
  });

  it('never lets a refresh that died with its request hold a key: a new load starts after the timeout', async () => {
    let now = 0;
    const cache = new ListingCache<number>(1000, 5000, 10, () => now, 3000);
    expect(await cache.get('k', async () => 1)).toBe(1);
    now = 2000;
    // The background refresh never settles (its request ended and nothing kept it alive).
    expect(await cache.get('k', () => new Promise<number>(() => {}))).toBe(1);
    now = 10_000;
    expect(await cache.get('k', async () => 3)).toBe(3);
  });

  it('keeps the stale value when a background refresh fails, and tries again on the next request', async () => {
    let now = 0;
    const cache = new ListingCache<number>(1000, 5000, 10, () => now);
    const kept: Promise<unknown>[] = [];
    expect(await cache.get('k', async () => 1)).toBe(1);
    now = 2000;
    expect(
      await cache.get(
        'k',
        async () => Promise.reject(new Error('down')),
        (p) => kept.push(p),
      ),
    ).toBe(1);
    await Promise.all(kept);
    expect(
      await cache.get(
        'k',
        async () => 4,
        (p) => kept.push(p),
      ),
    ).toBe(1);
    await Promise.all(kept);
    expect(await cache.get('k', async () => 5)).toBe(4);
  });
});
