import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateDb } from '../../db/migrate';
import { dbAtMigration } from '../helpers/db';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('migration 0023: orders outlive their listing', () => {
  it('keeps every order, its Stripe events and the revenue, names each order’s listing, and sets null on a later delete', async () => {
    const { db, client } = await dbAtMigration(22, dirs);
    try {
      await client.execute(
        "INSERT INTO discord_servers (id, name, description, category, slug) VALUES (1, 'Paid Guild', 'd', 'Gaming', 'paid-guild')",
      );
      await client.execute(
        `INSERT INTO orders (id, server_id, kind, placement, category, term_days, amount_cents, currency, state, version, paid_at, stripe_payment_intent)
         VALUES (1, 1, 'checkout', 'premium', 'Gaming', 30, 2900, 'usd', 'ended', 'v1', '2026-11-01T10:00:00.000Z', 'pi_1')`,
      );
      await client.execute(
        "INSERT INTO stripe_events (id, type, order_id, outcome) VALUES ('evt_1', 'checkout.session.completed', 1, 'applied')",
      );
      const revenueBefore = (await client.execute('SELECT * FROM daily_revenue')).rows;

      await migrateDb(db);

      const [order] = (await client.execute('SELECT server_id, server_name, state FROM orders')).rows;
      expect({ ...order }).toEqual({ server_id: 1, server_name: 'Paid Guild', state: 'ended' });
      // The rebuild of orders touched nothing that points at it.
      expect((await client.execute('SELECT order_id FROM stripe_events')).rows.map((r) => r.order_id)).toEqual([1]);
      expect((await client.execute('SELECT * FROM daily_revenue')).rows).toEqual(revenueBefore);
      expect((await client.execute('PRAGMA foreign_key_check')).rows).toEqual([]);

      // Deleting the listing now keeps the order and its money, without the listing.
      await client.execute('DELETE FROM discord_servers WHERE id = 1');
      const [kept] = (await client.execute('SELECT server_id, server_name, amount_cents FROM orders')).rows;
      expect({ ...kept }).toEqual({ server_id: null, server_name: 'Paid Guild', amount_cents: 2900 });
      expect((await client.execute('SELECT * FROM daily_revenue')).rows).toEqual(revenueBefore);
    } finally {
      client.close();
    }
  });
});
