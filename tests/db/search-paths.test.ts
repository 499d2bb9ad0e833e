import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertFakeServers } from '../../db/fake';
import { listAllActiveServers, listServers, SEARCH_TOTAL_CAP, type Server } from '../../db/queries/servers';
import { MIN_INDEXED_SEARCH, pageOfServers, SHORT_TERM_WINDOW } from '../../src/lib/listing';
import { createTestDb, type TestDb } from '../helpers/db';

// 4,000 servers: 'community' is in every one (more trigram matches than a search sorts, so it
// walks the members index), 'valorant' in a few dozen (sorted), 'crypto' in about a fifth.
let t: TestDb;
let all: Server[];
beforeAll(async () => {
  t = await createTestDb();
  await insertFakeServers(t.client, 4_000);
  all = await listAllActiveServers(t.db);
});
afterAll(() => t.cleanup());

/**
 * What listServers must answer, by the listing's own rules (matchesFilter) over every listed server;
 * a term of one or two characters over the order's first SHORT_TERM_WINDOW listings only.
 */
const expected = (search: string, category?: string, page = 1, perPage = 9) => {
  const listed = pageOfServers(all, { category, perPage: all.length });
  const windowed = [...search.trim()].length < MIN_INDEXED_SEARCH && listed.total > SHORT_TERM_WINDOW;
  const pool = windowed ? listed.servers.slice(0, SHORT_TERM_WINDOW) : all;
  const want = pageOfServers(pool, { search, category, page, perPage });
  return { ids: want.servers.map((s) => s.id), total: want.total, windowed };
};

describe('listServers search over many servers', () => {
  for (const [term, category, page] of [
    ['community', undefined, 1],
    ['community', undefined, 40],
    ['COMMUNITY', 'Crypto', 2],
    ['crypto', undefined, 3],
    ['valorant', undefined, 1],
    ['satoshi', 'Crypto', 1],
    ['zzzzzz', undefined, 1],
    ['hub', 'Gaming', 3],
    ['lf', undefined, 2],
    ['ca', 'Trading', 1],
    ['qz', undefined, 1],
    ['Daily discussion', 'Investing', 5],
    ['members and', undefined, 7],
    ['café', undefined, 1],
  ] as const) {
    it(`matches the listing rules for "${term}"${category ? ` in ${category}` : ''}, page ${page}`, async () => {
      const want = expected(term, category, page);
      const got = await listServers(t.db, { search: term, category, page });
      if (got.totalExact) {
        expect(got.total).toBe(want.total);
      } else if (want.windowed) {
        // The window's matches, counted up to the cap: at least that many in all.
        expect(got.total).toBe(Math.min(want.total, SEARCH_TOTAL_CAP));
      } else {
        // Past the cap the count stops and says so; the page is still the right one.
        expect(want.total).toBeGreaterThan(SEARCH_TOTAL_CAP);
        expect(got.total).toBe(SEARCH_TOTAL_CAP);
      }
      expect(got.servers.map((s) => s.id)).toEqual(want.ids);
    });
  }

  it('counts a few matches exactly and says "more than the cap" for a term in nearly every listing', async () => {
    expect(await listServers(t.db, { search: 'valorant' })).toMatchObject({ totalExact: true });
    const common = await listServers(t.db, { search: 'community' });
    expect(common).toMatchObject({ total: SEARCH_TOTAL_CAP, totalExact: false });
    expect(expected('community').total).toBeGreaterThan(3_000);
  });

  it('answers no page past the capped count', async () => {
    const past = Math.ceil(SEARCH_TOTAL_CAP / 9) + 1;
    expect((await listServers(t.db, { search: 'community', page: past })).servers).toEqual([]);
  });

  it('finds a term that is only in a tag, on both plans', async () => {
    const tagOnly = all.find((s) => s.tags.some((tag) => !s.description.toLowerCase().includes(tag.toLowerCase())));
    expect(tagOnly).toBeDefined();
    const tag = tagOnly!.tags.find((x) => !tagOnly!.description.toLowerCase().includes(x.toLowerCase()))!;
    const want = expected(tag, tagOnly!.category, 1, 50);
    const got = await listServers(t.db, { search: tag, category: tagOnly!.category, perPage: 50 });
    expect(got.servers.map((s) => s.id)).toEqual(want.ids);
  });
});
