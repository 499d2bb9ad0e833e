import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SAMPLE_SERVERS } from '../../../db/sample-data';
import { count, listingIconUrl } from './common';

const icon = listingIconUrl('Icon URL');
const PUBLIC = join(import.meta.dirname, '..', '..', '..', 'public');

describe('a listing icon (the console form)', () => {
  it('accepts every icon the sample servers hold, each a file the project ships', () => {
    const paths = SAMPLE_SERVERS.map((s) => s.image_url).filter((p): p is string => !!p);
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) {
      expect(icon.safeParse(path).success, path).toBe(true);
      expect(existsSync(join(PUBLIC, path)), path).toBe(true);
    }
  });

  it('accepts a public https image and refuses http, other site paths and internal hosts with the https message', () => {
    expect(icon.parse(' https://example.com/icon.png ')).toBe('https://example.com/icon.png');
    for (const bad of [
      'http://example.com/icon.png',
      '/icons/servers/../../admin.svg',
      '/icons/other/x.svg',
      '//evil.example/icons/servers/x.svg',
      '/icons/servers/x.svg?q=1',
      'https://127.0.0.1/icon.png',
    ]) {
      const parsed = icon.safeParse(bad);
      expect(parsed.success, bad).toBe(false);
      expect(parsed.error?.issues[0]?.message, bad).toMatch(/^Icon URL must be/);
    }
  });

  it('refuses any site path outside /icons/servers/', () => {
    fc.assert(
      fc.property(fc.webPath(), (path) => {
        fc.pre(!path.startsWith('/icons/servers/'));
        expect(icon.safeParse(path).success).toBe(false);
      }),
    );
  });
});

describe('a count (member and online counts of the submit form)', () => {
  it('reads any JSON value without throwing: a whole number from 0 to a billion, 0 for what is not a count', () => {
    // Objects whose toString or valueOf is not a function made String() throw: a 500.
    const value = fc.oneof(
      fc.jsonValue(),
      fc.record({ toString: fc.jsonValue() }),
      fc.record({ valueOf: fc.jsonValue(), toString: fc.jsonValue() }),
    );
    fc.assert(
      fc.property(value, (v) => {
        const n = count.parse(v);
        expect(Number.isInteger(n) && n >= 0 && n <= 1_000_000_000).toBe(true);
      }),
    );
    expect(count.parse({ toString: {} })).toBe(0);
    expect(count.parse('12,500')).toBe(12_500);
    expect(count.parse(42.9)).toBe(42);
  });
});
