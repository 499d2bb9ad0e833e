import { describe, expect, it } from 'vitest';
import { cachedIpHash, clientKey, hashIp } from './hash';

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

describe('clientKey', () => {
  it('keeps an IPv4 address whole and reads an IPv4-mapped IPv6 address as IPv4', () => {
    expect(clientKey('203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('0:0:0:0:0:ffff:203.0.113.9')).toBe('203.0.113.9');
  });

  it('counts an IPv6 client by its /64, whatever the spelling or interface id', () => {
    const key = clientKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd');
    expect(key).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0DB8:0001:0002::1')).toBe(key);
    expect(clientKey('[2001:db8:1:2::ffff]')).toBe(key);
    expect(clientKey('2001:db8:1:2::1%eth0')).toBe(key);
    expect(clientKey('2001:db8:1:3::1')).not.toBe(key);
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
  });

  it('gives every address of one /64 the same hash', async () => {
    expect(await hashIp('salt-c', '2001:db8::1')).toBe(await hashIp('salt-c', '2001:db8::2'));
    expect(await hashIp('salt-c', '2001:db8::1')).not.toBe(await hashIp('salt-c', '2001:db8:0:1::1'));
  });
});
