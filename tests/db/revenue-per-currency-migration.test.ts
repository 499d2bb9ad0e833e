import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateDb } from '../../db/migrate';
import { listPremiumPerformance } from '../../db/queries/analytics';
import { dbAtMigration } from '../helpers/db';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("migration 0029: a premium listing's money is per currency, never dollars added to euros", () => {
  it('applies on a database with orders in two currencies; the views then give traffic and one money row per currency', async () => {
    const { db, client } = await dbAtMigration(28, dirs);
    try {
      await client.execute(
        "INSERT INTO discord_servers (id, name, description, category, slug, is_premium) VALUES (1, 'Two Purses', 'd', 'Trading', 'two-purses', 1)",
      );
      const yesterday = new Date(Date.now() - 86_400_000).toISOString();
      const longAgo = new Date(Date.now() - 90 * 86_400_000).toISOString();
      const order = (id: number, cents: number, currency: string, paidAt: string, refunded = 0) =>
        client.execute({
          sql: `INSERT INTO orders (id, server_id, placement, category, term_days, amount_cents, currency, state, version, paid_at, refunded_cents)
            VALUES (?, 1, 'premium', 'Trading', 7, ?, ?, 'paid', ?, ?, ?)`,
          args: [id, cents, currency, `v${id}`, paidAt, refunded],
        });
      await order(1, 4900, 'usd', yesterday);
      await order(2, 3000, 'usd', longAgo);
      await order(3, 4500, 'eur', yesterday, 1500);
      await client.execute({
        sql: 'INSERT INTO order_refunds (order_id, amount_cents, created_at) VALUES (3, 1500, ?)',
        args: [yesterday],
      });
      // Before: one money figure across both currencies (4900 + 3000 + 4500 - 1500 cents, as units).
      const before = await client.execute('SELECT total_revenue FROM premium_server_performance');
      expect(before.rows[0]!.total_revenue).toBe(109);

      await migrateDb(db);
      const columns = await client.execute("SELECT name FROM pragma_table_info('premium_server_performance')");
      expect(columns.rows.map((r) => r.name)).toEqual([
        'server_id',
        'name',
        'slug',
        'is_premium',
        'is_sponsored',
        'views',
        'clicks',
        'conversions',
      ]);
      const money = await client.execute('SELECT * FROM premium_server_revenue ORDER BY currency');
      expect(money.rows.map((r) => ({ ...r }))).toEqual([
        { server_id: 1, currency: 'eur', total_cents: 3000, daily_cents: 100 },
        { server_id: 1, currency: 'usd', total_cents: 7900, daily_cents: 163 },
      ]);
      // The console's reader: the same figures beside the traffic.
      expect(await listPremiumPerformance(db)).toEqual([
        expect.objectContaining({
          server_id: 1,
          revenue: [
            { currency: 'eur', total_cents: 3000, daily_cents: 100 },
            { currency: 'usd', total_cents: 7900, daily_cents: 163 },
          ],
        }),
      ]);
    } finally {
      client.close();
    }
  });
});
