import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertFakeServers } from '../../db/fake';
import { insertFakeHistory } from '../../db/queries/fake-history';
import { listGrowingServers } from '../../db/queries/newsletter';
import { UNLISTED_INVITE_STATUSES } from '../../src/lib/listing';
import { createTestDb, type TestDb } from '../helpers/db';

// listGrowingServers reads by steps of 2,000 listing ids (db/queries/listing-steps.ts): 4,500
// listings with a week of checks each make three steps, and the best of each step are merged.
let t: TestDb;
const now = new Date('2026-11-28T12:00:00.000Z');

beforeEach(async () => {
  t = await createTestDb();
  await insertFakeServers(t.client, 4_500);
  await insertFakeHistory(t.db, now);
  // A few listings off the list: hidden, or whose invite is dead.
  await t.client.execute('UPDATE discord_servers SET is_active = 0 WHERE id % 97 = 0');
  await t.client.execute("UPDATE discord_servers SET invite_status = 'dead' WHERE id % 89 = 0");
});
afterEach(() => t.cleanup());

describe("the newsletter's fastest-growing listings", () => {
  it('are the ones one read of every listing ranks first (growth since the first check of the window, then id)', async () => {
    for (const days of [3, 7, 30]) {
      const since = new Date(now.getTime() - days * 86_400_000).toISOString();
      const expected = await t.client.execute({
        sql: `SELECT s.id FROM discord_servers s
          JOIN (SELECT server_id, member_count, min(checked_at) FROM server_snapshots
                WHERE checked_at >= ? AND outcome = 'ok' AND member_count > 0 GROUP BY server_id) f ON f.server_id = s.id
          WHERE s.is_active = 1 AND s.invite_status NOT IN (${UNLISTED_INVITE_STATUSES.map(() => '?').join(', ')}) AND s.members > f.member_count
          ORDER BY (s.members - f.member_count) * 1.0 / f.member_count DESC, s.id LIMIT 5`,
        args: [since, ...UNLISTED_INVITE_STATUSES],
      });
      const found = await listGrowingServers(t.db, since);
      expect(found.map((g) => g.id)).toEqual(expected.rows.map((r) => Number(r.id)));
      expect(found.length).toBe(5);
    }
  });
});
