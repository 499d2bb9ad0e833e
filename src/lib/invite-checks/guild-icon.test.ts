import { describe, expect, it } from 'vitest';
import { guildCreatedAt, guildIconUrl } from './guild-icon';

const GUILD = '613425648685547541';

describe('guildIconUrl', () => {
  it('gives a still icon as a 128 px PNG', () => {
    expect(guildIconUrl(GUILD, '3c5b4a3e9f1d2c7b8a6e5d4c3b2a1f0e')).toBe(
      `https://cdn.discordapp.com/icons/${GUILD}/3c5b4a3e9f1d2c7b8a6e5d4c3b2a1f0e.png?size=128`,
    );
  });

  it('gives an animated icon (a_ hash) as animated WebP', () => {
    expect(guildIconUrl(GUILD, 'a_9f8e7d6c5b4a39281706f5e4d3c2b1a0')).toBe(
      `https://cdn.discordapp.com/icons/${GUILD}/a_9f8e7d6c5b4a39281706f5e4d3c2b1a0.webp?size=128&animated=true`,
    );
  });

  it('takes another size', () => {
    expect(guildIconUrl(GUILD, 'abc', 512)).toBe(`https://cdn.discordapp.com/icons/${GUILD}/abc.png?size=512`);
  });

  it.each([
    [GUILD, null],
    [GUILD, ''],
    [GUILD, '../../avatars/x'],
    [GUILD, 'abc?size=4096'],
    ['not-an-id', 'abc'],
    ['123', 'abc'],
  ])('has no icon for id %j and hash %j', (id, hash) => {
    expect(guildIconUrl(id, hash)).toBeNull();
  });
});

describe('guildCreatedAt', () => {
  it("reads the creation time out of the id (Discord's documented example)", () => {
    expect(guildCreatedAt('175928847299117063').toISOString()).toBe('2016-04-30T11:18:25.796Z');
  });

  it('ignores the low 22 bits (worker, process, increment)', () => {
    // 2024-01-01T00:00:00Z is 283,996,800,000 ms after Discord's epoch; shifted left 22 bits, with all low bits set.
    expect(guildCreatedAt('1191168914231394303').toISOString()).toBe('2024-01-01T00:00:00.000Z');
  });

  it.each(['', 'abc', '12345', '1.5e18', '-175928847299117063'])('refuses %j', (id) => {
    expect(() => guildCreatedAt(id)).toThrow(RangeError);
  });
});
