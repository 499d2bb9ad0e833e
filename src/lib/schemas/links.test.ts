import { describe, expect, it } from 'vitest';
import { LINKS_MAX, linkHost, safeLinks } from '../links';
import { listingLinksSchema } from './links';

const link = (url: string, label = 'Website') => ({ label, url });
const messages = (value: unknown) => {
  const parsed = listingLinksSchema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('listing links', () => {
  it('accepts up to LINKS_MAX https links on public hosts, trimmed', () => {
    const links = Array.from({ length: LINKS_MAX }, (_, i) => link(` https://example${i}.com/a `, ` Site ${i} `));
    expect(listingLinksSchema.parse(links)[0]).toEqual({ label: 'Site 0', url: 'https://example0.com/a' });
    expect(messages([...links, link('https://one-more.example.com')])).toEqual([`: Links: at most ${LINKS_MAX}`]);
  });

  it('refuses http, javascript: and data: URLs', () => {
    for (const url of ['http://example.com', 'javascript:alert(1)', 'data:text/html,x', 'example.com', ''])
      expect(messages([link(url)])[0]).toMatch(/^0\.url: Link URL must be a full https:\/\/ address/);
  });

  it('refuses IP literals, localhost and internal hosts as the icon URL does', () => {
    for (const url of [
      'https://127.0.0.1/',
      'https://[::1]/',
      'https://2130706433/',
      'https://localhost/',
      'https://metadata/',
      'https://intranet.corp/',
      'https://10.0.0.1.nip.io/',
    ])
      expect(messages([link(url)])).toEqual([
        '0.url: Link URL must be on a public website: IP addresses, localhost and internal hosts are not allowed',
      ]);
  });

  it('a label is required and at most 40 characters on one line', () => {
    expect(messages([link('https://example.com', ' ')])).toEqual(['0.label: Link label is required.']);
    expect(messages([link('https://example.com', 'x'.repeat(41))])).toEqual([
      '0.label: Link label can be at most 40 characters.',
    ]);
    expect(messages([link('https://example.com', 'two\nlines')])).toHaveLength(1);
  });

  it('a page shows the host of each safe link and drops the rest', () => {
    expect(linkHost('https://www.example.com/wiki')).toBe('example.com');
    expect(linkHost('http://example.com')).toBeNull();
    expect(
      safeLinks([link('https://www.example.com/x'), link('https://127.0.0.1/'), link('javascript:alert(1)')]),
    ).toEqual([{ label: 'Website', url: 'https://www.example.com/x', host: 'example.com' }]);
  });
});
