import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { managedGuilds, proofAge, proofOf } from './proof';

describe('proofOf', () => {
  it('the owner flag proves ownership whatever the permissions', () => {
    expect(proofOf({ id: '1', owner: true, permissions: '0' })).toBe('owner');
  });
  it('the Manage Server bit (0x20) proves it', () => {
    expect(proofOf({ id: '1', owner: false, permissions: String(0x20) })).toBe('manage_guild');
    expect(proofOf({ id: '1', owner: false, permissions: '2251799813685247' })).toBe('manage_guild');
  });
  it('Administrator (0x8) includes Manage Server', () => {
    expect(proofOf({ id: '1', permissions: '8' })).toBe('manage_guild');
  });
  it('other permissions prove nothing', () => {
    expect(proofOf({ id: '1', owner: false, permissions: String(0x400 | 0x800 | 0x10) })).toBeNull();
    expect(proofOf({ id: '1' })).toBeNull();
    expect(proofOf({ id: '1', permissions: 'not a number' })).toBeNull();
  });
});

describe('managedGuilds', () => {
  it('keeps only the guilds with a proof', () => {
    const map = managedGuilds([
      { id: 'a', owner: true, permissions: '0' },
      { id: 'b', permissions: '32' },
      { id: 'c', permissions: '1024' },
    ]);
    expect([...map]).toEqual([
      ['a', 'owner'],
      ['b', 'manage_guild'],
    ]);
  });
});

describe('proofAge', () => {
  const at = Date.parse('2026-11-26T12:00:00.000Z');
  it('says minutes, hours, then days', () => {
    expect(proofAge('2026-11-26T11:58:30.000Z', at)).toBe('1 min');
    expect(proofAge('2026-11-26T09:00:00.000Z', at)).toBe('3 h');
    expect(proofAge('2026-11-23T12:00:00.000Z', at)).toBe('3 d');
  });
  it('never goes negative and names a bad time', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e10 }), (offset) => {
        expect(proofAge(new Date(at - offset).toISOString(), at)).toMatch(/^\d+ (min|h|d)$/);
      }),
    );
    expect(proofAge('not a time', at)).toBe('unknown');
  });
});
