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
});
