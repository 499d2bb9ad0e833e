import type { SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import {
  type ApplyOutcome,
  applyOrderEvent,
  getOrder,
  nextTermOf,
  type OrderEventInput,
  orderByPaymentIntent,
  orderBySession,
} from '../../../db/queries/orders';
import { getServerById } from '../../../db/queries/servers';
import type { OrderRow } from '../../../db/schema';
import type { OrderEvent } from '../../../src/lib/pricing/order-machine';
import { type CheckoutSession, type StripeClient, StripeRefusal, stripeFor } from '../clients/stripe';
import type { AppDeps } from '../context';
import {
  orderPartlyRefundedMail,
  orderReceiptMail,
  orderRefundedMail,
  placementEndedMail,
  termMovedMail,
} from '../mail/orders';
import { mailSite } from '../mail/site';
import { ApiError } from './errors';
import { type PendingPublish, preparePublish, serverPaths } from './site-changes';

/**
 * Applies one order event (db/queries/orders.ts applyOrderEvent) with the payer's mails rendered
 * for the order's listing, and asks for the rebuild of the pages a started or ended slot changes:
 * their record is written in the event's batch, so an event stored without it cannot happen.
 */
export async function applyEvent(
  deps: Pick<AppDeps, 'db' | 'env' | 'rebuild'>,
  input: OrderEventInput,
  /** More writes for the event's batch (applyOrderEvent's `alsoWrite`: the refund's audit row). */
  alsoWrite?: (applied: SQL) => BatchItem<'sqlite'>[],
): Promise<ApplyOutcome> {
  const order = input.orderId ? await getOrder(deps.db, input.orderId) : null;
  const listing = order?.server_id ? await getServerById(deps.db, order.server_id) : null;
  const site = mailSite(deps.env);
  // A listing deleted since its order was paid is named as the order kept it.
  const named = { name: listing?.name ?? (order?.server_name || 'your listing'), slug: listing?.slug ?? '' };
  // A term that ends with the listing's next one of its placement carrying on, or booked later: its end mail says so.
  const next = order && input.event === 'ended' ? await nextTermOf(deps.db, order) : null;
  let placement: PendingPublish | undefined;
  const outcome = await applyOrderEvent(deps.db, input, {
    slotsPerCategory: deps.env.SPONSORED_SLOTS_PER_CATEGORY,
    mails: {
      mail_receipt: (o) => orderReceiptMail(site, o, named),
      mail_refund: (o, refund) => orderRefundedMail(site, o, named, refund),
      mail_partial_refund: (o, refund) => orderPartlyRefundedMail(site, o, named, refund),
      mail_end: (o) => placementEndedMail(site, o, named, next),
    },
    movedMail: (facts) => termMovedMail(site, facts),
    alsoWrite: (applied, change) => {
      const own = alsoWrite?.(applied) ?? [];
      // The last attempt's record is the one stored (an attempt that lost a race writes nothing).
      placement = undefined;
      if (!listing || !order || !change.effects.some((e) => e === 'activate' || e === 'deactivate')) return own;
      // A placement changes the listing's card and its place in the listings it is in: published as
      // an edit is, recorded with the event, before its answer (a webhook's 200, a clock or reconcile
      // pass). Terms a refund moved up (other listings' waiting for the slot too) change theirs.
      const moved = change.moved.map((m) => m.slug).filter((slug) => slug && slug !== listing.slug);
      const also = moved.length > 0 ? ` (moved up: ${moved.join(', ')})` : '';
      const reason = `placement of ${listing.slug}: order ${order.id} ${change.state}${also}`;
      placement = preparePublish(
        deps.rebuild,
        deps.db,
        reason,
        serverPaths([listing.slug, ...new Set(moved)]),
        applied,
      );
      return [...own, ...placement.statements];
    },
  });
  if (outcome.kind === 'applied') await placement?.requested();
  return outcome;
}

/** The order of a Checkout session: by the id the app gave Stripe, checked against the stored session. */
async function orderOfSession(deps: Pick<AppDeps, 'db'>, session: CheckoutSession): Promise<OrderRow | null> {
  const byId = session.order_id ? await getOrder(deps.db, session.order_id) : null;
  const order = byId ?? (await orderBySession(deps.db, session.id));
  if (!order) return null;
  // Never another order's session, never another price than the one the server set: the subtotal,
  // before the tax Stripe Tax adds on top (STRIPE_AUTOMATIC_TAX) when the payer's address is known.
  if (order.stripe_session_id && order.stripe_session_id !== session.id) return null;
  const price = session.amount_subtotal ?? session.amount_total;
  if (price !== null && price !== order.amount_cents) return null;
  if (session.currency && session.currency !== order.currency) return null;
  return order;
}

/** What a Checkout session's state means for its order. */
export function sessionEvent(type: string, session: CheckoutSession): OrderEvent | null {
  switch (type) {
    case 'checkout.session.completed':
      // A delayed method (a bank debit) completes unpaid; its async_payment_* event decides.
      return session.payment_status === 'paid' ? 'paid' : null;
    case 'checkout.session.async_payment_succeeded':
      return 'paid';
    case 'checkout.session.async_payment_failed':
      return 'payment_failed';
    case 'checkout.session.expired':
      return 'expired';
    default:
      return null;
  }
}

/** A Checkout session event (from a webhook or the reconcile job) as an order event. */
export async function sessionEventInput(
  deps: Pick<AppDeps, 'db'>,
  eventId: string,
  type: string,
  session: CheckoutSession,
  at: number,
): Promise<OrderEventInput> {
  const order = await orderOfSession(deps, session);
  return {
    eventId,
    type,
    orderId: order?.id ?? null,
    event: order ? sessionEvent(type, session) : null,
    at,
    sessionId: session.id,
    paymentIntent: session.payment_intent,
    customerEmail: session.customer_email,
  };
}

/** What a charge event means for its order: a refund (of all or part of it), a dispute opened, a dispute lost (null: nothing, e.g. one won). */
function chargeEvent(type: string, object: { status?: unknown; refunded?: unknown }): OrderEvent | null {
  switch (type) {
    case 'charge.refunded':
      // Sent for partial refunds too; `refunded` is true only once the whole charge is (Stripe's Charge object).
      return object.refunded === false ? 'partially_refunded' : 'refunded';
    case 'charge.dispute.created':
      return 'disputed';
    case 'charge.dispute.closed':
      // Lost: the bank keeps the money withdrawn at the dispute's opening for the cardholder, and
      // Stripe sends no charge.refunded for it. Won: the money is back; the placement stays suspended.
      return object.status === 'lost' ? 'dispute_lost' : null;
    default:
      return null;
  }
}

/**
 * A charge event (charge.refunded, charge.dispute.created, charge.dispute.closed) as an order
 * event: the order by its payment intent, or, when the event comes before the checkout's
 * completion (events arrive out of order), by asking Stripe which Checkout session made that
 * payment intent.
 */
export async function chargeEventInput(
  deps: Pick<AppDeps, 'db'>,
  stripe: StripeClient,
  eventId: string,
  type: string,
  object: {
    payment_intent?: unknown;
    amount_refunded?: unknown;
    amount?: unknown;
    status?: unknown;
    refunded?: unknown;
  },
  at: number,
): Promise<OrderEventInput> {
  const pi = typeof object.payment_intent === 'string' ? object.payment_intent : null;
  let order = pi ? await orderByPaymentIntent(deps.db, pi) : null;
  let session: CheckoutSession | null = null;
  if (!order && pi) {
    session = await stripe.sessionOfPaymentIntent(pi);
    order = session ? await orderOfSession(deps, session) : null;
  }
  const event = order ? chargeEvent(type, object) : null;
  // A partial refund's running total of the charge, and the charge's amount (price and tax).
  const refunded = event === 'partially_refunded' ? object.amount_refunded : null;
  return {
    eventId,
    type,
    orderId: order?.id ?? null,
    event,
    at,
    paymentIntent: pi,
    sessionId: session?.id ?? null,
    customerEmail: session?.customer_email ?? null,
    refundedCents: typeof refunded === 'number' ? refunded : null,
    chargeCents: event === 'partially_refunded' && typeof object.amount === 'number' ? object.amount : null,
    ...(event === 'dispute_lost' ? { refundReason: 'card dispute lost' } : {}),
  };
}

/**
 * The answer to a refund Stripe did not make: 409 `refund_refused` with Stripe's reason when it
 * read the request and said no (a charge already refunded in the dashboard, a disputed charge),
 * 502 `stripe_unavailable` when it did not answer.
 */
function refundFailure(error: unknown): ApiError {
  if (error instanceof StripeRefusal)
    return new ApiError(409, 'refund_refused', `Stripe refused the refund: ${error.message}`);
  return new ApiError(502, 'stripe_unavailable', 'Stripe did not answer. Try again in a minute.');
}

/**
 * Refunds a paid order through Stripe at once (an owner's request within 30 days, or an operator's)
 * and applies the refund as its event: the slot ends, the payer is mailed, revenue drops. 503 when
 * payments are not set up; Stripe's refusal or silence as refundFailure says. The caller checked
 * that the order may be refunded; `audit`, its audit row of the refund (Stripe's refund named),
 * is written in the event's batch: the refund is recorded with its audit or not at all. If that
 * batch fails, Stripe has refunded all the same: its `charge.refunded` applies the refund (once),
 * and pressing Refund again gets the same refund from Stripe (one idempotency key per order) and
 * records it with its audit.
 */
export async function refundThroughStripe(
  deps: Pick<AppDeps, 'db' | 'env' | 'rebuild' | 'fetch'>,
  order: OrderRow & { stripe_payment_intent: string },
  reason: string | null,
  at: number,
  audit: (refund: { id: string; amount: number }, applied: SQL) => BatchItem<'sqlite'>,
): Promise<{ refund: { id: string; amount: number }; outcome: ApplyOutcome }> {
  const stripe = stripeFor(deps);
  if (!stripe) throw new ApiError(503, 'payments_not_configured', 'Payments are not set up on this site.');
  const refund = await stripe.refund(order.stripe_payment_intent, order.id).catch((error: unknown) => {
    throw refundFailure(error);
  });
  const outcome = await applyEvent(
    deps,
    {
      eventId: `refund:${refund.id}`,
      type: 'app.refund',
      orderId: order.id,
      event: 'refunded',
      at,
      refundReason: reason,
    },
    (applied) => [audit(refund, applied)],
  );
  return { refund, outcome };
}
