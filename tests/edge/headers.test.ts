import { describe, expect, it } from 'vitest';
import { BASE_CONTENT_SECURITY_POLICY, securityHeaderSet } from '../../functions/_app/lib/security-headers';
import { renderHeadersFile, sitePolicy } from '../../src/integrations/headers';

const POLICY = `${BASE_CONTENT_SECURITY_POLICY} 'sha256-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa='`;
const page = (policy: string | null, type = 'page') => ({
  headers: new Headers(policy ? { 'content-security-policy': policy } : {}),
  route: { type },
});

describe('dist/_headers for the static host', () => {
  it('carries every security header the app sends, with the build policy, and keeps the console uncached', () => {
    const file = renderHeadersFile(POLICY);
    const [first, ...rest] = file.split('\n');
    expect(first).toBe('/*');
    for (const [name, value] of Object.entries(securityHeaderSet(POLICY))) {
      expect(rest).toContain(`  ${name}: ${value}`);
    }
    expect(file).toMatch(/\/admin\n {2}Cache-Control: no-store/);
    expect(file).toMatch(/\/_astro\/\*\n {2}Cache-Control: public, max-age=31536000, immutable/);
  });

  it('refuses to write a CSP line longer than Cloudflare reads rather than have it ignored', () => {
    expect(() => renderHeadersFile(`${POLICY} ${'x'.repeat(2000)}`)).toThrow(/over 2000 characters/);
  });
});

describe('the site policy Astro hands over', () => {
  it('is the one policy every page carries; endpoints carry none', () => {
    const map = new Map([
      ['/', page(`${POLICY};`)],
      ['/help', page(`${POLICY};`)],
      ['/robots.txt', page(null, 'endpoint')],
    ]);
    expect(sitePolicy(map)).toBe(POLICY);
  });

  it('stops the build when a page has a policy of its own or none', () => {
    expect(() =>
      sitePolicy(
        new Map([
          ['/', page(POLICY)],
          ['/x', page(`${POLICY} 'sha256-other'`)],
        ]),
      ),
    ).toThrow(/Page \/x has a Content-Security-Policy of its own/);
    expect(() => sitePolicy(new Map([['/', page(null)]]))).toThrow(/Page \/ has no Content-Security-Policy/);
  });
});
