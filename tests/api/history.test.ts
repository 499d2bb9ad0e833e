import { afterEach, describe, expect, it } from 'vitest';
import { memberHistory } from '../../db/queries/history';
import { serverSnapshots } from '../../db/schema';
import { createTestDb, type TestDb } from '../helpers/db';
import { seedServer } from './api-harness';

let tdb: TestDb | undefined;
afterEach(() => {
  tdb?.cleanup();
  tdb = undefined;
});

const now = new Date('2030-06-30T12:00:00.000Z');
const at = (daysAgo: number, hour = 9) => new Date(Date.UTC(2030, 5, 30 - daysAgo, hour)).toISOString();

describe('memberHistory', () => {
  it("reads each day's last check with counts in the window, oldest first, for every listing in one call", async () => {
    tdb = await createTestDb();
    const a = await seedServer(tdb.db);
    const b = await seedServer(tdb.db);
    await tdb.db.insert(serverSnapshots).values([
      // Outside the 30-day window.
      { server_id: a.id, checked_at: at(31), outcome: 'ok', member_count: 1, online_count: 1 },
      { server_id: a.id, checked_at: at(2, 8), outcome: 'ok', member_count: 100, online_count: 10 },
      // The same day, later: this one is the day's point.
      { server_id: a.id, checked_at: at(2, 20), outcome: 'ok', member_count: 110, online_count: 11 },
      // An unknown invite carries no counts: no point.
      { server_id: a.id, checked_at: at(1), outcome: 'unknown_invite', member_count: null, online_count: null },
      { server_id: a.id, checked_at: at(0), outcome: 'paused', member_count: 120, online_count: null },
      { server_id: b.id, checked_at: at(5), outcome: 'ok', member_count: 7, online_count: 2 },
    ]);
    const all = await memberHistory(tdb.db, 'all', 30, now);
    expect(all.get(a.id)).toEqual([
      { checked_at: at(2, 20), members: 110, online: 11 },
      { checked_at: at(0), members: 120, online: null },
    ]);
    expect(all.get(b.id)).toEqual([{ checked_at: at(5), members: 7, online: 2 }]);

    const some = await memberHistory(tdb.db, [b.id], 30, now);
    expect([...some.keys()]).toEqual([b.id]);
    expect(await memberHistory(tdb.db, [], 30, now)).toEqual(new Map());
  });
});
