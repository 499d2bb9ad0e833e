// One listing rule, two runners: listServers (SQL, db/queries/servers.ts) and pageOfServers
// (src/lib/listing.ts, over the build's rows and the API's sample fallback) answer every filter
// and sort alike over the same rows, hidden and unlisted servers included, and the invite states
// that take a listing off (dead, wrong_guild) alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertFakeServers } from '../../db/fake';
import { listServers, listServersWithPages, type Server, type ServerFilter } from '../../db/queries/servers';
import { discordServers } from '../../db/schema';
import { seedIfEmpty } from '../../db/seed';
import { checkedSince, hasPage, isListed, pageOfServers } from '../../src/lib/listing';
import { createTestDb, type TestDb } from '../helpers/db';

/** The clock of "checked in the last 24 hours" for both runners. */
const NOW = Date.parse('2026-06-02T12:00:00.000Z');
const iso = (msAgo: number) => new Date(NOW - msAgo).toISOString();
const HOUR = 3_600_000;

let t: TestDb;
let every: Server[];
beforeAll(async () => {
  t = await createTestDb();
  // The samples bring a hidden-category server (Education); the fakes every category and subcategory.
  await seedIfEmpty(t.db);
  await insertFakeServers(t.client, 600);
  // What the refresh job and the rank recompute write, spread over the rows: every invite state,
  // scores and growth with ties (members, then id, break them), ages with ties, and last good
  // checks just inside, exactly at and just outside the 24 hours.
  await t.client.execute(`UPDATE discord_servers SET
    invite_status = CASE id % 9 WHEN 0 THEN 'dead' WHEN 1 THEN 'wrong_guild' WHEN 2 THEN 'suspect'
      WHEN 3 THEN 'paused' WHEN 4 THEN 'expiring' WHEN 5 THEN 'unchecked' ELSE 'ok' END,
    rank_score = ((id * 37) % 23) / 22.0,
    growth_30d = ((id * 13) % 17 - 8) / 40.0,
    created_at = printf('2026-%02d-%02dT08:00:00.000Z', id % 5 + 1, id % 7 + 1),
    last_ok_at = CASE id % 4 WHEN 0 THEN NULL WHEN 1 THEN '${iso(2 * HOUR)}'
      WHEN 2 THEN '${iso(24 * HOUR)}' ELSE '${iso(24 * HOUR + 1)}' END`);
  // Online shares exactly at the filter's boundary, and servers with no members at all.
  await t.client.execute('UPDATE discord_servers SET members = 200, active_users = 30 WHERE id % 50 = 6');
  await t.client.execute('UPDATE discord_servers SET members = 0, active_users = 0 WHERE id % 50 = 8');
  every = await t.db.select().from(discordServers);
});
afterAll(() => t.cleanup());

const FILTERS: ServerFilter[] = [
  {},
  { sort: 'featured' },
  { category: 'Gaming', page: 3 },
  { category: 'all', premiumOnly: true, sort: 'featured', perPage: 6 },
  { category: 'Investing', subcategory: 'day-trading', perPage: 24 },
  { category: 'Trading', subcategory: 'ALL' },
  { search: 'lfg' },
  { search: 'Ranked', category: 'Gaming', page: 2 },
  { search: 'ab' },
  { search: 'nothing-matches-this' },
  { subcategory: 'defi', premiumOnly: true },
  { sort: 'active' },
  { sort: 'active', page: 4, perPage: 24 },
  { sort: 'newest' },
  { sort: 'newest', category: 'Crypto', page: 2 },
  { sort: 'growing' },
  { sort: 'growing', premiumOnly: true, perPage: 24 },
  { minMembers: 1_000, maxMembers: 50_000 },
  { minMembers: 200, maxMembers: 200, perPage: 100 },
  { maxMembers: 0, perPage: 100 },
  { minOnlineShare: 0.15, perPage: 100 },
  { minOnlineShare: 0.2, sort: 'active' },
  { checked24h: true, perPage: 100 },
  { checked24h: true, sort: 'newest', category: 'Sports Betting' },
  { search: 'lfg', sort: 'growing', minMembers: 500 },
  { search: 'ab', checked24h: true, minOnlineShare: 0.1 },
];

