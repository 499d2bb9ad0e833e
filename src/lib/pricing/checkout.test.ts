import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CHECKOUT_MAX_MS,
  CHECKOUT_OUTCOME_TEXT,
  CHECKOUT_OUTCOMES,
  checkoutOutcome,
  checkoutOutcomeText,
  missingSessionClosable,
  sessionFinding,
} from './checkout';

const T = Date.parse('2026-11-28T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const DAY = 86_400_000;

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

describe('sessionFinding', () => {
  const at = (status: string | null, payment_status: string, payment_intent_status: string | null) =>
    sessionFinding({ status, payment_status, payment_intent_status })?.type ?? null;

  it('reads a failed delayed payment as async_payment_failed: completed unpaid, its intent back to requires_payment_method or canceled', () => {
    expect(at('complete', 'unpaid', 'requires_payment_method')).toBe('checkout.session.async_payment_failed');
    expect(at('complete', 'unpaid', 'canceled')).toBe('checkout.session.async_payment_failed');
    // Still clearing, or not expanded: nothing yet.
    expect(at('complete', 'unpaid', 'processing')).toBeNull();
    expect(at('complete', 'unpaid', null)).toBeNull();
  });

  it('reads paid and expired as before, and an open checkout as nothing, whatever its intent says', () => {
    expect(at('complete', 'paid', 'succeeded')).toBe('checkout.session.completed');
    expect(at('complete', 'paid', null)).toBe('checkout.session.completed');
    expect(at('expired', 'unpaid', null)).toBe('checkout.session.expired');
    // An open checkout's intent waits for a method from the start: not a failure.
    expect(at('open', 'unpaid', 'requires_payment_method')).toBeNull();
  });
});

describe('checkoutOutcome', () => {
  const open = { state: 'open', starts_at: null };
  const session = (status: string, payment_status: string, payment_intent_status: string | null = null) => ({
    status,
    payment_status,
    payment_intent_status,
  });

  it('says payment received only when the money is taken, and processing for a bank debit still clearing', () => {
    expect(checkoutOutcome({ state: 'paid', starts_at: iso(T - 1) }, null, T)).toBe('placed');
    expect(checkoutOutcome({ state: 'paid', starts_at: iso(T + DAY) }, null, T)).toBe('scheduled');
    expect(checkoutOutcome(open, session('complete', 'paid', 'succeeded'), T)).toBe('confirming');
    expect(checkoutOutcome(open, session('complete', 'unpaid', 'processing'), T)).toBe('processing');
    expect(checkoutOutcome(open, session('complete', 'unpaid', 'requires_payment_method'), T)).toBe('failed');
    expect(checkoutOutcome({ state: 'failed', starts_at: null }, null, T)).toBe('failed');
    expect(checkoutOutcome(open, session('open', 'unpaid'), T)).toBe('not_paid');
    expect(checkoutOutcome(open, session('expired', 'unpaid'), T)).toBe('not_paid');
    expect(checkoutOutcome(open, null, T)).toBe('unknown');
    for (const o of CHECKOUT_OUTCOMES) {
      const received = /payment received/.test(CHECKOUT_OUTCOME_TEXT[o].heading);
      expect(received, o).toBe(o === 'placed' || o === 'scheduled' || o === 'confirming');
    }
  });
});

describe('checkoutOutcomeText', () => {
  const dates = { starts_at: '2027-01-04T10:00:00.000Z', ends_at: '2027-02-03T10:00:00.000Z' };
  it('gives a term that follows the listing’s current one its own dates, never a start on the payment’s arrival', () => {
    const confirming = checkoutOutcomeText('confirming', dates);
    expect(confirming.heading).toBe(CHECKOUT_OUTCOME_TEXT.confirming.heading);
    expect(confirming.text).toContain('runs from 4\u00a0Jan\u00a02027 until 3\u00a0Feb\u00a02027');
    expect(confirming.text).not.toContain('starts then');
    expect(checkoutOutcomeText('scheduled', dates).text).toContain(
      'booked from 4\u00a0Jan\u00a02027 until 3\u00a0Feb\u00a02027',
    );
    expect(checkoutOutcomeText('processing', dates).text).toContain('not before 4\u00a0Jan\u00a02027');
    expect(checkoutOutcomeText('placed', { starts_at: null, ends_at: dates.ends_at }).text).toContain(
      'running until 3\u00a0Feb\u00a02027',
    );
  });
  it('says what it always said without dates (a term that starts on the payment’s arrival), and nothing of dates for other outcomes', () => {
    for (const o of CHECKOUT_OUTCOMES) {
      expect(checkoutOutcomeText(o, { starts_at: null, ends_at: null })).toEqual(CHECKOUT_OUTCOME_TEXT[o]);
      if (!['placed', 'scheduled', 'confirming', 'processing'].includes(o))
        expect(checkoutOutcomeText(o, dates)).toEqual(CHECKOUT_OUTCOME_TEXT[o]);
    }
  });
});
