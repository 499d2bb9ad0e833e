import { placementDay } from './plans';

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
const FAILED_PAYMENT_INTENT_STATUSES: readonly string[] = ['requires_payment_method', 'canceled'];

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

/**
 * What the page Stripe Checkout sends the owner back to (/account/paid) says of a checkout, from
 * its order and, while the order is open, from Stripe's session (null: Stripe not asked or not
 * answering). Read from the server: the page's address proves nothing.
 */
export const CHECKOUT_OUTCOMES = [
  'placed',
  'scheduled',
  'confirming',
  'processing',
  'failed',
  'not_paid',
  'unknown',
  'ended',
  'refunded',
  'disputed',
] as const;
export type CheckoutOutcome = (typeof CHECKOUT_OUTCOMES)[number];

/** The outcome of an order's checkout at `now` (ms), as /account/paid says it. */
export function checkoutOutcome(
  order: { state: string; starts_at: string | null },
  session: SessionState | null,
  now: number,
): CheckoutOutcome {
  switch (order.state) {
    case 'paid':
      return order.starts_at && Date.parse(order.starts_at) > now ? 'scheduled' : 'placed';
    case 'failed':
      return 'failed';
    case 'expired':
      return 'not_paid';
    case 'ended':
    case 'refunded':
    case 'disputed':
      return order.state;
  }
  // Open: the order waits for Stripe's event; the session says where the payment is.
  if (!session) return 'unknown';
  const found = sessionFinding(session);
  if (found?.finding === 'complete') return 'confirming';
  if (found?.finding === 'payment_failed') return 'failed';
  if (session.status === 'complete' && session.payment_status === 'unpaid') return 'processing';
  return 'not_paid';
}

/** The heading and text /account/paid shows for each outcome (only what is true of it). */
export const CHECKOUT_OUTCOME_TEXT: Record<CheckoutOutcome, { heading: string; text: string }> = {
  placed: {
    heading: 'Thank you: payment received',
    text: 'Your placement is running. A receipt went to the email address you paid with, and My listings shows when it ends.',
  },
  scheduled: {
    heading: 'Thank you: payment received',
    text: "Your placement is booked and starts on the date My listings shows (its category's Sponsored slots are all taken until then, or the listing's current term of it still runs). A receipt went to the email address you paid with.",
  },
  confirming: {
    heading: 'Thank you: payment received',
    text: 'Stripe has taken the payment and tells us about it within a minute or so; the placement starts then. A receipt goes to the email address you paid with.',
  },
  processing: {
    heading: 'Payment processing',
    text: 'Your bank payment is on its way: such payments take a few business days to clear. The placement starts when it clears, and a receipt goes to the email address you paid with then. If the bank refuses it, nothing is charged and My listings says so.',
  },
  failed: {
    heading: 'Payment failed: nothing was charged',
    text: 'Your bank did not complete the payment, so there is no charge and no placement. Press Promote again in My listings to pay another way.',
  },
  not_paid: {
    heading: 'Not paid yet',
    text: 'This checkout has not been paid, so there is no charge and no placement. Press Promote in My listings to pay, or to choose another plan.',
  },
  unknown: {
    heading: 'Checking your payment',
    text: 'We could not reach Stripe to check this payment just now. My listings shows the order and whether it is paid; reload this page in a minute.',
  },
  ended: { heading: 'This placement has ended', text: 'My listings shows the order and when it ran.' },
  refunded: { heading: 'This payment was refunded', text: 'The money went back to the card, and the placement ended.' },
  disputed: {
    heading: 'This payment is disputed',
    text: 'The card’s bank is looking into this payment; the placement is suspended meanwhile.',
  },
};

/**
 * What /account/paid says of an outcome with the dates the server gave (GET
 * /api/account/checkouts/:session): a running placement's end, a booked one's own start and end,
 * and, while Stripe's event is on its way or a bank payment clears, the dates of a term that
 * follows the listing's current one (or waits for a Sponsored slot) instead of a start on arrival.
 * Without dates, CHECKOUT_OUTCOME_TEXT.
 */
export function checkoutOutcomeText(
  outcome: CheckoutOutcome,
  dates: { starts_at: string | null; ends_at: string | null },
): { heading: string; text: string } {
  const { heading, text } = CHECKOUT_OUTCOME_TEXT[outcome];
  const { starts_at: from, ends_at: until } = dates;
  if (!until) return { heading, text };
  const receipt = 'A receipt went to the email address you paid with.';
  const waits =
    "this listing's current term of that placement runs until then, or its category's Sponsored slots are all taken";
  switch (outcome) {
    case 'placed':
      return { heading, text: `Your placement is running until ${placementDay(until)}. ${receipt}` };
    case 'scheduled':
      if (!from) return { heading, text };
      return {
        heading,
        text: `Your placement is booked from ${placementDay(from)} until ${placementDay(until)} (${waits}). ${receipt}`,
      };
    case 'confirming':
      if (!from) return { heading, text };
      return {
        heading,
        text: `Stripe has taken the payment and tells us about it within a minute or so. Your placement runs from ${placementDay(from)} until ${placementDay(until)} (${waits}). A receipt goes to the email address you paid with.`,
      };
    case 'processing':
      if (!from) return { heading, text };
      return {
        heading,
        text: `Your bank payment is on its way: such payments take a few business days to clear. The placement starts when it clears, and not before ${placementDay(from)} (${waits}). A receipt goes to the email address you paid with then. If the bank refuses it, nothing is charged and My listings says so.`,
      };
    default:
      return { heading, text };
  }
}
