import { describe, expect, it } from 'vitest';
import type { OrderRow } from '../../../db/schema';
import type { MailSite } from './layout';
import { orderPartlyRefundedMail, orderRefundedMail, placementEndedMail, placementReminderMail } from './orders';

const site: MailSite = {
  name: 'GuildRank',
  url: 'https://guildrank.example',
  supportEmail: 'support@guildrank.example',
};
const listing = { name: 'Pixel Forge', slug: 'pixel-forge' };
const at = '2026-03-10T12:00:00.000Z';

/** A paid €20.00 Premium order running 1 to 31 March 2026, with `changes`. */
const order = (changes: Partial<OrderRow>): OrderRow => ({
  id: 7,
  server_id: 1,
  server_name: 'Pixel Forge',
  owner_id: 1,
  plan_id: 3,
  kind: 'checkout',
  placement: 'premium',
  category: 'Gaming',
  term_days: 30,
  amount_cents: 2000,
  currency: 'eur',
  state: 'paid',
  version: 'v',
  stripe_session_id: 'cs_test_1',
  checkout_url: null,
  checkout_expires_at: null,
  stripe_payment_intent: 'pi_1',
  customer_email: 'payer@example.com',
  paid_at: '2026-03-01T00:00:00.000Z',
  starts_at: '2026-03-01T00:00:00.000Z',
  ends_at: '2026-03-31T00:00:00.000Z',
  refunded_cents: 0,
  refunded_at: null,
  refund_reason: null,
  granted_by: null,
  reconcile_checked_at: null,
  created_at: '2026-03-01T00:00:00.000Z',
  updated_at: at,
  ...changes,
});

describe('the partial refund mail', () => {
  it('says what this refund gave back, the total only when earlier ones came before, and what the placement does next in each state', () => {
    const first = orderPartlyRefundedMail(site, order({ refunded_cents: 500 }), listing, { cents: 500, at });
    expect(first.subject).toBe('Partial refund: Premium placement for Pixel Forge');
    expect(first.text).toContain('We refunded €5.00 of the €20.00 for the Premium placement of Pixel Forge.');
    expect(first.text).not.toContain('so far');
    expect(first.text).toContain('The placement runs on until 2026-03-31 (UTC).');
    const second = orderPartlyRefundedMail(site, order({ refunded_cents: 800 }), listing, { cents: 300, at });
    expect(second.text).toContain('We refunded €3.00 of the €20.00');
    expect(second.text).toContain('€8.00 of €20.00 refunded so far.');
    // Booked to follow a running term: it still starts and ends when booked.
    const booked = order({
      refunded_cents: 500,
      starts_at: '2026-03-31T00:00:00.000Z',
      ends_at: '2026-04-30T00:00:00.000Z',
    });
    expect(orderPartlyRefundedMail(site, booked, listing, { cents: 500, at }).text).toContain(
      'goes ahead as booked: it runs from 2026-03-31 (UTC) until 2026-04-30 (UTC).',
    );
    const ended = orderPartlyRefundedMail(site, order({ state: 'ended', refunded_cents: 500 }), listing, {
      cents: 500,
      at,
    });
    expect(ended.text).toContain('The placement ran until 2026-03-31 (UTC).');
    expect(ended.text).not.toContain('runs on');
    const disputed = order({ state: 'disputed', refunded_cents: 500 });
    expect(orderPartlyRefundedMail(site, disputed, listing, { cents: 500, at }).text).toContain(
      'stays suspended while the card dispute is open',
    );
  });
});

