import { describe, expect, it } from 'vitest';
import { inviteCode } from './invite-code';

describe('inviteCode', () => {
  it.each([
    ['abc123', 'abc123'],
    ['  Trading-Room  ', 'Trading-Room'],
    ['discord.gg/abc123', 'abc123'],
    ['https://discord.gg/abc123/', 'abc123'],
    ['http://discord.gg/abc123?event=42', 'abc123'],
    ['https://discord.gg/invite/abc123', 'abc123'],
    ['https://discord.com/invite/XyZ9', 'XyZ9'],
    ['discord.com/invite/XyZ9#rules', 'XyZ9'],
    ['discordapp.com/invite/abc123', 'abc123'],
    ['HTTPS://DISCORDAPP.COM/invite/CaseKept/', 'CaseKept'],
    ['https://www.discord.com/invite/abc123?utm_source=x', 'abc123'],
  ])('reads %j as the code %j', (input, code) => {
    expect(inviteCode(input)).toBe(code);
  });

  it.each([
    '',
    '   ',
    'a',
    'abc_def',
    'abc def',
    'discord.gg',
    'https://discord.gg/',
    'https://discord.com/invite/',
    'https://discord.com/abc123',
    'https://discord.com/channels/123/456',
    'https://discord.gg/abc/def',
    'https://evil.example/discord.gg/abc',
    'https://discord.gg.evil.example/abc',
    'https://user@discord.gg/abc',
    'ftp://discord.gg/abc',
    'javascript:alert(1)//discord.gg/abc',
    'x'.repeat(65),
  ])('refuses %j', (input) => {
    expect(inviteCode(input)).toBeNull();
  });
});
