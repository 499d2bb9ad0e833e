import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { preparedStatementsFor } from '../../db/prepared';
import { selectServerRows } from '../../db/queries/server-rows';
import { createServer, listListingKeysWithPages, listServersWithPages } from '../../db/queries/servers';
import { discordServers } from '../../db/schema';
import { createTestDb, type TestDb } from '../helpers/db';

let t: TestDb;
beforeEach(async () => {
  t = await createTestDb();
});
afterEach(() => t.cleanup());

/** Servers with every kind of column filled in and left empty: nulls, booleans, JSON lists and objects, reals. */
async function seedVaried(): Promise<void> {
  await createServer(t.db, {
    name: 'Full',
    description: 'Every field set',
    category: 'Gaming',
    subcategory: 'FPS',
    members: 12_345,
    active_users: 678,
    rating: 4.5,
    image_url: 'https://cdn.example/icon.png',
    pros: ['Friendly', 'Active'],
    cons: ['Busy'],
    is_premium: true,
    is_sponsored: false,
    affiliate_link: 'https://discord.gg/full',
    tags: ['LFG', 'Ranked'],
    features: ['Weekly events'],
    sort_order: 7,
    language: 'en',
    region: 'US',
    links: [{ label: 'Website', url: 'https://full.example' }],
  });
  const bare = await createServer(t.db, { name: 'Bare', description: '', category: 'Crypto', members: 5 });
  await t.db
    .update(discordServers)
    .set({ rank_score: 0.125, rank_explain: { online: 0.5, growth: -0.25 }, growth_30d: 0.05, invite_status: 'ok' })
    .where(eq(discordServers.id, bare.id));
  await createServer(t.db, { name: 'Off', description: 'Inactive', category: 'Trading', is_active: false });
}

describe('selectServerRows', () => {
  it('reads on the native connection of a file database', () => {
    expect(preparedStatementsFor(t.db)).toBeDefined();
  });

  it('answers the same rows, values and types as drizzle', async () => {
    await seedVaried();
    const query = () => t.db.select().from(discordServers).orderBy(asc(discordServers.id));
    const fast = await selectServerRows(t.db, query());
    const drizzle = await query();
    expect(fast).toHaveLength(3);
    expect(fast).toStrictEqual(drizzle);
    // Key order too: pages serialise rows (JSON-LD, cache keys).
    expect(fast.map((r) => Object.keys(r))).toEqual(drizzle.map((r) => Object.keys(r)));
  });

  it('keeps the filter and the order of the query (listServersWithPages)', async () => {
    await seedVaried();
    await createServer(t.db, { name: 'Bigger', description: 'x', category: 'Investing', members: 99_999 });
    const pages = await listServersWithPages(t.db);
    expect(pages.map((s) => s.name)).toEqual(['Bigger', 'Full', 'Bare']);
  });

  it('reads the listing keys of the same servers, in the same order, with the same values (listListingKeysWithPages)', async () => {
    await seedVaried();
    const keys = await listListingKeysWithPages(t.db);
    const full = await listServersWithPages(t.db);
    expect(keys.map((k) => k.id)).toEqual(full.map((s) => s.id));
    for (const [i, key] of keys.entries()) {
      const row = full[i]! as unknown as Record<string, unknown>;
      expect(Object.keys(key)).not.toContain('name');
      for (const [column, value] of Object.entries(key)) expect(value, column).toStrictEqual(row[column]);
    }
  });
});
