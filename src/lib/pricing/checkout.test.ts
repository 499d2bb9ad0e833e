import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHECKOUT_MAX_MS, missingSessionClosable } from './checkout';

const T = Date.parse('2026-11-28T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

describe('missingSessionClosable', () => {
  it('closes an order whose unknown session is past the expiry Stripe gave it, never before', () => {
    fc.assert(
      fc.property(fc.integer({ min: -CHECKOUT_MAX_MS, max: CHECKOUT_MAX_MS }), (offset) => {
        const order = { checkout_expires_at: iso(T), created_at: iso(T - 3_600_000) };
        expect(missingSessionClosable(order, T + offset)).toBe(offset > 0);
      }),
    );
  });

  it('waits Stripe’s longest session, 24 hours from the order, when no expiry was stored', () => {
    const order = { checkout_expires_at: null, created_at: iso(T) };
    expect(missingSessionClosable(order, T + CHECKOUT_MAX_MS)).toBe(false);
    expect(missingSessionClosable(order, T + CHECKOUT_MAX_MS + 1)).toBe(true);
  });

  it('closes nothing on an unreadable time', () => {
    expect(missingSessionClosable({ checkout_expires_at: 'soon', created_at: iso(T) }, T + 2 * CHECKOUT_MAX_MS)).toBe(
      false,
    );
  });
});
