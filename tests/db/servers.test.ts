import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createServer,
  deleteServer,
  getServerBySlug,
  listCategories,
  listFeaturedServers,
  listServers,
  listSubcategories,
  type ServerWrite,
  setServerActive,
  updateServer,
} from '../../db/queries/servers';
import { auditLog, discordServers, orders } from '../../db/schema';
import { ORDER_STATES } from '../../src/lib/enums';
import { MONEY_HELD_STATES } from '../../src/lib/pricing/order-machine';
import { createTestDb, type TestDb } from '../helpers/db';

let t: TestDb;
beforeEach(async () => {
  t = await createTestDb();
});
afterEach(() => t.cleanup());

const server = (name: string, extra: Partial<ServerWrite> = {}): ServerWrite => ({
  name,
  description: `${name} community`,
  category: 'Gaming',
  members: 100,
  ...extra,
});

describe('listServers', () => {
  it('lists only active servers of the five categories, most members first', async () => {
    await createServer(t.db, server('Small', { members: 10 }));
    await createServer(t.db, server('Big', { members: 1000, category: 'Crypto' }));
    await createServer(t.db, server('Hidden', { members: 5000, is_active: false }));
    await createServer(t.db, server('Schoolwork', { members: 9000, category: 'Education' }));
    const { servers, total } = await listServers(t.db);
    expect(servers.map((s) => s.name)).toEqual(['Big', 'Small']);
    expect(total).toBe(2);
  });

  it('filters by category equality unless All', async () => {
    await createServer(t.db, server('A', { category: 'Trading' }));
    await createServer(t.db, server('B', { category: 'Sports Betting' }));
    expect((await listServers(t.db, { category: 'Sports Betting' })).servers.map((s) => s.name)).toEqual(['B']);
    expect((await listServers(t.db, { category: 'All' })).total).toBe(2);
  });

  it('matches the subcategory partially and case-insensitively, hyphens as spaces, ignoring all', async () => {
    await createServer(t.db, server('Scalpers', { category: 'Investing', subcategory: 'Day Trading' }));
    await createServer(t.db, server('Dividends', { category: 'Investing', subcategory: 'Stocks' }));
    const day = await listServers(t.db, { category: 'Investing', subcategory: 'day-trading' });
    expect(day.servers.map((s) => s.name)).toEqual(['Scalpers']);
    expect((await listServers(t.db, { category: 'Investing', subcategory: 'all' })).total).toBe(2);
  });

  it('searches name or description case-insensitively, short and long terms alike', async () => {
    await createServer(t.db, server('Valorant Ranked Squad', { description: 'Find a duo for ranked' }));
    await createServer(t.db, server('Chess Club', { description: 'Blitz and bullet: VALORANT fans welcome' }));
    await createServer(t.db, server('Go Players', { description: 'Baduk all day' }));
    const long = await listServers(t.db, { search: 'valORant' });
    expect(long.servers.map((s) => s.name).sort()).toEqual(['Chess Club', 'Valorant Ranked Squad']);
    const short = await listServers(t.db, { search: 'go' });
    expect(short.servers.map((s) => s.name)).toEqual(['Go Players']);
    expect((await listServers(t.db, { search: '50%' })).total).toBe(0);
    expect((await listServers(t.db, { search: '"quoted' })).total).toBe(0);
  });

  it('searches tags too (the box promises "name or topic"), short and long terms, in step with edits', async () => {
    const row = await createServer(
      t.db,
      server('Night Shift', { description: 'Late games', tags: ['Esports', 'FPS'] }),
    );
    await createServer(t.db, server('Day Shift', { description: 'Early games', tags: ['Casual'] }));
    expect((await listServers(t.db, { search: 'esport' })).servers.map((s) => s.name)).toEqual(['Night Shift']);
    expect((await listServers(t.db, { search: 'fp' })).servers.map((s) => s.name)).toEqual(['Night Shift']);
    // The tags' JSON punctuation is not searchable text.
    expect((await listServers(t.db, { search: '","' })).total).toBe(0);
    await updateServer(t.db, row.id, { tags: ['Strategy'] });
    expect((await listServers(t.db, { search: 'esports' })).total).toBe(0);
    expect((await listServers(t.db, { search: 'strateg' })).servers.map((s) => s.name)).toEqual(['Night Shift']);
    await deleteServer(t.db, row.id);
    expect((await listServers(t.db, { search: 'strategy' })).total).toBe(0);
  });

  it('keeps the search index in step with renames and deletes', async () => {
    const row = await createServer(t.db, server('Old Name Guild', { description: 'A friendly place' }));
    await updateServer(t.db, row.id, { name: 'Fresh Title Guild' });
    expect((await listServers(t.db, { search: 'old name' })).total).toBe(0);
    expect((await listServers(t.db, { search: 'fresh title' })).total).toBe(1);
    await deleteServer(t.db, row.id);
    expect((await listServers(t.db, { search: 'fresh title' })).total).toBe(0);
  });

  it('sorts by sort_order then members when not sorting by members, and pages stably', async () => {
    await createServer(t.db, server('Curated', { members: 5, sort_order: 10 }));
    await createServer(t.db, server('Popular', { members: 500 }));
    await createServer(t.db, server('Middle', { members: 50 }));
    expect((await listServers(t.db, { sort: 'featured' })).servers.map((s) => s.name)).toEqual([
      'Curated',
      'Popular',
      'Middle',
    ]);
    const page2 = await listServers(t.db, { perPage: 2, page: 2 });
    expect(page2.servers.map((s) => s.name)).toEqual(['Curated']);
    expect(page2.total).toBe(3);
  });

  it('filters premium or sponsored servers for Premium Only and the featured list (at most 6)', async () => {
    for (let i = 0; i < 8; i++)
      await createServer(t.db, server(`Paid ${i}`, { is_premium: i % 2 === 0, is_sponsored: i % 2 === 1 }));
    await createServer(t.db, server('Free'));
    expect((await listServers(t.db, { premiumOnly: true })).total).toBe(8);
    expect(await listFeaturedServers(t.db)).toHaveLength(6);
  });
});

