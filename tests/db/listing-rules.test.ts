// One listing rule, two runners: listServers (SQL, db/queries/servers.ts) and pageOfServers
// (src/lib/listing.ts, over the build's rows and the API's sample fallback) answer every filter
// and sort alike over the same rows, hidden and unlisted servers included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertFakeServers } from '../../db/fake';
import { listServers, type Server, type ServerFilter } from '../../db/queries/servers';
import { discordServers } from '../../db/schema';
import { seedIfEmpty } from '../../db/seed';
import { pageOfServers } from '../../src/lib/listing';
import { createTestDb, type TestDb } from '../helpers/db';

let t: TestDb;
let every: Server[];
beforeAll(async () => {
  t = await createTestDb();
  // The samples bring a hidden-category server (Education); the fakes every category and subcategory.
  await seedIfEmpty(t.db);
  await insertFakeServers(t.client, 600);
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
];

describe('the listing rules in SQL and in JavaScript', () => {
  for (const filter of FILTERS) {
    it(`answer ${JSON.stringify(filter)} alike`, async () => {
      const sql = await listServers(t.db, filter);
      const js = pageOfServers(every, filter);
      expect(sql.total).toBe(js.total);
      expect(sql.servers.map((s) => s.id)).toEqual(js.servers.map((s) => s.id));
    });
  }

  it('have rows to tell apart: the filters above are not all empty', () => {
    expect(pageOfServers(every, { premiumOnly: true }).total).toBeGreaterThan(0);
    expect(pageOfServers(every, { search: 'lfg' }).total).toBeGreaterThan(0);
  });
});
