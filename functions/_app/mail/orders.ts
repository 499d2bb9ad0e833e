import type { RenderedMail } from '../../../db/queries/mail';
import type { MovedTermFacts, OrderMailFacts } from '../../../db/queries/orders';
import type { OrderRow } from '../../../db/schema';
import { formatPrice, formatTerm, PLACEMENT_WHERE, REFUND_RULE, refundedWords } from '../../../src/lib/pricing/plans';
import { type MailSite, renderMail } from './layout';

/** What the placement mails say of the order's listing. */
export interface OrderListing {
  name: string;
  slug: string;
}

const kindOf = (o: OrderRow) => (o.placement === 'sponsored' ? 'Sponsored' : 'Premium');
const day = (isoTime: string | null) => (isoTime ? `${isoTime.slice(0, 10)} (UTC)` : 'not set');

/** The receipt, written with the payment: amount, term, listing, when it runs, the refund rule. */
export function orderReceiptMail(site: MailSite, o: OrderRow, listing: OrderListing): RenderedMail {
  return renderMail(site, {
    subject: `Receipt: ${kindOf(o)} placement for ${listing.name}`,
    heading: `Thank you: ${kindOf(o)} placement for ${listing.name} is paid.`,
    blocks: [
      {
        kind: 'list',
        items: [
          { text: `Amount: ${formatPrice(o.amount_cents, o.currency)}` },
          { text: `Term: ${formatTerm(o.term_days)}, no renewal` },
          { text: `Runs from ${day(o.starts_at)} until ${day(o.ends_at)}` },
          { text: `What it gives: ${PLACEMENT_WHERE[o.placement]}.` },
        ],
      },
      { kind: 'p', text: REFUND_RULE },
      { kind: 'link', label: 'Your listing', href: `${site.url}/server/${listing.slug}` },
      { kind: 'link', label: 'My listings (refunds)', href: `${site.url}/account` },
    ],
  });
}

/** The listing's next paid term of a placement, as the reminder and end mails name it (nextTermOf). */
export type NextTerm = Pick<OrderRow, 'starts_at' | 'ends_at'>;

/**
 * When the listing's next term, already paid, starts after `o` ends (null: it carries on from the
 * end): it waits for a Sponsored slot, and the placement stops in between.
 */
function laterStart(o: OrderRow, next: NextTerm | null): string | null {
  if (!next?.starts_at || !o.ends_at || next.starts_at <= o.ends_at) return null;
  const why = o.placement === 'sponsored' ? ', the first day a Sponsored slot of its category is free' : '';
  return `Your next term, already paid, starts on ${day(next.starts_at)}${why}, and runs until ${day(next.ends_at)}: the listing has no ${kindOf(o)} placement until then. There is nothing to buy.`;
}

/**
 * Three days before the slot ends (never for a term the listing's next one carries on from:
 * ordersToRemind). `next`, the listing's next term booked to start later: the mail says when,
 * never to buy one again.
 */
export function placementReminderMail(
  site: MailSite,
  o: OrderRow,
  listing: OrderListing,
  next: NextTerm | null = null,
): RenderedMail {
  const later = laterStart(o, next);
  return renderMail(site, {
    subject: `${listing.name}: ${kindOf(o)} placement ends on ${day(o.ends_at)}`,
    heading: `The ${kindOf(o)} placement of ${listing.name} ends on ${day(o.ends_at)}.`,
    blocks: [
      { kind: 'p', text: later ?? 'It does not renew by itself. To keep it, buy a new term from My listings.' },
      { kind: 'link', label: 'My listings', href: `${site.url}/account` },
    ],
  });
}

/**
 * When the term is over; `next`, the listing's next term of the same placement (nextTermOf): one
 * that carries on from its end (bought while it ran), and the mail says until when the placement
 * runs on; or one booked to start later, and the mail says when.
 */
export function placementEndedMail(
  site: MailSite,
  o: OrderRow,
  listing: OrderListing,
  next: NextTerm | null = null,
): RenderedMail {
  const later = laterStart(o, next);
  if (next && !later)
    return renderMail(site, {
      subject: `${listing.name}: your next ${kindOf(o)} term has started`,
      heading: `The ${kindOf(o)} term of ${listing.name} paid until ${day(o.ends_at)} is over, and your next term has started.`,
      blocks: [
        { kind: 'p', text: `The placement runs on until ${day(next.ends_at)}, as your receipt for that term says.` },
        { kind: 'link', label: 'My listings', href: `${site.url}/account` },
      ],
    });
  return renderMail(site, {
    subject: `${listing.name}: ${kindOf(o)} placement ended`,
    heading: `The ${kindOf(o)} placement of ${listing.name} has ended.`,
    blocks: [
      { kind: 'p', text: 'The listing stays in the directory as before, with its organic rank.' },
      ...(later ? [{ kind: 'p' as const, text: later }] : []),
      { kind: 'link', label: 'My listings', href: `${site.url}/account` },
    ],
  });
}

/**
 * What a refund mail says of one refund: this step's money (the price's share, order_refunds),
 * when it was made, and what became of the term (db/queries/orders.ts OrderMailFacts).
 */
export type RefundStep = OrderMailFacts;

const BANK_DELAY = 'Your bank shows the refund within 5 to 10 business days.';

/**
 * What became of the term a refund ended (cancelled before it started, or ended) and of the
 * listing's next term booked after it (moved up into the days given back, or as booked, with
 * the days the listing goes without its placement).
 */
