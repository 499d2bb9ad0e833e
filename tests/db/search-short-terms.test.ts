import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertFakeServers } from '../../db/fake';
import { listServers } from '../../db/queries/servers';
import { SHORT_TERM_WINDOW } from '../../src/lib/listing';
import { createTestDb, type TestDb } from '../helpers/db';

// A term of one or two characters is looked for among the order's first SHORT_TERM_WINDOW listings
// only (db/queries/servers.ts): a rare pair of letters read every listing before.
let t: TestDb;

beforeEach(async () => {
  t = await createTestDb();
});
afterEach(() => t.cleanup());

/** Gives listing `id` a name with the pair "qz" and `members` members. */
const rareName = (id: number, members: number) =>
  t.client.execute({
    sql: "UPDATE discord_servers SET name = 'Quiz QZ Club', members = ? WHERE id = ?",
    args: [members, id],
  });

describe('a search of one or two characters', () => {
  it('finds a match among the first listings of the order, and says its total is a lower bound', async () => {
    await insertFakeServers(t.client, SHORT_TERM_WINDOW + 50);
    await rareName(7, 10_000_000); // first by members
    await rareName(9, 0); // last by members: outside the window
    const found = await listServers(t.db, { search: 'qz', sort: 'members' });
    expect(found.servers.map((s) => s.id)).toEqual([7]);
    expect(found).toMatchObject({ total: 1, totalExact: false });
    // Another order puts the other one first.
    await rareName(7, 0);
    await rareName(9, 10_000_000);
    expect((await listServers(t.db, { search: 'qz', sort: 'members' })).servers.map((s) => s.id)).toEqual([9]);
  });

  it('finds every match, with an exact total, when the listings fit the window', async () => {
    await insertFakeServers(t.client, 500);
    await rareName(7, 10_000_000);
    await rareName(9, 0);
    const found = await listServers(t.db, { search: 'qz', sort: 'members' });
    expect(found.servers.map((s) => s.id)).toEqual([7, 9]);
    expect(found).toMatchObject({ total: 2, totalExact: true });
  });
});
