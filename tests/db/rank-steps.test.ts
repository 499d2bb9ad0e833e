import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { insertFakeServers } from '../../db/fake';
import { insertFakeHistory } from '../../db/queries/fake-history';
import { IDS_PER_STEP, idSteps, stepSize } from '../../db/queries/listing-steps';
import { listCheckedSince, nicheShareMedians, readRankInputs } from '../../db/queries/rank';
import { CHECKED_WORKING, NICHE_MIN_MEMBERS } from '../../src/lib/ranking/constants';
import { median } from '../../src/lib/ranking/signals';
import { createTestDb, type TestDb } from '../helpers/db';

// The reads over every listing go in steps of 2,000 ids or pages of 2,000 rows (db/queries/rank.ts):
// 4,500 listings make three, and the fake history gives many listings the same check time.
let t: TestDb;
const now = new Date('2026-11-28T12:00:00.000Z');
const SIZE = 4_500;

beforeEach(async () => {
  t = await createTestDb();
  await insertFakeServers(t.client, SIZE);
  await insertFakeHistory(t.db, now);
});
afterEach(() => t.cleanup());

const rows = async (sql: string, args: (string | number)[] = []) =>
  (await t.client.execute({ sql, args })).rows as unknown as Record<string, unknown>[];

describe('the reads over every listing, in steps', () => {
  it('list each listing checked since a time once, as one read of all of them would', async () => {
    for (const since of ['', '2026-11-28T00:00:00.000Z', '2026-11-28T06:00:00.000Z', '2026-11-29T00:00:00.000Z']) {
      const found = await listCheckedSince(t.db, since, '2026-10-28T00:00:00.000Z');
      const expected = await rows('SELECT id FROM discord_servers WHERE last_checked_at > ? ORDER BY id', [since]);
      expect(found.map((l) => l.id).sort((a, b) => a - b)).toEqual(expected.map((r) => Number(r.id)));
    }
  });

  it('read every listing and its history once (readRankInputs), as one read would', async () => {
    const windows = {
      onlineSince: '2026-11-21T12:00:00.000Z',
      growthSince: '2026-10-29T12:00:00.000Z',
      interestSince: '2026-10-29T12:00:00.000Z',
    };
    const inputs = await readRankInputs(t.db, windows);
    expect(inputs.listings.map((l) => l.id)).toEqual([...Array(SIZE).keys()].map((i) => i + 1));
    const firsts = await rows(
      `SELECT server_id AS id, member_count AS v, min(checked_at) FROM server_snapshots
       WHERE checked_at >= ? AND member_count IS NOT NULL GROUP BY server_id`,
      [windows.growthSince],
    );
    expect(inputs.firstMembers).toEqual(new Map(firsts.map((r) => [Number(r.id), Number(r.v)])));
    expect(inputs.medianOnline.size).toBe(SIZE);
    expect(inputs.interest.size).toBe(SIZE / 10);
    // One category's: the same rows as the whole read's of that category.
    const gaming = await readRankInputs(t.db, windows, { category: 'Gaming' });
    expect(gaming.listings).toEqual(inputs.listings.filter((l) => l.category === 'Gaming'));
    expect([...gaming.medianOnline.keys()]).toEqual(gaming.listings.map((l) => l.id));
  });

  it('take each category’s median share over all its working listings (nicheShareMedians)', async () => {
    const shares = await rows(
      `SELECT category, min(1.0, active_users * 1.0 / members) AS share FROM discord_servers
       WHERE members >= ? AND invite_status IN (${CHECKED_WORKING.map(() => '?').join(', ')})`,
      [NICHE_MIN_MEMBERS, ...CHECKED_WORKING],
    );
    const byCategory = new Map<string, number[]>();
    for (const r of shares)
      byCategory.set(String(r.category), [...(byCategory.get(String(r.category)) ?? []), Number(r.share)]);
    const medians = await nicheShareMedians(t.db);
    expect(medians.size).toBe(5);
    for (const [category, list] of byCategory) expect(medians.get(category)).toBe(median(list));
  });

  it('go in steps of 2,000 ids on a local file, in one on a remote database (each read a subrequest of the Worker)', async () => {
    const steps = async (db: Db) => {
      const ranges: [number, number][] = [];
      for await (const step of idSteps(db)) ranges.push([step.from, step.to]);
      return ranges;
    };
    expect(stepSize(t.db)).toBe(IDS_PER_STEP);
    expect(await steps(t.db)).toEqual([
      [1, 2_001],
      [2_001, 4_001],
      [4_001, 6_001],
    ]);
    // The same database as a remote client names it (Turso over HTTP: @libsql/client/web).
    const remote = Object.create(t.db, { $client: { value: { protocol: 'https' } } }) as Db;
    expect(await steps(remote)).toEqual([[1, 4_501]]);
  });
});