function afterRefund(o: OrderRow, step: RefundStep): string {
  const booked = step.cancelled;
  const term = !booked
    ? step.next
      ? 'This term has ended.'
      : 'The placement has ended.'
    : booked.starts_at
      ? `The term booked from ${day(booked.starts_at)} until ${day(booked.ends_at)} is cancelled and will not run.`
      : 'The placement is cancelled and will not run.';
  const next = step.next;
  if (!next) return term;
  const runs = `it runs from ${day(next.starts_at)} until ${day(next.ends_at)}`;
  const until = step.placedUntil ?? step.at;
  const gap =
    next.starts_at <= until
      ? ''
      : until <= step.at
        ? `, and the listing has no ${kindOf(o)} placement until then`
        : `, and the listing has no ${kindOf(o)} placement from ${day(until)} until then`;
  const yours = `Your next ${kindOf(o)} term, already paid,`;
  if (next.moved && next.starts_at <= step.at) return `${term} ${yours} has started in its place: ${runs}.`;
  if (next.moved) return `${term} ${yours} now starts earlier: ${runs}${gap}.`;
  return `${term} ${yours} goes ahead as booked: ${runs}${gap}.`;
}

/**
 * When the money went back and the order ends (`o` after it: refunded_cents is all of the price).
 * After earlier partial refunds it names what this one gave back (the rest), not the whole price
 * as if it all came back now.
 */
export function orderRefundedMail(site: MailSite, o: OrderRow, listing: OrderListing, step: RefundStep): RenderedMail {
  const price = (cents: number) => formatPrice(cents, o.currency);
  const earlier = o.refunded_cents - step.cents;
  const heading =
    earlier <= 0
      ? `We refunded ${price(step.cents)} for the ${kindOf(o)} placement of ${listing.name}.`
      : step.cents > 0
        ? `We refunded the remaining ${price(step.cents)} for the ${kindOf(o)} placement of ${listing.name}.`
        : `All of the ${price(o.amount_cents)} for the ${kindOf(o)} placement of ${listing.name} has been refunded.`;
  return renderMail(site, {
    subject: `Refund: ${kindOf(o)} placement for ${listing.name}`,
    heading,
    blocks: [
      ...(earlier > 0
        ? [
            {
              kind: 'p' as const,
              text: `${refundedWords(o.refunded_cents, o.amount_cents, o.currency)} in all: ${price(earlier)} in earlier refunds and ${price(step.cents)} now.`,
            },
          ]
        : []),
      { kind: 'p', text: `${afterRefund(o, step)} ${BANK_DELAY}` },
      { kind: 'link', label: 'My listings', href: `${site.url}/account` },
    ],
  });
}

/** What becomes of the placement after a partial refund (`o` after it), in the order's state. */
function afterPartialRefund(o: OrderRow, at: string): string {
  if (o.state === 'disputed') return 'The placement stays suspended while the card dispute is open.';
  if (o.state === 'ended') return `The placement ran until ${day(o.ends_at)}.`;
  if (o.starts_at && o.starts_at > at)
    return `The placement goes ahead as booked: it runs from ${day(o.starts_at)} until ${day(o.ends_at)}.`;
  return `The placement runs on until ${day(o.ends_at)}.`;
}

/**
 * A refund of part of the price (made in Stripe's dashboard, one step of order_refunds): what this
 * one gave back, the total so far when earlier ones came before, and that the placement goes on.
 */
export function orderPartlyRefundedMail(
  site: MailSite,
  o: OrderRow,
  listing: OrderListing,
  step: RefundStep,
): RenderedMail {
  const price = (cents: number) => formatPrice(cents, o.currency);
  return renderMail(site, {
    subject: `Partial refund: ${kindOf(o)} placement for ${listing.name}`,
    heading: `We refunded ${price(step.cents)} of the ${price(o.amount_cents)} for the ${kindOf(o)} placement of ${listing.name}.`,
    blocks: [
      ...(o.refunded_cents > step.cents
        ? [{ kind: 'p' as const, text: `${refundedWords(o.refunded_cents, o.amount_cents, o.currency)} so far.` }]
        : []),
      { kind: 'p', text: `${afterPartialRefund(o, step.at)} ${BANK_DELAY}` },
      { kind: 'link', label: 'My listings', href: `${site.url}/account` },
    ],
  });
}

/**
 * To the payer of a booked term a refund moved up (MovedTermFacts): the term before it on the
 * same listing was refunded, or a Sponsored slot of its category came free; the dates it was booked
 * for and the new ones, each as long as before. Nothing to pay or do.
 */
export function termMovedMail(site: MailSite, moved: MovedTermFacts): RenderedMail {
  const kind = moved.order.placement === 'sponsored' ? 'Sponsored' : 'Premium';
  const started = moved.now.starts_at <= moved.at;
  const why = moved.sameListing
    ? `The listing's ${kind} term before this one was refunded, so this one moves up into the days that refund gave back.`
    : `A Sponsored slot of the ${moved.order.category} category came free early, so this term moves up into it.`;
  return renderMail(site, {
    subject: `${moved.listing.name}: your ${kind} term ${started ? 'has started early' : 'now starts earlier'}`,
    heading: `Your ${kind} term for ${moved.listing.name}, already paid, ${started ? 'has started early' : 'now starts earlier'}.`,
    blocks: [
      { kind: 'p', text: why },
      {
        kind: 'list',
        items: [
          { text: `Booked: from ${day(moved.was.starts_at)} until ${day(moved.was.ends_at)}` },
          { text: `Now: from ${day(moved.now.starts_at)} until ${day(moved.now.ends_at)}` },
          { text: `Term: ${formatTerm(moved.order.term_days)}, as paid` },
        ],
      },
      { kind: 'p', text: 'There is nothing to pay or do.' },
      { kind: 'link', label: 'My listings', href: `${site.url}/account` },
    ],
  });
}
