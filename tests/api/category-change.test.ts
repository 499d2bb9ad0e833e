// A Sponsored slot stays in the category it was bought in: the console refuses to move a listing to
// another category while one of its Sponsored terms runs or is booked, or a Sponsored checkout can
// still be paid (409 on `category`), and moves it freely otherwise (Premium has no per-category cap).
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { noSlotsElsewhere } from '../../db/queries/orders';
import { createServer, getServerById, updateServer } from '../../db/queries/servers';
import { auditLog, orders } from '../../db/schema';
import { placementDay } from '../../src/lib/pricing/plans';
import { consoleListing, createAdminHarness } from '../helpers/admin';
import { paidOrder } from '../helpers/placements';

let h: Awaited<ReturnType<typeof createAdminHarness>>;
afterEach(() => h?.cleanup());

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

const server = (category = 'Trading') => consoleListing({ category, affiliate_link: 'https://discord.gg/alpha' });

type Refusal = { error: { code: string; message: string; issues?: { path: string; message: string }[] } };

/** One order of the listing, as the payment path leaves it (tests/helpers/placements.ts). */
const order = (serverId: number, values: Partial<typeof orders.$inferInsert>) =>
  paidOrder(h.db, { id: serverId, name: 'Alpha Traders' }, values);

async function setup() {
  h = await createAdminHarness();
  const admin = await h.signIn('admin');
  const listing = await createServer(h.db, server());
  const move = (category: string, extra: Record<string, unknown> = {}) =>
    h.call(admin, 'PUT', `/api/admin/servers/${listing.id}`, { ...server(category), ...extra });
  const updates = async () =>
    (await h.db.select().from(auditLog).where(eq(auditLog.entity, 'server'))).filter((r) => r.action === 'update')
      .length;
  return { listing, move, updates };
}

describe('a listing’s category while it holds a Sponsored slot', () => {
  it('is not changed while its Sponsored term runs: 409 on category, saying why, until when, and to refund or wait', async () => {
    const { listing, move, updates } = await setup();
    const now = Date.now();
    const term = await order(listing.id, {
      paid_at: iso(now - DAY),
      starts_at: iso(now - DAY),
      ends_at: iso(now + 6 * DAY),
    });
    const res = await move('Gaming');
    expect(res.status).toBe(409);
    const { error } = (await res.json()) as Refusal;
    expect(error.code).toBe('sponsored_slot_held');
    expect(error.message).toMatch(/^This listing has a Sponsored term bought in Trading, running or booked until /);
    expect(error.message).toContain(
      `Refund the order under Orders first, or change the category after ${placementDay(term.ends_at!)}.`,
    );
    expect(error.issues).toEqual([{ path: 'category', message: error.message }]);
    // Nothing written: the category, the audit log, the rebuild.
    expect((await getServerById(h.db, listing.id))?.category).toBe('Trading');
    expect(await updates()).toBe(0);
    expect(h.rebuild.reasons).toEqual([]);
    // Any other edit of the listing goes through, in its category.
    const edited = await move('Trading', { description: 'Signals, charts and a weekly call.' });
    expect(edited.status).toBe(200);
    expect(await getServerById(h.db, listing.id)).toMatchObject({
      category: 'Trading',
      description: 'Signals, charts and a weekly call.',
    });
    // Refunded, the slot is free: the move goes through.
    await h.db
      .update(orders)
      .set({ state: 'refunded', ends_at: iso(now) })
      .where(eq(orders.id, term.id));
    expect((await move('Gaming')).status).toBe(200);
    expect((await getServerById(h.db, listing.id))?.category).toBe('Gaming');
  });

  it('is not changed while a Sponsored term is booked (waiting for a slot), nor for a comp, which cannot be refunded', async () => {
    const { listing, move } = await setup();
    const now = Date.now();
    await order(listing.id, { paid_at: iso(now), starts_at: iso(now + 3 * DAY), ends_at: iso(now + 10 * DAY) });
    const booked = await move('Gaming');
    expect(booked.status).toBe(409);
    expect(((await booked.json()) as Refusal).error.message).toContain(`after ${placementDay(iso(now + 10 * DAY))}.`);

    await h.db.delete(orders);
    await order(listing.id, {
      kind: 'comp',
      amount_cents: 0,
      stripe_session_id: null,
      stripe_payment_intent: null,
      granted_by: 'ops@example.com',
      starts_at: iso(now),
      ends_at: iso(now + 30 * DAY),
    });
    const comp = await move('Gaming');
    expect(comp.status).toBe(409);
    expect(((await comp.json()) as Refusal).error.message).toMatch(
      /A placement granted free of charge cannot be refunded: change the category after /,
    );
  });

  it('is not changed while a Sponsored checkout opened in it can still be paid', async () => {
    const { listing, move } = await setup();
    await order(listing.id, { state: 'open', checkout_expires_at: iso(Date.now() + 3_600_000) });
    const res = await move('Gaming');
    expect(res.status).toBe(409);
    const { error } = (await res.json()) as Refusal;
    expect(error.issues?.[0]?.path).toBe('category');
    expect(error.message).toMatch(/^A Sponsored checkout for this listing, opened in Trading, can still be paid/);
    // One whose session was never made can take no money: no slot.
    await h.db.update(orders).set({ stripe_session_id: null });
    expect((await move('Gaming')).status).toBe(200);
  });

  it('changes freely with an ended Sponsored term, a running Premium one, or back to the category the term was bought in', async () => {
    const { listing, move } = await setup();
    const now = Date.now();
    await order(listing.id, { state: 'ended', starts_at: iso(now - 8 * DAY), ends_at: iso(now - DAY) });
    // Paid, but its end has passed (the clock has not ended it yet): it holds no slot from now on.
    await order(listing.id, { starts_at: iso(now - 8 * DAY), ends_at: iso(now - 1000) });
    await order(listing.id, { placement: 'premium', starts_at: iso(now - DAY), ends_at: iso(now + 29 * DAY) });
    expect((await move('Gaming')).status).toBe(200);
    expect((await getServerById(h.db, listing.id))?.category).toBe('Gaming');

    // A listing already in another category than its term's (moved before this rule) may go back to it.
    await order(listing.id, { starts_at: iso(now), ends_at: iso(now + 7 * DAY) });
    expect((await move('Crypto')).status).toBe(409);
    expect((await move('Trading')).status).toBe(200);
  });

  it('is checked in the UPDATE itself: a term paid after the route looked still keeps the category', async () => {
    const { listing, updates } = await setup();
    const now = Date.now();
    await order(listing.id, { starts_at: iso(now), ends_at: iso(now + 7 * DAY) });
    const at = iso(now);
    const kept = await updateServer(
      h.db,
      listing.id,
      { category: 'Gaming' },
      () => ({
        author: { operatorId: null, name: 'ops@example.com' },
        action: 'update',
        entity: 'server',
        entityId: listing.id,
        details: {},
      }),
      noSlotsElsewhere(listing.id, 'Gaming', at),
    );
    expect(kept).toBeNull();
    expect((await getServerById(h.db, listing.id))?.category).toBe('Trading');
    expect(await updates()).toBe(0);
    // The same guard lets a move back to the term's own category through.
    const moved = await updateServer(
      h.db,
      listing.id,
      { members: 600 },
      undefined,
      noSlotsElsewhere(listing.id, 'Trading', at),
    );
    expect(moved?.members).toBe(600);
  });
});
