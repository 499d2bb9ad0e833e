import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isReviewsPagePath,
  parseReviewKey,
  readReviewsQuery,
  reviewKey,
  reviewsPageHref,
  reviewsRangeLine,
} from './cursor';

describe('review keys', () => {
  it('read back what they wrote, for any instant and id', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }),
        fc.integer({ min: 1, max: 999_999_999_999 }),
        (at, id) => {
          const created_at = at.toISOString();
          expect(parseReviewKey(reviewKey({ created_at, id }))).toEqual({ createdAt: created_at, id });
          const key = reviewKey({ created_at, id });
          const href = new URL(reviewsPageHref('alpha-traders', 'older', key), 'http://x');
          expect(href.pathname).toBe('/server/alpha-traders/reviews');
          expect(isReviewsPagePath(href.pathname)).toBe(true);
          expect(parseReviewKey(href.searchParams.get('before')!)).toEqual({ createdAt: created_at, id });
          // The page reads its link's key back, and writes its query (its canonical URL, its cache key) the same way.
          const read = readReviewsQuery(href.searchParams);
          expect(read).toEqual({
            kind: 'page',
            at: { before: { createdAt: created_at, id } },
            query: href.search.slice(1),
          });
          const newer = new URL(reviewsPageHref('alpha-traders', 'newer', key), 'http://x');
          expect(readReviewsQuery(newer.searchParams)).toMatchObject({ at: { after: { createdAt: created_at, id } } });
        },
      ),
    );
  });

  it('refuse anything else', () => {
    for (const bad of [
      '',
      '42',
      'yesterday~4',
      '2026-05-01T10:00:00.000Z',
      '2026-05-01T10:00:00.000Z~0',
      '2026-05-01T10:00:00Z~1 OR 1',
    ])
      expect(parseReviewKey(bad)).toBeNull();
  });

  it('are read from a reviews page query: one key or none, and anything else named as bad', () => {
    const read = (q: string) => readReviewsQuery(new URLSearchParams(q));
    expect(read('')).toEqual({ kind: 'none' });
    expect(read('utm_source=x')).toEqual({ kind: 'none' });
    expect(read('before=yesterday')).toEqual({ kind: 'bad', field: 'before' });
    expect(read('after=')).toEqual({ kind: 'bad', field: 'after' });
    const key = encodeURIComponent('2026-05-01T10:00:00.000Z~42');
    expect(read(`before=${key}&after=${key}`)).toEqual({ kind: 'bad', field: 'before and after' });
    expect(read(`before=${key}&before=${key}`)).toEqual({ kind: 'bad', field: 'before' });
    // Other parameters are not part of the page: its query is the key alone.
    expect(read(`utm_source=x&after=${key}`)).toMatchObject({ kind: 'page', query: `after=${key}` });
    expect(isReviewsPagePath('/server/a/reviews/x')).toBe(false);
    expect(isReviewsPagePath('/server//reviews')).toBe(false);
  });

  it('say where a page is in the list', () => {
    expect(reviewsRangeLine(11, 10, 25)).toBe('Reviews 11 to 20 of 25.');
    expect(reviewsRangeLine(1, 0, 0)).toBe('0 reviews in all.');
  });
});
