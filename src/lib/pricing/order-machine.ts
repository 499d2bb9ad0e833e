import type { OrderState } from '../enums';

/**
 * What can happen to an order (#30), from Stripe's events, the owner's or an admin's refund, the
 * reconcile job and the clock:
 * - `paid`: checkout.session.completed with payment_status 'paid', or async_payment_succeeded
 * - `payment_failed`: checkout.session.async_payment_failed
 * - `expired`: checkout.session.expired
 * - `refunded`: charge.refunded of the whole charge, or a refund made through the API (the rest of it)
 * - `partially_refunded`: charge.refunded of part of the charge (a goodwill refund in Stripe's
 *   dashboard): money out, and the placement runs on; each later one carries the charge's new total
 * - `disputed`: charge.dispute.created
 * - `dispute_lost`: charge.dispute.closed with status 'lost': the card's bank gave the money back
 *   (Stripe sends no charge.refunded for it), so it is money out, without the site's refund mail
 * - `ended`: the term is over (the clock)
 */
export const ORDER_EVENTS = [
  'paid',
  'payment_failed',
  'expired',
  'refunded',
  'partially_refunded',
  'disputed',
  'dispute_lost',
  'ended',
] as const;
export type OrderEvent = (typeof ORDER_EVENTS)[number];

/**
 * The effects that are the payer's mails, each written to the outbox with the event's batch: the
 * receipt, the refund that ends the order, a partial refund (each step that gives money back), the end.
 */
export const MAIL_EFFECTS = ['mail_receipt', 'mail_refund', 'mail_partial_refund', 'mail_end'] as const;
export type MailEffect = (typeof MAIL_EFFECTS)[number];

/**
 * What a transition asks the database to do, in the event's one batch:
 * - `record_payment`: money in (paid_at, the amount counted as revenue)
 * - `activate`: the slot starts now or at its scheduled start; `deactivate`: it ends now
 * - `record_refund`: money out (refunded_at, the amount counted against revenue): the whole price on
 *   `refunded` or `dispute_lost`, the refunded total so far on `partially_refunded` (never counted twice)
 * - `move_up_next`: the booked terms after a refunded one move up into the days it gave back (as
 *   early as the slot rule allows): the listing's own next terms of the placement, so a paid next
 *   term starts now instead of leaving the listing without its placement until its booked start,
 *   and for Sponsored the terms of other listings waiting for a slot of the category (first come,
 *   first served: movedUp). Not on a dispute: that suspends the placement, and the terms keep their dates.
 * - the mails (MAIL_EFFECTS): the receipt, the refund, a partial refund and the end of the placement
 *   (a partial refund's mail goes out only for a step that gives money back: a redelivered one does not)
 */
export const ORDER_EFFECTS = [
  'record_payment',
  'activate',
  'deactivate',
  'record_refund',
  'move_up_next',
  ...MAIL_EFFECTS,
] as const;
export type OrderEffect = (typeof ORDER_EFFECTS)[number];

export interface Transition {
  state: OrderState;
  effects: OrderEffect[];
}

const stay = (state: OrderState): Transition => ({ state, effects: [] });

/**
 * The one order state machine: (state, event) → (state, effects). Events arrive twice, late and
 * out of order, so every pair has an answer and a repeated event changes nothing. Money taken is
 * always recorded (a payment that follows a refund or a dispute still counts, and is netted by the
 * refund); a placement runs only while an order is `paid`. `refunded` is final. A partial refund
 * is money out that leaves the order as it was (a placement runs on; one that arrives before the
 * payment's own event is the payment too, as the charge was made).
 */
