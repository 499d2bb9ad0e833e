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
