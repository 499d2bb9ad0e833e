import { describe, expect, it } from 'vitest';
import { joinTarget, parseDiscordInvite } from './invite';

describe('parseDiscordInvite', () => {
  it.each([
    ['https://discord.gg/abc123', 'abc123'],
    ['discord.gg/abc-123', 'abc-123'],
    ['https://discord.gg/invite/XyZ9', 'XyZ9'],
    ['https://discord.com/invite/Trading-Room', 'Trading-Room'],
    ['http://discordapp.com/invite/abc123/', 'abc123'],
    ['https://www.discord.com/invite/abc123?utm=x', 'abc123'],
    ['  https://DISCORD.GG/CaseKept  ', 'CaseKept'],
  ])('accepts %s', (input, code) => {
    expect(parseDiscordInvite(input)).toEqual({ code, url: `https://discord.gg/${code}` });
  });

  it.each([
    'https://evil.example/discord.gg/abc',
    'https://discord.gg.evil.example/abc',
    'javascript:alert(1)//discord.gg/abc',
    'data:text/html,discord.gg/abc',
    'https://discord.gg/',
    'https://discord.gg/abc_def',
    'https://discord.com/channels/123',
    'ftp://discord.gg/abc',
    'https://user@discord.gg/abc',
  ])('refuses %s', (input) => {
    expect(parseDiscordInvite(input)).toBeNull();
  });
});

describe('joinTarget', () => {
  it('keeps absolute http(s) links, normalised', () => {
    expect(joinTarget('https://discord.gg/abc123')).toBe('https://discord.gg/abc123');
    expect(joinTarget('http://partner.example/join?x=1')).toBe('http://partner.example/join?x=1');
  });

  it.each([null, undefined, '', '   ', 'javascript:alert(1)', '//discord.gg/abc', 'discord.gg/abc', 'not a url'])(
    'has no join target for %j',
    (link) => {
      expect(joinTarget(link)).toBeNull();
    },
  );
});
