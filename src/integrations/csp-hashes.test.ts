import { describe, expect, it } from 'vitest';
import { inlineScripts, pageKey } from './csp-hashes.mjs';

describe('pageKey', () => {
  it('gives a page the same key from its render URL and from the build page list', () => {
    expect(pageKey('/index.html')).toBe(pageKey(''));
    expect(pageKey('/help.html')).toBe(pageKey('help'));
    expect(pageKey('/server/apex-legends-hub.html')).toBe(pageKey('server/apex-legends-hub'));
    expect(pageKey('/best-crypto-discord/page/2.html')).toBe(pageKey('best-crypto-discord/page/2'));
    expect(pageKey('/404.html')).toBe(pageKey('404'));
  });
  it('also reads the folder-per-page layout', () => {
    expect(pageKey('/help/index.html')).toBe('help');
    expect(pageKey('/help/')).toBe('help');
  });
});

describe('inlineScripts', () => {
  it('returns inline script bodies, not external scripts or JSON data blocks', () => {
    const html = Buffer.from(
      '<script type="application/ld+json">{"a":1}</script><script type="module" src="/x.js"></script>' +
        '<script>one()</script><script type="module">two()</script>',
    );
    expect(inlineScripts(html)).toEqual(['one()', 'two()']);
  });
});