describe('the refund mail', () => {
  it('names the whole price when it all came back at once, and the rest with the total after partial refunds', () => {
    const once = orderRefundedMail(site, order({ state: 'refunded', refunded_cents: 2000 }), listing, {
      cents: 2000,
      at,
    });
    expect(once.text).toContain('We refunded €20.00 for the Premium placement of Pixel Forge.');
    expect(once.text).not.toContain('in all');
    const rest = orderRefundedMail(site, order({ state: 'refunded', refunded_cents: 2000 }), listing, {
      cents: 1200,
      at,
    });
    expect(rest.text).toContain('We refunded the remaining €12.00 for the Premium placement of Pixel Forge.');
    expect(rest.text).toContain('€20.00 of €20.00 refunded in all: €8.00 in earlier refunds and €12.00 now.');
    expect(rest.text).not.toContain('We refunded €20.00');
    expect(rest.text).toContain('The placement has ended.');
  });

  it('says a term refunded before it started (booked to follow one, waiting for a Sponsored slot, never activated) is cancelled and will not run', () => {
    const refunded = order({
      state: 'refunded',
      placement: 'sponsored',
      refunded_cents: 2000,
      starts_at: at,
      ends_at: at,
    });
    const booked = { starts_at: '2026-03-31T00:00:00.000Z', ends_at: '2026-04-30T00:00:00.000Z' };
    const mail = orderRefundedMail(site, refunded, listing, { cents: 2000, at, cancelled: booked });
    expect(mail.text).toContain('We refunded €20.00 for the Sponsored placement of Pixel Forge.');
    expect(mail.text).toContain(
      'The term booked from 2026-03-31 (UTC) until 2026-04-30 (UTC) is cancelled and will not run.',
    );
    expect(mail.text).not.toContain('has ended');
    // A booked term between the running one and a third: the third now follows the running one.
    const third = { starts_at: '2026-03-31T00:00:00.000Z', ends_at: '2026-04-30T00:00:00.000Z', moved: true };
    const closer = orderRefundedMail(site, refunded, listing, {
      cents: 2000,
      at,
      cancelled: booked,
      next: third,
      placedUntil: '2026-03-31T00:00:00.000Z',
    });
    expect(closer.text).toContain(
      'is cancelled and will not run. Your next Sponsored term, already paid, now starts earlier: it runs from 2026-03-31 (UTC) until 2026-04-30 (UTC).',
    );
    // The third cannot move (no Sponsored slot free): the days without the placement are named.
    const later = { starts_at: '2026-05-20T00:00:00.000Z', ends_at: '2026-06-19T00:00:00.000Z', moved: false };
    const gap = orderRefundedMail(site, refunded, listing, {
      cents: 2000,
      at,
      cancelled: booked,
      next: later,
      placedUntil: '2026-03-31T00:00:00.000Z',
    });
    expect(gap.text).toContain(
      'goes ahead as booked: it runs from 2026-05-20 (UTC) until 2026-06-19 (UTC), and the listing has no Sponsored placement from 2026-03-31 (UTC) until then.',
    );
    const never = { starts_at: null, ends_at: null };
    const unstarted = orderRefundedMail(site, refunded, listing, { cents: 2000, at, cancelled: never });
    expect(unstarted.text).toContain('The placement is cancelled and will not run.');
  });
});

describe('the reminder and end mails', () => {
  const running = order({ placement: 'sponsored' });
  const later = { starts_at: '2026-04-07T00:00:00.000Z', ends_at: '2026-05-07T00:00:00.000Z' };
  const carryOn = { starts_at: '2026-03-31T00:00:00.000Z', ends_at: '2026-04-30T00:00:00.000Z' };

  it('asks to buy a new term only when none is booked; a next term waiting for a slot is named with its start and the gap', () => {
    expect(placementReminderMail(site, running, listing).text).toContain(
      'To keep it, buy a new term from My listings.',
    );
    const waiting = placementReminderMail(site, running, listing, later).text;
    expect(waiting).not.toContain('buy a new term');
    expect(waiting).toContain(
      'Your next term, already paid, starts on 2026-04-07 (UTC), the first day a Sponsored slot of its category is free, and runs until 2026-05-07 (UTC): the listing has no Sponsored placement until then.',
    );
    // Premium has no slots to wait for: no reason made up.
    expect(placementReminderMail(site, order({}), listing, later).text).toContain(
      'starts on 2026-04-07 (UTC), and runs until',
    );
  });

  it('says the placement runs on when the next term carries on, and when the next one starts when it is booked later', () => {
    expect(placementEndedMail(site, running, listing, carryOn).text).toContain('runs on until 2026-04-30 (UTC)');
    const gap = placementEndedMail(site, running, listing, later).text;
    expect(gap).toContain('has ended');
    expect(gap).toContain('Your next term, already paid, starts on 2026-04-07 (UTC)');
    expect(placementEndedMail(site, running, listing).text).not.toContain('next term');
  });
});
