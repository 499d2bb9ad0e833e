import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertFakeServers } from '../../db/fake';
import { listAllActiveServers, listServers, type Server } from '../../db/queries/servers';
import { createTestDb, type TestDb } from '../helpers/db';

let t: TestDb;
let all: Server[];
beforeAll(async () => {
  t = await createTestDb();
  await insertFakeServers(t.client, 2_600);
  all = await listAllActiveServers(t.db);
});
afterAll(() => t.cleanup());

/** What listServers must answer, computed by brute force over every active server. */
function expected(term: string, category?: string, page = 1, perPage = 9) {
  const needle = term.toLowerCase();
  const hits = all
    .filter((s) => !category || s.category === category)
    .filter((s) => s.name.toLowerCase().includes(needle) || s.description.toLowerCase().includes(needle))
    .sort((a, b) => b.members - a.members || a.id - b.id);
  return { ids: hits.slice((page - 1) * perPage, page * perPage).map((s) => s.id), total: hits.length };
}

describe('listServers search over many servers', () => {
  // 'community' matches every fake server (the members-index path), the others few (the sort path).
  for (const [term, category, page] of [
    ['community', undefined, 1],
    ['community', undefined, 40],
    ['COMMUNITY', 'Crypto', 2],
    ['valorant', undefined, 1],
    ['satoshi', 'Crypto', 1],
    ['zzzzzz', undefined, 1],
    ['hub', 'Gaming', 3],
  ] as const) {
    it(`matches a brute-force search for "${term}"${category ? ` in ${category}` : ''}, page ${page}`, async () => {
      const want = expected(term, category, page);
      const got = await listServers(t.db, { search: term, category, page });
      expect(got.total).toBe(want.total);
      expect(got.servers.map((s) => s.id)).toEqual(want.ids);
    });
  }

  it('covers both plans: some terms match more than 2,000 servers and some fewer', () => {
    expect(expected('community').total).toBeGreaterThan(2_000);
    expect(expected('valorant').total).toBeLessThan(2_000);
    expect(expected('valorant').total).toBeGreaterThan(9);
  });
});
