import type { RenderedMail } from '../../../db/queries/mail';
import type { OrderRow } from '../../../db/schema';
import { formatPrice, formatTerm, PLACEMENT_WHERE, REFUND_RULE } from '../../../src/lib/pricing/plans';
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

/** Three days before the slot ends. */
export function placementReminderMail(site: MailSite, o: OrderRow, listing: OrderListing): RenderedMail {
  return renderMail(site, {
    subject: `${listing.name}: ${kindOf(o)} placement ends on ${day(o.ends_at)}`,
    heading: `The ${kindOf(o)} placement of ${listing.name} ends on ${day(o.ends_at)}.`,
    blocks: [
      { kind: 'p', text: 'It does not renew by itself. To keep it, buy a new term from My listings.' },
      { kind: 'link', label: 'My listings', href: `${site.url}/account` },
    ],
  });
}

/** When the term is over. */
export function placementEndedMail(site: MailSite, o: OrderRow, listing: OrderListing): RenderedMail {
  return renderMail(site, {
    subject: `${listing.name}: ${kindOf(o)} placement ended`,
    heading: `The ${kindOf(o)} placement of ${listing.name} has ended.`,
    blocks: [
      { kind: 'p', text: 'The listing stays in the directory as before, with its organic rank.' },
      { kind: 'link', label: 'My listings', href: `${site.url}/account` },
    ],
  });
}

/** When the money went back. */
export function orderRefundedMail(site: MailSite, o: OrderRow, listing: OrderListing): RenderedMail {
  return renderMail(site, {
    subject: `Refund: ${kindOf(o)} placement for ${listing.name}`,
    heading: `We refunded ${formatPrice(o.refunded_cents || o.amount_cents, o.currency)} for the ${kindOf(o)} placement of ${listing.name}.`,
    blocks: [
      {
        kind: 'p',
        text: 'The placement has ended. Your bank shows the refund within 5 to 10 business days.',
      },
      { kind: 'link', label: 'My listings', href: `${site.url}/account` },
    ],
  });
}
