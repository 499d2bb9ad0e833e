/** How long a Checkout session the app makes stays payable (Stripe allows 30 minutes to 24 hours). */
export const CHECKOUT_MINUTES = 60;

/** The shortest expiry Stripe accepts for a new Checkout session: 30 minutes from its creation (plus a minute's margin). */
export const CHECKOUT_MIN_MS = 31 * 60_000;

/** The longest a Checkout session can stay payable: Stripe's `expires_at` is at most 24 hours after creation. */
export const CHECKOUT_MAX_MS = 24 * 3_600_000;

/**
 * Whether an open order whose Checkout session Stripe answers 404 `resource_missing` for ("No such
 * checkout.session": a session made with another key or in the other mode, test or live) can be
 * closed as expired at `now` (ms). Only once that session could no longer take a payment anywhere:
 * past the expiry Stripe gave it (`checkout_expires_at`), or, without one, 24 hours after the
 * order was made. Until then a 404 may be a key changed for a moment, and the order stays open.
 * Only an open order is asked about, and the order machine never expires a paid one.
 */
export function missingSessionClosable(
  order: { checkout_expires_at: string | null; created_at: string },
  now: number,
): boolean {
  const until = order.checkout_expires_at
    ? Date.parse(order.checkout_expires_at)
    : Date.parse(order.created_at) + CHECKOUT_MAX_MS;
  return Number.isFinite(until) && now > until;
}

/**
 * PaymentIntent statuses of a delayed payment (a bank debit) that failed: Stripe puts the intent
 * back to `requires_payment_method` after a failed attempt, or `canceled`; `processing` is still
 * pending, `succeeded` paid (docs.stripe.com/payments/paymentintents/lifecycle).
 */
export const FAILED_PAYMENT_INTENT_STATUSES: readonly string[] = ['requires_payment_method', 'canceled'];

/** A Checkout session as the reconcile job reads it, its payment intent expanded. */
export interface SessionState {
  /** 'open', 'complete' or 'expired'. */
  status: string | null;
  /** 'paid', 'unpaid' or 'no_payment_required'. */
  payment_status: string;
  /** The expanded payment intent's status, or null. */
  payment_intent_status: string | null;
}

/**
 * The Checkout event a session's state amounts to, for an order whose webhook may have been lost,
 * with the id part (`reconcile:{session}:{finding}`) that makes it an event of its own, or null
 * while Stripe cannot settle it (a checkout still open, a delayed payment still processing):
 * paid; completed unpaid with its delayed payment failed (what async_payment_failed says); expired.
 */
export function sessionFinding(
  s: SessionState,
): { type: string; finding: 'complete' | 'payment_failed' | 'expired' } | null {
  if (s.status === 'complete' && s.payment_status === 'paid')
    return { type: 'checkout.session.completed', finding: 'complete' };
  if (
    s.status === 'complete' &&
    s.payment_status === 'unpaid' &&
    s.payment_intent_status !== null &&
    FAILED_PAYMENT_INTENT_STATUSES.includes(s.payment_intent_status)
  )
    return { type: 'checkout.session.async_payment_failed', finding: 'payment_failed' };
  if (s.status === 'expired') return { type: 'checkout.session.expired', finding: 'expired' };
  return null;
}