describe('the listing rules in SQL and in JavaScript', () => {
  for (const filter of FILTERS) {
    it(`answer ${JSON.stringify(filter)} alike`, async () => {
      const sql = await listServers(t.db, filter, NOW);
      const js = pageOfServers(every, filter, NOW);
      expect(sql.total).toBe(js.total);
      expect(sql.servers.map((s) => s.id)).toEqual(js.servers.map((s) => s.id));
    });
  }

  it('have rows to tell apart: the filters above are not all empty, nor all everything', async () => {
    const all = pageOfServers(every, {}, NOW).total;
    expect(pageOfServers(every, { premiumOnly: true }, NOW).total).toBeGreaterThan(0);
    expect(pageOfServers(every, { search: 'lfg' }, NOW).total).toBeGreaterThan(0);
    for (const filter of [
      { minOnlineShare: 0.15 },
      { checked24h: true },
      { minMembers: 1_000, maxMembers: 50_000 },
      { minMembers: 200, maxMembers: 200 },
    ] satisfies ServerFilter[]) {
      const { total } = pageOfServers(every, filter, NOW);
      expect(total, JSON.stringify(filter)).toBeGreaterThan(0);
      expect(total, JSON.stringify(filter)).toBeLessThan(all);
    }
    // The boundary rows count: a share of exactly 0.15, a check exactly 24 hours old.
    const boundary = every.find((s) => s.members === 200 && isListed(s) && s.last_ok_at === checkedSince(NOW));
    expect(boundary).toBeDefined();
    expect(pageOfServers(every, { minOnlineShare: 0.15, checked24h: true, perPage: 1000 }, NOW).servers).toContainEqual(
      boundary,
    );
    // Each order differs from Most Members on these rows.
    const ids = async (sort: ServerFilter['sort']) => (await listServers(t.db, { sort }, NOW)).servers.map((s) => s.id);
    const members = await ids('members');
    for (const sort of ['active', 'newest', 'growing'] as const) expect(await ids(sort), sort).not.toEqual(members);
  });

  it('leave dead and wrong_guild listings off every listing; a dead one keeps its page', async () => {
    const listed = await listServers(t.db, { perPage: 1000 }, NOW);
    expect(listed.total).toBe(every.filter(isListed).length);
    expect(listed.servers.some((s) => s.invite_status === 'dead' || s.invite_status === 'wrong_guild')).toBe(false);
    for (const status of ['suspect', 'paused', 'expiring', 'unchecked', 'ok'] as const) {
      expect(
        listed.servers.some((s) => s.invite_status === status),
        status,
      ).toBe(true);
    }
    const pages = await listServersWithPages(t.db);
    expect(pages.map((s) => s.id).sort((a, b) => a - b)).toEqual(
      every
        .filter(hasPage)
        .map((s) => s.id)
        .sort((a, b) => a - b),
    );
    expect(pages.some((s) => s.invite_status === 'dead')).toBe(true);
    expect(pages.some((s) => s.invite_status === 'wrong_guild')).toBe(false);
  });

  it('bring a listing back by itself once its invite answers again', async () => {
    const dead = every.find((s) => s.invite_status === 'dead' && s.is_active && s.category === 'Gaming')!;
    const search = { search: dead.name, perPage: 100 };
    expect((await listServers(t.db, search, NOW)).servers.map((s) => s.id)).not.toContain(dead.id);
    await t.client.execute({ sql: "UPDATE discord_servers SET invite_status = 'ok' WHERE id = ?", args: [dead.id] });
    try {
      expect((await listServers(t.db, search, NOW)).servers.map((s) => s.id)).toContain(dead.id);
    } finally {
      await t.client.execute({
        sql: "UPDATE discord_servers SET invite_status = 'dead' WHERE id = ?",
        args: [dead.id],
      });
    }
  });
});
