import { createCompOrder } from '../../db/queries/orders';
import { createServer } from '../../db/queries/servers';
import type { TestDb } from './db';

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
