import { describe, expect, it } from 'vitest';
import { reasonLines } from '../../src/lib/moderation/reasons';
import { loadEnv } from './env';
import { appealUrl } from './lib/appeal-link';
import { mailSite, newsletterLinks } from './mail/site';

describe('SITE_URL', () => {
  it('is read without its trailing slashes, so every link joins it with a path once', () => {
    expect(loadEnv({ SITE_URL: 'https://guildrank.example/' }).SITE_URL).toBe('https://guildrank.example');
    expect(loadEnv({ SITE_URL: 'https://guildrank.example//' }).SITE_URL).toBe('https://guildrank.example');
    expect(loadEnv({ SITE_URL: 'https://guildrank.example' }).SITE_URL).toBe('https://guildrank.example');
    expect(loadEnv({}).SITE_URL).toBe('http://localhost:4321');
  });

  it('still refuses a value that is not a URL, by name', () => {
    expect(() => loadEnv({ SITE_URL: 'guildrank.example/' })).toThrow(/SITE_URL/);
  });

  it('given with a trailing slash, makes an appeal link and a requirement link with one slash before the path', async () => {
    const env = loadEnv({ SITE_URL: 'https://guildrank.example/' });
    const link = await appealUrl(env.SITE_URL, env.SESSION_SECRET, 'k'.repeat(22));
    expect(link).toMatch(/^https:\/\/guildrank\.example\/appeal\?token=k{22}\./);
    const [line] = reasonLines(['requirement'], 'members', { minMembers: env.MIN_MEMBERS, siteUrl: env.SITE_URL });
    expect(line).toMatch(/\(https:\/\/guildrank\.example\/requirements#/);
    expect(mailSite(env).url).toBe('https://guildrank.example');
    expect((await newsletterLinks(env, 'reader@example.com')).unsubscribeUrl).toMatch(
      /^https:\/\/guildrank\.example\/unsubscribe\?token=/,
    );
  });
});
