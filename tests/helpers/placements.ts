import type { Db } from '../../db/client';
import { createCompOrder } from '../../db/queries/orders';
import { createServer } from '../../db/queries/servers';
import { orders } from '../../db/schema';
import type { TestDb } from './db';

/**
 * One paid Sponsored week of a Trading listing as the payment path leaves it (state, Stripe's ids),
 * `values` on top (dates, state, category): the order row, written directly.
 */
export async function paidOrder(
  db: Db,
  listing: { id: number; name: string },
  values: Partial<typeof orders.$inferInsert> = {},
) {
  const [row] = await db
    .insert(orders)
    .values({
      server_id: listing.id,
      server_name: listing.name,
      kind: 'checkout',
      placement: 'sponsored',
      category: 'Trading',
      term_days: 7,
      amount_cents: 4900,
      currency: 'usd',
      state: 'paid',
      version: crypto.randomUUID(),
      stripe_session_id: `cs_test_${crypto.randomUUID()}`,
      stripe_payment_intent: `pi_${crypto.randomUUID()}`,
      ...values,
    })
    .returning();
  return row!;
}

/**
 * A new Gaming listing with a paid Premium term from `startsAt` to `endsAt` (ms), its flags not yet
 * brought in step: what the placement clock's next tick finds. A comp order, its dates set directly.
 */
export async function premiumPlacement(tdb: TestDb, name: string, startsAt: number, endsAt: number) {
  const listing = await createServer(tdb.db, { name, category: 'Gaming', members: 500 });
  const order = await createCompOrder(tdb.db, {
    serverId: listing.id,
    category: 'Gaming',
    placement: 'premium',
    termDays: 30,
    grantedBy: 'ops@example.com',
  });
  await tdb.client.execute({
    sql: "UPDATE orders SET state = 'paid', starts_at = ?, ends_at = ? WHERE id = ?",
    args: [new Date(startsAt).toISOString(), new Date(endsAt).toISOString(), order.id],
  });
  return listing;
}