describe('categories and subcategories', () => {
  it("lists 'All' first and then the listed categories in use, sorted", async () => {
    await createServer(t.db, server('T', { category: 'Trading' }));
    await createServer(t.db, server('C', { category: 'Crypto' }));
    await createServer(t.db, server('E', { category: 'Education' }));
    expect(await listCategories(t.db)).toEqual(['All', 'Crypto', 'Trading']);
  });

  it("lists 'all' and then the distinct, sorted subcategories of a category", async () => {
    await createServer(t.db, server('A', { category: 'Crypto', subcategory: 'NFT' }));
    await createServer(t.db, server('B', { category: 'Crypto', subcategory: 'Bitcoin' }));
    await createServer(t.db, server('C', { category: 'Crypto', subcategory: 'Bitcoin' }));
    await createServer(t.db, server('D', { category: 'Crypto' }));
    expect(await listSubcategories(t.db, 'Crypto')).toEqual(['all', 'Bitcoin', 'NFT']);
  });
});

describe('getServerBySlug', () => {
  it('finds an active server by its stored slug and never an inactive one', async () => {
    const row = await createServer(t.db, server('Apex Legends Hub'));
    expect((await getServerBySlug(t.db, 'apex-legends-hub'))?.id).toBe(row.id);
    await setServerActive(t.db, row.id, false);
    expect(await getServerBySlug(t.db, 'apex-legends-hub')).toBeNull();
  });

  it('falls back to generated slug variants of the name', async () => {
    const row = await createServer(t.db, server('The Crypto Hub', { slug: 'custom-slug' }));
    expect((await getServerBySlug(t.db, 'the-crypto-hub'))?.id).toBe(row.id);
    expect((await getServerBySlug(t.db, 'the-crypto'))?.id).toBe(row.id);
  });

  it('falls back to a fuzzy word match and returns null when nothing matches', async () => {
    const row = await createServer(t.db, server('Forex Signals Room', { slug: 'fsr' }));
    expect((await getServerBySlug(t.db, 'room-forex'))?.id).toBe(row.id);
    expect(await getServerBySlug(t.db, 'nothing-like-it')).toBeNull();
  });
});

