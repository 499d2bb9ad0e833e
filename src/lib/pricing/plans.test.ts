import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DAY_MS,
  formatPrice,
  formatTerm,
  partRefundedWords,
  REFUND_WINDOW_DAYS,
  refundableByOwner,
  refundedPriceCents,
  refundedWords,
} from './plans';

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

describe('refundedPriceCents', () => {
  it('gives back the price’s share of a partial refund, the whole price at most, and grows with the refunded total', () => {
    // Tax of 10 % on top of a $49 price: a $26.95 refund is half the charge, so half the price.
    expect(refundedPriceCents(2695, 5390, 4900)).toBe(2450);
    expect(refundedPriceCents(5390, 5390, 4900)).toBe(4900);
    expect(refundedPriceCents(1000, null, 4900)).toBe(1000);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 0, max: 2e6 }), (price, tax) => {
        const charge = price + tax;
        let last = 0;
        for (const refunded of [0, Math.floor(charge / 3), Math.floor(charge / 2), charge]) {
          const share = refundedPriceCents(refunded, charge, price);
          expect(share).toBeGreaterThanOrEqual(last);
          expect(share).toBeLessThanOrEqual(price);
          last = share;
        }
        expect(last).toBe(price);
      }),
    );
  });
});

describe('partRefundedWords', () => {
  it('says how much of the price came back for a partial refund only, in the order’s currency, never broken inside an amount', () => {
    expect(partRefundedWords(500, 2000, 'eur')).toBe('€5.00 of €20.00 refunded');
    expect(partRefundedWords(1500, 4900, 'usd')).toBe('$15.00 of $49.00 refunded');
    expect(partRefundedWords(0, 4900, 'usd')).toBeNull();
    expect(partRefundedWords(4900, 4900, 'usd')).toBeNull();
    expect(refundedWords(4900, 4900, 'usd')).toBe('$49.00 of $49.00 refunded');
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e7 }), fc.integer({ min: 0, max: 1e7 }), (price, back) => {
        const words = partRefundedWords(back, price, 'gbp');
        expect(words !== null).toBe(back > 0 && back < price);
        if (words) expect(words).toBe(`${formatPrice(back, 'gbp')} of ${formatPrice(price, 'gbp')} refunded`);
      }),
    );
  });
});