export function transition(state: OrderState, event: OrderEvent): Transition {
  switch (state) {
    case 'open':
    case 'expired':
    case 'failed':
      // A checkout left to expire or a failed delayed payment has taken no money; a payment that
      // still arrives (out of order) is honoured, since it was taken.
      if (event === 'paid') return { state: 'paid', effects: ['record_payment', 'activate', 'mail_receipt'] };
      if (event === 'partially_refunded')
        return {
          state: 'paid',
          effects: ['record_payment', 'activate', 'mail_receipt', 'record_refund', 'mail_partial_refund'],
        };
      if (event === 'refunded')
        return { state: 'refunded', effects: ['record_payment', 'record_refund', 'mail_refund'] };
      if (event === 'disputed') return { state: 'disputed', effects: ['record_payment'] };
      if (event === 'dispute_lost') return { state: 'refunded', effects: ['record_payment', 'record_refund'] };
      if (state === 'open' && event === 'expired') return stay('expired');
      if (state === 'open' && event === 'payment_failed') return stay('failed');
      return stay(state);
    case 'paid':
      if (event === 'refunded')
        return { state: 'refunded', effects: ['record_refund', 'deactivate', 'move_up_next', 'mail_refund'] };
      if (event === 'disputed') return { state: 'disputed', effects: ['deactivate'] };
      if (event === 'dispute_lost') return { state: 'refunded', effects: ['record_refund', 'deactivate'] };
      if (event === 'ended') return { state: 'ended', effects: ['deactivate', 'mail_end'] };
      if (event === 'partially_refunded') return { state: 'paid', effects: ['record_refund', 'mail_partial_refund'] };
      return stay('paid');
    case 'ended':
      if (event === 'refunded') return { state: 'refunded', effects: ['record_refund', 'mail_refund'] };
      if (event === 'disputed') return stay('disputed');
      if (event === 'dispute_lost') return { state: 'refunded', effects: ['record_refund'] };
      if (event === 'partially_refunded') return { state: 'ended', effects: ['record_refund', 'mail_partial_refund'] };
      return stay('ended');
    case 'disputed':
      // A refund of the charge (an admin's, before the bank decided); a lost dispute is money out
      // without the site's refund mail; a won one leaves the placement suspended.
      if (event === 'refunded') return { state: 'refunded', effects: ['record_refund', 'mail_refund'] };
      if (event === 'dispute_lost') return { state: 'refunded', effects: ['record_refund'] };
      if (event === 'partially_refunded')
        return { state: 'disputed', effects: ['record_refund', 'mail_partial_refund'] };
      return stay('disputed');
    case 'refunded':
      return stay('refunded');
  }
}

/** Whether an order in `state` holds (or waits for) a slot. */
export const holdsSlot = (state: OrderState): boolean => state === 'paid';

/** The states of a paid order that may still hold money or take it: they keep its listing from deletion. */
export const MONEY_HELD_STATES: readonly OrderState[] = ['open', 'paid', 'disputed'];

/**
 * Why a listing may not be deleted while one of its paid orders still holds money or may take it
 * (an open checkout Stripe can still be paid on, a running or scheduled placement, an open card
 * dispute), or null: the placement would go on for a listing that is gone. The orders outlive it
 * (server_id set null, migration 0023). Comps hold no money and never keep a listing.
 */
export function removalRefusal(
  held: readonly { state: OrderState; kind: string }[],
  by: 'owner' | 'operator',
): string | null {
  const paid = held.filter((o) => o.kind === 'checkout' && MONEY_HELD_STATES.includes(o.state));
  if (paid.some((o) => o.state === 'paid'))
    return by === 'owner'
      ? 'This listing has a paid placement running or scheduled: ask for a refund under Placements first, or remove it once the placement has ended.'
      : 'This listing has a paid placement running or scheduled: refund it under Orders first, or hide the listing instead.';
  if (paid.some((o) => o.state === 'disputed'))
    return by === 'owner'
      ? 'A card dispute on this listing’s placement is still open: write to support to remove it.'
      : 'A card dispute on this listing’s placement is still open: hide the listing instead while it lasts.';
  if (paid.some((o) => o.state === 'open'))
    return 'A checkout for this listing is still open and can be paid for up to an hour: remove it once that checkout has closed.';
  return null;
}

/** The refusal when a listing was kept by an order that closed before its reasons could be read. */
export const REMOVAL_RACED = 'A placement of this listing changed while it was being removed: try again.';
