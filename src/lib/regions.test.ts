import { describe, expect, it } from 'vitest';
import { isRegionCode, REGION_CODES, regionName, regionsOf } from './regions';

describe('regions', () => {
  it('holds the 249 ISO 3166-1 alpha-2 codes, upper case, with English names', () => {
    expect(REGION_CODES).toHaveLength(249);
    expect(REGION_CODES.every((c) => /^[A-Z]{2}$/.test(c))).toBe(true);
    expect(regionName('US')).toBe('United States');
    expect(regionName('us')).toBeUndefined();
    expect(isRegionCode('XK')).toBe(false);
    expect(isRegionCode('__proto__')).toBe(false);
  });
});

describe('regionsOf', () => {
  it('names each region the servers give once, by English name, and skips unknown codes', () => {
    const servers = [{ region: 'DE' }, { region: 'US' }, { region: 'DE' }, { region: null }, { region: 'XK' }];
    expect(regionsOf(servers)).toEqual([
      { code: 'DE', name: 'Germany' },
      { code: 'US', name: 'United States' },
    ]);
  });
});
