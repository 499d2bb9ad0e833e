import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasUserInfo, isPublicHostname, isPublicHttpsUrl, isSafeImageSrc } from './url-safety';

const REFUSED = [
  // IPv4 literals, public and private, in every notation URL() accepts.
  'https://169.254.169.254/latest/meta-data/',
  'https://2852039166/',
  'https://0xA9FEA9FE/',
  'https://0x7f.1/',
  'https://0177.0.0.1/',
  'https://127.1/',
  'https://127.0.0.1:8443/icon.png',
  'https://10.0.0.5/icon.png',
  'https://192.168.1.1/icon.png',
  'https://172.16.0.1/icon.png',
  'https://100.100.100.200/icon.png',
  'https://8.8.8.8/icon.png',
  'https://%31%32%37.0.0.1/',
  // IPv6 literals.
  'https://[::1]/',
  'https://[::ffff:169.254.169.254]/',
  'https://[fe80::1]/',
  'https://[fd00:ec2::254]/',
  'https://[2001:4860:4860::8888]/',
  // Loopback and private names.
  'https://localhost/',
  'https://LOCALHOST./',
  'https://app.localhost/',
  'https://printer.local/',
  'https://metadata.google.internal/computeMetadata/v1/',
  'https://metadata/',
  'https://instance-data/',
  'https://router.lan/',
  'https://nas.home.arpa/',
  'https://1.0.0.127.in-addr.arpa/',
  'https://169.254.169.254.nip.io/',
  // Not https, or not a URL.
  'http://cdn.example.com/icon.png',
  'javascript:alert(1)',
  'data:image/png;base64,AAAA',
  'not a url',
  '',
];

const ACCEPTED = [
  'https://cdn.discordapp.com/icons/1/abc.png',
  'https://images.example.com:8443/a.png?size=512',
  'https://xn--caf-dma.example/icon.png',
  'https://local.example.com/icon.png',
  'https://internal-cdn.example.com/icon.png',
  'https://1password.com/logo.png',
];

describe('isPublicHttpsUrl', () => {
  it.each(REFUSED)('refuses %s', (url) => {
    expect(isPublicHttpsUrl(url)).toBe(false);
  });

  it.each(ACCEPTED)('accepts %s', (url) => {
    expect(isPublicHttpsUrl(url)).toBe(true);
  });

  it('refuses every IPv4 address, whatever its notation', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.constantFrom('dotted', 'decimal', 'hex'), (ip, form) => {
        const n = ip.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
        const host = form === 'dotted' ? ip : form === 'decimal' ? String(n) : `0x${n.toString(16)}`;
        expect(isPublicHttpsUrl(`https://${host}/icon.png`)).toBe(false);
      }),
    );
  });

  it('refuses every IPv6 address', () => {
    fc.assert(
      fc.property(fc.ipV6(), (ip) => {
        expect(isPublicHttpsUrl(`https://[${ip}]/icon.png`)).toBe(false);
      }),
    );
  });
});

describe('isPublicHostname', () => {
  it('refuses raw hosts that URL() would turn into addresses', () => {
    for (const host of ['0x7f.1', '2852039166', '0177.0.0.1', '[::1]', '::1', 'localhost.', '']) {
      expect(isPublicHostname(host)).toBe(false);
    }
  });

  it('accepts an ordinary public name', () => {
    expect(isPublicHostname('cdn.example.com')).toBe(true);
  });
});

describe('isSafeImageSrc', () => {
  it("accepts the site's own paths and public https URLs", () => {
    expect(isSafeImageSrc('/icons/servers/apex-legends-hub.svg')).toBe(true);
    expect(isSafeImageSrc('https://cdn.example.com/icon.png')).toBe(true);
  });

  it('refuses a missing src, other hosts in disguise and private hosts stored before the rule', () => {
    for (const src of [
      null,
      undefined,
      '',
      '//169.254.169.254/',
      '/\\169.254.169.254/',
      '/icons/a\u0000.svg',
      'https://169.254.169.254/latest/meta-data/',
      'https://localhost:4321/icon.png',
      'http://cdn.example.com/icon.png',
    ]) {
      expect(isSafeImageSrc(src)).toBe(false);
    }
  });
});

describe('hasUserInfo', () => {
  it('refuses user:pass@ (and user@) in links and icons', () => {
    expect(hasUserInfo('https://user:pass@example.com/x.png')).toBe(true);
    expect(hasUserInfo('https://user@example.com/')).toBe(true);
    expect(hasUserInfo('https://example.com/a@b')).toBe(false);
    expect(isPublicHttpsUrl('https://user:pass@example.com/x.png')).toBe(false);
    expect(isSafeImageSrc('https://discord.com:pw@evil.example/x.png')).toBe(false);
  });
});
