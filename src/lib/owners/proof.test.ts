import { describe, expect, it } from 'vitest';
import { managedGuilds, proofOf } from './proof';

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
