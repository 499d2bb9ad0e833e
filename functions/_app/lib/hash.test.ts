import { describe, expect, it } from 'vitest';
import { cachedIpHash, hashIp } from './hash';

describe('IP hashes', () => {
  it('are salted per secret, memoized per secret and address, and never hold the address', async () => {
    const ip = '203.0.113.9';
    expect(cachedIpHash('salt-a', ip)).toBeUndefined();
    const a = await hashIp('salt-a', ip);
    expect(a).not.toContain(ip);
    expect(a.length).toBeGreaterThan(20);
    expect(cachedIpHash('salt-a', ip)).toBe(a);
    expect(await hashIp('salt-a', ip)).toBe(a);

    // Another secret or another address: another hash, each memoized on its own.
    expect(cachedIpHash('salt-b', ip)).toBeUndefined();
    const b = await hashIp('salt-b', ip);
    expect(b).not.toBe(a);
    const other = await hashIp('salt-a', '203.0.113.10');
    expect(other).not.toBe(a);
    expect(cachedIpHash('salt-a', ip)).toBe(a);
    expect(cachedIpHash('salt-b', ip)).toBe(b);
  });
});
