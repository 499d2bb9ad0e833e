import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SLUG_MAX, serverSlug, slugify, slugVariants } from './slug';

const SLUG_SHAPE = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const STOP_WORDS = ['the', 'and', 'or', 'but', 'in', 'on', 'at', 'to', 'for', 'of', 'with', 'by'];

// Names mixing letters, digits, punctuation, stop words, spaces, hyphens and non-ASCII.
const names = fc.oneof(
  fc.string({ maxLength: 120 }),
  fc
    .array(
      fc.oneof(
        fc.constantFrom(...STOP_WORDS, 'Discord', 'Server', '&', '!!', '—', 'café', '🎮'),
        fc.string({ maxLength: 12 }),
      ),
      {
        maxLength: 20,
      },
    )
    .map((parts) => parts.join(' ')),
);

describe('slugify', () => {
  it('lowercases, trims and turns runs of non-alphanumerics into one hyphen', () => {
    expect(slugify('  Hello, World!  ')).toBe('hello-world');
    expect(slugify('Crypto & DeFi -- Alpha')).toBe('crypto-defi-alpha');
    expect(slugify('---a---')).toBe('a');
  });

  it('returns the empty fallback when nothing alphanumeric is left', () => {
    expect(slugify('!!! ---')).toBe('');
  });

  it('always yields the slug shape or the fallback, at most 50 characters, stable when applied twice', () => {
    fc.assert(
      fc.property(names, (name) => {
        const slug = slugify(name);
        expect(slug === '' || SLUG_SHAPE.test(slug)).toBe(true);
        expect(slug.length).toBeLessThanOrEqual(SLUG_MAX);
        expect(slugify(slug)).toBe(slug);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('serverSlug', () => {
  it('drops the stop words of the spec', () => {
    expect(serverSlug('The Home of Traders and Investors')).toBe('home-traders-investors');
  });

  it('strips punctuation rather than splitting on it', () => {
    expect(serverSlug("Bob's Picks!")).toBe('bobs-picks');
  });

  it("prefixes 'server-' when shorter than 3 characters", () => {
    expect(serverSlug('FX')).toBe('server-fx');
  });

  it("falls back to 'server' when nothing is left", () => {
    expect(serverSlug('The and of')).toBe('server');
    expect(serverSlug('')).toBe('server');
  });

  it('cuts long names at a word boundary within 50 characters', () => {
    const slug = serverSlug('Extraordinarily Comprehensive Cryptocurrency Research Collective Worldwide');
    expect(slug.length).toBeLessThanOrEqual(50);
    expect(slug).toBe('extraordinarily-comprehensive-cryptocurrency');
  });

  it('always yields the slug shape, at most 50 characters, at least 3, stable when applied twice', () => {
    fc.assert(
      fc.property(names, (name) => {
        const slug = serverSlug(name);
        expect(SLUG_SHAPE.test(slug)).toBe(true);
        expect(slug.length).toBeLessThanOrEqual(SLUG_MAX);
        expect(slug.length).toBeGreaterThanOrEqual(3);
        expect(slug.split('-').some((w) => STOP_WORDS.includes(w))).toBe(false);
        expect(serverSlug(slug)).toBe(slug);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('slugVariants', () => {
  it('lists the name slug, the server slug, the name without a generic trailing word, alphanumerics only and the first word', () => {
    expect(slugVariants('The Crypto Hub')).toEqual([
      'the-crypto-hub',
      'crypto-hub',
      'the-crypto',
      'thecryptohub',
      'the',
    ]);
  });
});
