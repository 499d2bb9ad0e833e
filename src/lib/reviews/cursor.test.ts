import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseReviewKey, reviewKey, reviewsPageHref, reviewsRangeLine } from './cursor';

describe('review keys', () => {
  it('read back what they wrote, for any instant and id', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }),
        fc.integer({ min: 1, max: 999_999_999_999 }),
        (at, id) => {
          const created_at = at.toISOString();
          expect(parseReviewKey(reviewKey({ created_at, id }))).toEqual({ createdAt: created_at, id });
          const href = new URL(reviewsPageHref(7, 'older', reviewKey({ created_at, id })), 'http://x');
          expect(parseReviewKey(href.searchParams.get('before')!)).toEqual({ createdAt: created_at, id });
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

  it('say where a page is in the list', () => {
    expect(reviewsRangeLine(11, 10, 25)).toBe('Reviews 11 to 20 of 25.');
    expect(reviewsRangeLine(1, 0, 0)).toBe('0 reviews in all.');
  });
});
