import { describe, expect, it } from 'vitest';
import { netSince, type RevenueDay } from './RevenuePerDay';

const day = (d: string, currency: string, paid: number, refunded: number): RevenueDay => ({
  day: d,
  currency,
  paid_cents: paid,
  refunded_cents: refunded,
  net_cents: paid - refunded,
});

describe('netSince', () => {
  it('sums money in minus refunds from a day on, per currency', () => {
    const days = [
      day('2027-01-01', 'usd', 4900, 0),
      day('2027-01-05', 'usd', 14900, 4900),
      day('2027-01-06', 'eur', 900, 0),
    ];
    expect(netSince(days, '2027-01-02')).toBe('$100.00 · €9.00');
    expect(netSince(days, '2027-01-01')).toBe('$149.00 · €9.00');
  });

  it('says 0 when no money came in or went back in the period', () => {
    expect(netSince([day('2027-01-01', 'usd', 4900, 0)], '2027-02-01')).toBe('0');
    expect(netSince([], '2027-02-01')).toBe('0');
  });
});
