import type { Placement } from '../enums';

/** A plan as the pages and the checkout read it (the plans table, #30). */
export interface Plan {
  id: number;
  name: string;
  placement: Placement;
  term_days: number;
  /** In the currency's smallest unit. */
  price_cents: number;
  /** ISO 4217 in lower case, as Stripe writes it. */
  currency: string;
  active: boolean;
}

/** Days after payment within which an owner can ask for a refund in /account (admins can refund any order). */
export const REFUND_WINDOW_DAYS = 30;

/** Days before a slot ends that its reminder mail goes out. */
export const REMINDER_DAYS = 3;

/** Days of revenue per day the console shows (the Dashboard and the Orders screen). */
export const REVENUE_DAYS = 30;

/** Sponsored listings per category at once unless SPONSORED_SLOTS_PER_CATEGORY says otherwise. */
export const DEFAULT_SPONSORED_SLOTS = 3;

export const DAY_MS = 86_400_000;

/** Currencies with no minor unit (Stripe's zero-decimal list, the ones a plan could plausibly use). */
const ZERO_DECIMAL = new Set(['jpy', 'krw', 'vnd', 'clp', 'isk', 'ugx', 'xaf', 'xof']);

/** A price as pages print it: "$49.00", "€9.50", "¥500"; never broken inside (a no-break space where the locale puts one). */
export function formatPrice(cents: number, currency: string): string {
  const code = currency.toUpperCase();
  const amount = ZERO_DECIMAL.has(currency.toLowerCase()) ? cents : cents / 100;
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).format(amount).replace(/ /g, '\u00a0');
}

/** "7 days", "1 day", "30 days". */
export const formatTerm = (days: number): string => `${days}\u00a0${days === 1 ? 'day' : 'days'}`;

/** Where a placement shows, in words for the pricing page, the Promote panel and the receipt. */
export const PLACEMENT_WHERE: Record<Placement, string> = {
  premium: 'a Premium label and a turn in Premium Picks on the home page; lists keep their organic order and ranks',
  sponsored:
    "a Sponsored label, a turn in Premium Picks on the home page, and the head of its category's list (the first paid position; one paid card in five); other lists keep their organic order, and ranks never change",
};

/** The refund rule, as every page and mail says it. */
export const REFUND_RULE = `A refund is one click in My listings within ${REFUND_WINDOW_DAYS} days of payment: Stripe sends the money back to the card at once (a bank usually shows it within 5 to 10 business days), and the placement ends at once, or is cancelled if its term has not started.`;

/**
 * The states in which an owner can ask for the money back within the window: a placement running,
 * scheduled, or already over (a week's placement ends before the 30 days do; the promise is from
 * payment). Not a disputed order: the card's bank handles that money.
 */
export const OWNER_REFUNDABLE_STATES: readonly string[] = ['paid', 'ended'];

/**
 * The part of an order's price that a charge's refunded total gives back: in proportion to the
 * charge when its amount is known (Stripe Tax adds exclusive tax on top of the price, and a refund
 * gives back tax and price alike; the tax was never revenue), else the total itself; never more than the price.
 */
export function refundedPriceCents(refundedTotal: number, chargeAmount: number | null, price: number): number {
  const share = chargeAmount && chargeAmount > 0 ? Math.round((refundedTotal * price) / chargeAmount) : refundedTotal;
  return Math.max(0, Math.min(share, price));
}

/**
 * How much of an order's price has come back, as My listings and the refund mails say it: "$5.00
 * of $20.00 refunded" (`refundedCents` is the price's share, order_refunds added up).
 */
export const refundedWords = (refundedCents: number, amountCents: number, currency: string): string =>
  `${formatPrice(refundedCents, currency)} of ${formatPrice(amountCents, currency)} refunded`;

/** What My listings adds to an order refunded in part (null: none, or all of it, which its state says). */
export const partRefundedWords = (refundedCents: number, amountCents: number, currency: string): string | null =>
  refundedCents > 0 && refundedCents < amountCents ? refundedWords(refundedCents, amountCents, currency) : null;

/** Whether `paidAt` (ISO) is within the owner's refund window at `now` (ms). */
export function refundableByOwner(paidAt: string | null, now: number): boolean {
  if (!paidAt) return false;
  return now - Date.parse(paidAt) <= REFUND_WINDOW_DAYS * DAY_MS;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The UTC day of an ISO time as pages say it: "3 Jan 2027" (no-break spaces: never wrapped inside). */
export function placementDay(iso: string): string {
  const d = new Date(iso);
  return `${d.getUTCDate()}\u00a0${MONTHS[d.getUTCMonth()]}\u00a0${d.getUTCFullYear()}`;
}
