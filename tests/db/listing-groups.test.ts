import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeServer, rng } from '../../db/fake';
import { readListingGroups, refillListingGroups, summarize } from '../../db/queries/listing-groups';
import { insertServersInBulk, listServersWithPages } from '../../db/queries/servers';
import { isListed, matchesSubcategory } from '../../src/lib/listing';
import { createTestDb, type TestDb } from '../helpers/db';

// listing_groups (migration 0016) is kept by triggers on discord_servers: after any mix of
// inserts, updates and deletes it holds what a GROUP BY over the table gives, and a listing's
// summary read from it is what the listing's own rows sum to.

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
  const random = rng(35);
  await insertServersInBulk(
    t.client,
    Array.from({ length: 400 }, (_, k) => fakeServer(k, random)),
  );
});
afterAll(() => t?.cleanup());

const grouped = async () =>
  (
    await t.client.execute(
      `SELECT is_active, category, ifnull(subcategory, '') AS subcategory, invite_status, ifnull(region, '') AS region,
         (is_premium OR is_sponsored) AS paid, count(*) AS servers, sum(members) AS members, sum(active_users) AS active_users
       FROM discord_servers GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6`,
    )
  ).rows.map((r) => ({ ...r }));
const kept = async () =>
  (
    await t.client.execute(
      'SELECT is_active, category, subcategory, invite_status, region, paid, servers, members, active_users FROM listing_groups WHERE servers > 0 ORDER BY 1, 2, 3, 4, 5, 6',
    )
  ).rows.map((r) => ({ ...r }));

describe('listing_groups', () => {
  it('stays equal to a GROUP BY of discord_servers through updates of every counted column and deletes', async () => {
    const random = rng(7);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
    const ids = (await t.client.execute('SELECT id FROM discord_servers')).rows.map((r) => Number(r.id));
    const changes = [
      'members = members + 17',
      'active_users = 3',
      "category = 'Trading'",
      "subcategory = 'DeFi'",
      'subcategory = NULL',
      "invite_status = 'dead'",
      "invite_status = 'ok'",
      'is_active = 0',
      'is_premium = 1',
      'is_sponsored = 0',
      "region = 'Europe'",
      'region = NULL',
    ];
    for (let i = 0; i < 300; i++) {
      await t.client.execute({
        sql: `UPDATE discord_servers SET ${pick(changes)}, ${pick(changes)} WHERE id = ?`,
        args: [pick(ids)],
      });
    }
    for (const id of ids.slice(0, 40))
      await t.client.execute({ sql: 'DELETE FROM discord_servers WHERE id = ?', args: [id] });
    expect(await kept()).toEqual(await grouped());
    // The refill after a bulk load gives the same.
    await refillListingGroups(t.client);
    expect(await kept()).toEqual(await grouped());
  });

  it('summarizes a listing as its listed rows sum up', async () => {
    const listed = (await listServersWithPages(t.db)).filter(isListed);
    const groups = await readListingGroups(t.db);
    for (const filter of [
      {},
      { category: 'Crypto' },
      { category: 'Crypto', subcategory: 'defi' },
      { category: 'Gaming' },
    ]) {
      const rows = listed.filter(
        (s) =>
          (!('category' in filter) || s.category === filter.category) &&
          matchesSubcategory(s.subcategory, 'subcategory' in filter ? filter.subcategory : undefined),
      );
      const summary = summarize(groups, filter);
      expect(summary.servers, JSON.stringify(filter)).toBe(rows.length);
      expect(summary.members).toBe(rows.reduce((a, s) => a + s.members, 0));
      expect(summary.active).toBe(rows.reduce((a, s) => a + s.active_users, 0));
      expect(summary.paid).toBe(rows.filter((s) => s.is_premium || s.is_sponsored).length);
      expect(summary.regions.sort()).toEqual([...new Set(rows.flatMap((s) => (s.region ? [s.region] : [])))].sort());
    }
  });
});
