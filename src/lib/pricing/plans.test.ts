import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_MS, formatPrice, formatTerm, REFUND_WINDOW_DAYS, refundableByOwner } from './plans';

describe('plans', () => {
  it('prints prices in the currency with no breakable space', () => {
    expect(formatPrice(4900, 'usd')).toBe('$49.00');
    expect(formatPrice(500, 'jpy')).toBe('¥500');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.constantFrom('usd', 'eur', 'gbp', 'jpy'), (c, cur) => {
        expect(formatPrice(c, cur)).not.toMatch(/ /);
      }),
    );
    expect(formatTerm(1)).toBe('1\u00a0day');
    expect(formatTerm(7)).toBe('7\u00a0days');
  });

  it('lets an owner refund within the window only', () => {
    const paid = '2026-01-01T00:00:00.000Z';
    const t = Date.parse(paid);
    expect(refundableByOwner(paid, t + REFUND_WINDOW_DAYS * DAY_MS)).toBe(true);
    expect(refundableByOwner(paid, t + REFUND_WINDOW_DAYS * DAY_MS + 1)).toBe(false);
    expect(refundableByOwner(null, t)).toBe(false);
  });
});