describe('writes', () => {
  it('derives a unique slug from the name when none is given', async () => {
    const a = await createServer(t.db, server('The Trading Floor'));
    const b = await createServer(t.db, server('Trading Floor!'));
    expect(a.slug).toBe('trading-floor');
    expect(b.slug).toBe('trading-floor-2');
  });

  it('re-derives the slug when the name changes without a slug, and keeps an explicit one', async () => {
    const row = await createServer(t.db, server('First Name'));
    expect((await updateServer(t.db, row.id, { name: 'Second Name' }))?.slug).toBe('second-name');
    expect((await updateServer(t.db, row.id, { name: 'Third Name', slug: 'kept-slug' }))?.slug).toBe('kept-slug');
    expect((await updateServer(t.db, row.id, { members: 5 }))?.slug).toBe('kept-slug');
  });

  it('stores lists as JSON and booleans as booleans', async () => {
    const row = await createServer(t.db, server('Listy', { tags: ['a', 'b'], pros: ['p'], is_premium: true }));
    const [stored] = await t.db.select().from(discordServers).where(eq(discordServers.id, row.id));
    expect(stored).toMatchObject({ tags: ['a', 'b'], pros: ['p'], cons: [], is_premium: true, is_active: true });
  });

  it('toggles visibility and deletes by id', async () => {
    const row = await createServer(t.db, server('Toggle'));
    expect((await setServerActive(t.db, row.id, false))?.is_active).toBe(false);
    expect(await deleteServer(t.db, row.id)).toBe('deleted');
    expect(await deleteServer(t.db, row.id)).toBe('missing');
    expect(await updateServer(t.db, row.id, { members: 1 })).toBeNull();
  });

  it('keeps a listing while a paid order may hold money, and writes the audit row with the delete or not at all', async () => {
    const author = { operatorId: null, name: 'owner test (Discord 1)' };
    for (const state of ORDER_STATES)
      for (const kind of ['checkout', 'comp'] as const) {
        const row = await createServer(t.db, server(`${kind} ${state}`));
        await t.db.insert(orders).values({
          server_id: row.id,
          kind,
          placement: 'premium',
          category: 'Gaming',
          term_days: 30,
          amount_cents: kind === 'comp' ? 0 : 1900,
          currency: 'usd',
          state,
          version: `v-${kind}-${state}`,
          stripe_session_id: kind === 'checkout' ? `cs_${kind}_${state}` : null,
        });
        const removal = await deleteServer(t.db, row.id, { author, action: 'remove', details: { slug: row.slug } });
        const kept = kind === 'checkout' && MONEY_HELD_STATES.includes(state);
        expect(removal, `${kind} ${state}`).toBe(kept ? 'held' : 'deleted');
        const [listing] = await t.db.select().from(discordServers).where(eq(discordServers.id, row.id));
        expect(!!listing, `${kind} ${state} listing kept`).toBe(kept);
        const audits = await t.db
          .select()
          .from(auditLog)
          .where(eq(auditLog.entity_id, String(row.id)));
        expect(audits, `${kind} ${state} audit`).toHaveLength(kept ? 0 : 1);
        if (!kept) expect(audits[0]).toMatchObject({ action: 'remove', entity: 'server', details: { slug: row.slug } });
      }
    // An open order whose Checkout session was never made can take no money: it keeps nothing.
    const sessionless = await createServer(t.db, server('Sessionless Open'));
    await t.db.insert(orders).values({
      server_id: sessionless.id,
      kind: 'checkout',
      placement: 'premium',
      category: 'Gaming',
      term_days: 30,
      amount_cents: 1900,
      currency: 'usd',
      state: 'open',
      version: 'v-sessionless',
    });
    expect(await deleteServer(t.db, sessionless.id, { author, action: 'remove', details: {} })).toBe('deleted');
    // A listing that is not there writes no audit row either.
    expect(await deleteServer(t.db, 999_999, { author, action: 'remove', details: {} })).toBe('missing');
    expect(await t.db.select().from(auditLog).where(eq(auditLog.entity_id, '999999'))).toEqual([]);
  });
});
