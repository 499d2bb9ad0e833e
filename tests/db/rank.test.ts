import { desc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { confirmedFlags, listFlagQueue, reviewFlag } from '../../db/queries/flags';
import { categoryRankOf } from '../../db/queries/servers';
import {
  discordServers,
  type NewServerRow,
  serverFlags,
  serverReports,
  serverSnapshots,
  userInteractions,
} from '../../db/schema';
import { evaluateAnomalies, rankApproved, run as rankPass, recomputeRanks } from '../../functions/_app/jobs/rank';
import { isListed } from '../../src/lib/listing';
import { createTestDb, type TestDb } from '../helpers/db';

const NOW = new Date('2026-11-23T12:00:00.000Z');
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000).toISOString();

let t: TestDb;
beforeEach(async () => {
  t = await createTestDb();
});
afterEach(() => t.cleanup());

/** A checked listing, created long ago, its last working check 2 hours ago. */
async function listing(name: string, change: Partial<NewServerRow> = {}) {
  const [row] = await t.db
    .insert(discordServers)
    .values({
      name,
      slug: name.toLowerCase().replace(/\W+/g, '-'),
      category: 'Gaming',
      members: 5_000,
      active_users: 500,
      invite_status: 'ok',
      last_checked_at: hoursAgo(2),
      last_ok_at: hoursAgo(2),
      created_at: hoursAgo(24 * 400),
      ...change,
    })
    .returning();
  return row!;
}

/** Daily ok checks over `days` days, the last one 2 hours ago. */
async function dailyChecks(serverId: number, days: number, counts: (day: number) => [members: number, online: number]) {
  await t.db.insert(serverSnapshots).values(
    Array.from({ length: days }, (_, d) => {
      const [member_count, online_count] = counts(d);
      return {
        server_id: serverId,
        checked_at: hoursAgo(2 + (days - 1 - d) * 24),
        outcome: 'ok' as const,
        member_count,
        online_count,
      };
    }),
  );
}

const ranked = async () =>
  (await t.db.select().from(discordServers).orderBy(desc(discordServers.rank_score))).map((s) => s.name);

describe('recomputeRanks', () => {
  it('orders a fixture by checked activity and writes score, parts and 30-day growth', async () => {
    const lively = await listing('Lively', { members: 2_990, active_users: 600 });
    await dailyChecks(lively.id, 30, (d) => [2_700 + d * 10, 600]);
    await t.db.insert(userInteractions).values(
      Array.from({ length: 40 }, (_, i) => ({
        interaction_type: i < 10 ? ('click' as const) : ('view' as const),
        target_type: 'server' as const,
        server_id: lively.id,
        ip_address: `visitor-${i}`,
        created_at: hoursAgo(10),
      })),
    );
    const big = await listing('Big but quiet', { members: 300_000, active_users: 6_000 });
    await dailyChecks(big.id, 10, () => [300_000, 6_000]);
    const stale = await listing('Stale', { members: 3_000, active_users: 600, last_ok_at: hoursAgo(24 * 6) });
    const reported = await listing('Reported', { members: 3_000, active_users: 600 });
    await t.db.insert(serverReports).values([
      { server_id: reported.id, reason: 'spam', session_id: 'a' },
      { server_id: reported.id, reason: 'spam', session_id: 'b' },
      // The same reporter twice counts once.
      { server_id: reported.id, reason: 'other', session_id: 'b' },
    ]);
    await listing('Dead', { members: 90_000, active_users: 30_000, invite_status: 'dead' });
    await listing('Never checked', {
      members: 90_000,
      active_users: 30_000,
      invite_status: 'unchecked',
      last_ok_at: null,
    });

    const run = await recomputeRanks(t.db, NOW);
    // Every listing gets its parts written, excluded ones too (status 0 says why).
    expect(run).toMatchObject({ listings: 6, updated: 6 });
    expect(await ranked()).toEqual(['Lively', 'Big but quiet', 'Reported', 'Stale', 'Dead', 'Never checked']);

    const [row] = await t.db.select().from(discordServers).where(eq(discordServers.id, lively.id));
    expect(row!.growth_30d).toBeCloseTo(290 / 2_700, 4);
    expect(row!.rank_explain).toMatchObject({ status: 1, freshness: 1, growth: 0.1 });
    expect(row!.rank_explain!.interest).toBeGreaterThan(0);
    const [rep] = await t.db.select().from(discordServers).where(eq(discordServers.id, reported.id));
    expect(rep!.rank_explain!.trust).toBe(0.8);
    expect(stale.id).toBeGreaterThan(0);

    // Nothing changed since: nothing is written again.
    expect((await recomputeRanks(t.db, NOW)).updated).toBe(0);
  });

  it('gives premium, sponsored and hand-ordered listings no edge', async () => {
    const plain = await listing('Plain');
    const paid = await listing('Paid', { is_premium: true, is_sponsored: true, sort_order: 999 });
    await recomputeRanks(t.db, NOW);
    const rows = await t.db.select().from(discordServers);
    const score = (id: number) => rows.find((r) => r.id === id)!.rank_score;
    expect(score(paid.id)).toBeGreaterThan(0);
    expect(score(paid.id)).toBe(score(plain.id));
  });

  it('more people online never lowers a listing below a less active twin', async () => {
    const quiet = await listing('Quiet', { active_users: 100 });
    const busy = await listing('Busy', { active_users: 2_000 });
    await recomputeRanks(t.db, NOW);
    const rows = await t.db.select().from(discordServers);
    expect(rows.find((r) => r.id === busy.id)!.rank_score).toBeGreaterThan(
      rows.find((r) => r.id === quiet.id)!.rank_score,
    );
  });
});

describe('what a recompute changed on the pages', () => {
  it('names the listings it rewrote and the ones another passed in their category, and nothing when nothing moved', async () => {
    const first = await listing('First', { active_users: 900 });
    const second = await listing('Second', { active_users: 600 });
    const third = await listing('Third', { active_users: 300 });
    const elsewhere = await listing('Elsewhere', { category: 'Crypto' });
    const initial = await recomputeRanks(t.db, NOW);
    expect(initial.changedSlugs.sort()).toEqual(['elsewhere', 'first', 'second', 'third']);
    expect((await recomputeRanks(t.db, NOW)).changedSlugs).toEqual([]);

    // Three open reports on First: its score falls below Second's. Second's score is as it was, but
    // its place moved (both places are rewritten); Third stays third and Elsewhere is in another category.
    await t.db
      .insert(serverReports)
      .values(['a', 'b', 'c'].map((session_id) => ({ server_id: first.id, reason: 'spam' as const, session_id })));
    const moved = await recomputeRanks(t.db, NOW);
    expect(moved.updated).toBe(2);
    expect(moved.changedSlugs.sort()).toEqual(['first', 'second']);
    expect([second.id, third.id, elsewhere.id]).toHaveLength(3);
  });

  it('a hidden listing with a new score changes no page', async () => {
    await listing('Shown');
    const hidden = await listing('Hidden', { is_active: false });
    await recomputeRanks(t.db, NOW);
    await t.db.insert(serverReports).values({ server_id: hidden.id, reason: 'spam', session_id: 'a' });
    const run = await recomputeRanks(t.db, NOW);
    expect(run.updated).toBe(1);
    expect(run.changedSlugs).toEqual([]);
  });

  it('a part that drifts with the clock names a page only when the page prints it differently', async () => {
    // Created now: the new-listing boost (newness, four decimals) falls at every later recompute.
    const unchecked = await listing('Unchecked', {
      invite_status: 'unchecked',
      last_ok_at: null,
      created_at: NOW.toISOString(),
    });
    const fresh = await listing('Fresh', { created_at: NOW.toISOString() });
    expect((await recomputeRanks(t.db, NOW)).changedSlugs.sort()).toEqual(['fresh', 'unchecked']);
    // A day later both listings' newness fell (×1.15 -> ×1.1395): the unchecked one prints "not
    // ranked yet" either way, so its row is not written; the ranked one prints a new boost and score.
    const before = await t.db.select().from(discordServers).where(eq(discordServers.id, unchecked.id));
    const later = await recomputeRanks(t.db, new Date(NOW.getTime() + 24 * 3_600_000));
    expect(later.updated).toBe(1);
    expect(later.changedSlugs).toEqual(['fresh']);
    const [row] = await t.db.select().from(discordServers).where(eq(discordServers.id, unchecked.id));
    expect(row!.rank_score).toBe(0);
    expect(row!.rank_explain).toEqual(before[0]!.rank_explain);
    expect(fresh.id).not.toBe(unchecked.id);
  });

  it("one category's recompute scores it as the full recompute does, and leaves the others alone", async () => {
    const a = await listing('Gamer A', { active_users: 700 });
    await dailyChecks(a.id, 10, () => [5_000, 700]);
    await listing('Gamer B', { active_users: 200 });
    const coin = await listing('Coin C', { category: 'Crypto' });
    const scoped = await recomputeRanks(t.db, NOW, { category: 'Gaming' });
    expect(scoped).toMatchObject({ listings: 2, updated: 2 });
    expect(scoped.changedSlugs.sort()).toEqual(['gamer-a', 'gamer-b']);
    const [untouched] = await t.db.select().from(discordServers).where(eq(discordServers.id, coin.id));
    expect(untouched!.rank_score).toBe(0);
    // The full recompute agrees on Gaming: it only writes the Crypto listing.
    const full = await recomputeRanks(t.db, NOW);
    expect(full.updated).toBe(1);
    expect(full.changedSlugs).toEqual(['coin-c']);
  });
});

describe('the place a recompute stores (category_place)', () => {
  it('is 1 + the listed servers of the category ahead by score, members and id, as a naive count finds, for every scored listing over random listings', async () => {
    // A fixed pseudo-random draw (no flaky seed): categories, states, member ties and online counts.
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return Math.floor((seed / 2_147_483_648) * n);
    };
    const categories = ['Gaming', 'Crypto', 'Trading', 'Knitting'];
    const statuses = ['ok', 'ok', 'ok', 'unchecked', 'dead', 'wrong_guild', 'expiring'] as const;
    for (let i = 0; i < 120; i++) {
      await listing(`Random ${i}`, {
        category: categories[next(categories.length)]!,
        invite_status: statuses[next(statuses.length)]!,
        is_active: next(10) > 0,
        members: [100, 5_000, 5_000, 40_000][next(4)]!,
        active_users: [0, 50, 500, 500][next(4)]!,
      });
    }
    await recomputeRanks(t.db, NOW);
    const rows = await t.db.select().from(discordServers);
    const listed = rows.filter((r) => isListed(r));
    expect(new Set(listed.map((r) => r.rank_score)).size).toBeGreaterThan(3);
    expect(listed.some((r) => r.rank_score === 0)).toBe(true);
    for (const r of rows) {
      // Unlisted, or listed but unscored (its page and the rank badge print no place): none stored.
      if (!isListed(r) || r.rank_score <= 0) {
        expect(r.category_place, r.name).toBeNull();
        if (isListed(r)) expect(await categoryRankOf(t.db, r), r.name).toBeUndefined();
        continue;
      }
      const ahead = listed.filter(
        (o) =>
          o.category === r.category &&
          (o.rank_score > r.rank_score ||
            (o.rank_score === r.rank_score && (o.members > r.members || (o.members === r.members && o.id < r.id)))),
      ).length;
      expect(r.category_place, r.name).toBe(ahead + 1);
      // What a page and the API show: the stored place among the category's listed servers now.
      const of = listed.filter((o) => o.category === r.category).length;
      expect(await categoryRankOf(t.db, r)).toEqual({ rank: ahead + 1, of });
    }
  });

  it('moves when a listing leaves its category at the next recompute, and is written only when it changed', async () => {
    const first = await listing('First', { active_users: 900 });
    const second = await listing('Second', { active_users: 600 });
    const third = await listing('Third', { active_users: 300 });
    await recomputeRanks(t.db, NOW);
    const placeOf = async (id: number) =>
      (await t.db.select().from(discordServers).where(eq(discordServers.id, id)))[0]!.category_place;
    expect([await placeOf(first.id), await placeOf(second.id), await placeOf(third.id)]).toEqual([1, 2, 3]);
    await t.db.update(discordServers).set({ invite_status: 'dead' }).where(eq(discordServers.id, first.id));
    // Until the recompute the page keeps the stored place, never past the category's size.
    expect(await categoryRankOf(t.db, { category: 'Gaming', category_place: 3 })).toEqual({ rank: 2, of: 2 });
    const run = await recomputeRanks(t.db, NOW);
    expect(run.changedSlugs.sort()).toEqual(['first', 'second', 'third']);
    expect([await placeOf(first.id), await placeOf(second.id), await placeOf(third.id)]).toEqual([null, 1, 2]);
    expect((await recomputeRanks(t.db, NOW)).updated).toBe(0);
  });
});

describe("an approval's scoring (rankApproved)", () => {
  /** A seeded draw (a failure names its seed): an index below n. */
  const drawFrom = (seed: number) => {
    let a = seed * 7_919 + 13;
    return (n: number) => {
      a = (a * 1_103_515_245 + 12_345) % 2_147_483_648;
      return Math.floor((a / 2_147_483_648) * n);
    };
  };
  const pick = <T>(draw: (n: number) => number, list: readonly T[]): T => list[draw(list.length)]!;

  /** A random directory (the same rows in every database it is written to), its ranks computed once (the steady state). */
  async function directory(db: Db, seed: number) {
    const draw = drawFrom(seed);
    const statuses = ['ok', 'ok', 'ok', 'expiring', 'paused', 'suspect', 'unchecked', 'dead', 'wrong_guild'] as const;
    // Drawn in the order of a row at a time (each row, then its history if it has one), written in
    // two statements: the rows come back with their ids in insertion order.
    const rows: (typeof discordServers.$inferInsert)[] = [];
    const histories: { row: number; members: number; online: number }[] = [];
    for (let i = 0; i < 45; i++) {
      const status = pick(draw, statuses);
      const members = pick(draw, [10, 45, 100, 5_000, 5_000, 40_000]);
      rows.push({
        name: `Listing ${i}`,
        slug: `listing-${i}`,
        category: pick(draw, ['Gaming', 'Gaming', 'Gaming', 'Crypto', 'Knitting']),
        is_active: draw(10) > 0,
        members,
        active_users: pick(draw, [0, 10, 30, 50, 500, 2_000]),
        invite_status: status,
        last_checked_at: status === 'unchecked' ? null : hoursAgo(2),
        last_ok_at: status === 'unchecked' ? null : pick(draw, [hoursAgo(2), hoursAgo(2), hoursAgo(24 * 5)]),
        created_at: pick(draw, [hoursAgo(24 * 400), hoursAgo(24 * 3)]),
      });
      if (draw(3) === 0) histories.push({ row: i, members, online: pick(draw, [5, 40, 300]) });
    }
    const ids = (await db.insert(discordServers).values(rows).returning({ id: discordServers.id })).map((r) => r.id);
    if (histories.length > 0)
      await db.insert(serverSnapshots).values(
        histories.flatMap(({ row, members, online }) =>
          Array.from({ length: 4 }, (_, d) => ({
            server_id: ids[row]!,
            checked_at: hoursAgo(2 + d * 24),
            outcome: 'ok' as const,
            member_count: members - d,
            online_count: online + d,
          })),
        ),
      );
    await recomputeRanks(db, NOW);
    // The approved listing, as approveSubmission writes it: its check at submission is its first snapshot.
    const kind = pick(draw, ['small', 'small', 'small', 'suspect', 'niche', 'unchecked', 'hidden', 'dead'] as const);
    const members = kind === 'niche' ? 5_000 : pick(draw, [20, 45]);
    const online = kind === 'niche' ? pick(draw, [50, 500]) : pick(draw, [5, 15, 30, 44]);
    const status =
      kind === 'unchecked' ? 'unchecked' : kind === 'dead' ? 'dead' : kind === 'suspect' ? 'suspect' : ('ok' as const);
    const [created] = await db
      .insert(discordServers)
      .values({
        name: 'Approved',
        slug: 'approved',
        category: pick(draw, ['Gaming', 'Gaming', 'Crypto']),
        is_active: kind !== 'hidden',
        members,
        active_users: online,
        invite_status: status,
        last_checked_at: status === 'unchecked' ? null : hoursAgo(0.1),
        last_ok_at: status === 'unchecked' ? null : hoursAgo(0.1),
        created_at: hoursAgo(0.1),
      })
      .returning();
    if (status !== 'unchecked') {
      await db.insert(serverSnapshots).values({
        server_id: created!.id,
        checked_at: hoursAgo(0.1),
        outcome: 'ok',
        member_count: members,
        online_count: online,
      });
    }
    return created!;
  }

  const ranksOf = async (db: Db) =>
    (await db.select().from(discordServers).orderBy(discordServers.id)).map((r) => ({
      slug: r.slug,
      score: r.rank_score,
      explain: r.rank_explain,
      growth: r.growth_30d,
      place: r.category_place,
    }));

  it('writes and names what the recompute of its category would, over random directories in the steady state', async () => {
    const taken = { alone: 0, moved: 0, category: 0 };
    for (let seed = 1; seed <= 14; seed++) {
      const full = await createTestDb();
      const approval = await createTestDb();
      try {
        const created = await directory(full.db, seed);
        expect((await directory(approval.db, seed)).id).toBe(created.id);
        const recomputed = await recomputeRanks(full.db, NOW, { category: created.category });
        const scored = await rankApproved({ db: approval.db }, created.id, NOW.getTime());
        expect(scored.changedSlugs.toSorted(), `seed ${seed}`).toEqual(recomputed.changedSlugs.toSorted());
        expect(await ranksOf(approval.db), `seed ${seed}`).toEqual(await ranksOf(full.db));
        if (scored.category) taken.category++;
        else if (scored.changedSlugs.length > 1) taken.moved++;
        else taken.alone++;
      } finally {
        full.cleanup();
        approval.cleanup();
      }
    }
    // Every path was taken: alone (unscored or last), moving scored listings down, and the category's recompute.
    expect(taken.alone).toBeGreaterThan(2);
    expect(taken.moved).toBeGreaterThan(2);
    expect(taken.category).toBeGreaterThan(0);
  }, 120_000);
});

describe('evaluateAnomalies', () => {
  it('opens one flag per listing and rule, takes growth credit away, and only confirmed flags are public', async () => {
    const spiky = await listing('Spiky', { members: 50_000, active_users: 600 });
    await t.db.insert(serverSnapshots).values([
      { server_id: spiky.id, checked_at: hoursAgo(50), outcome: 'ok', member_count: 19_900, online_count: 590 },
      { server_id: spiky.id, checked_at: hoursAgo(26), outcome: 'ok', member_count: 20_000, online_count: 588 },
      { server_id: spiky.id, checked_at: hoursAgo(2), outcome: 'ok', member_count: 50_000, online_count: 600 },
    ]);
    await listing('Healthy');

    const first = await rankPass({ db: t.db }, NOW.getTime());
    expect(first.anomalies).toMatchObject({ evaluated: 2, opened: 1 });
    const queue = await listFlagQueue(t.db);
    expect(queue).toHaveLength(1);
    expect(queue[0]).toMatchObject({ server_id: spiky.id, rule: 'spike_no_presence', name: 'Spiky' });
    expect(queue[0]!.detail).toContain('Members rose by 30,000');
    const [scored] = await t.db.select().from(discordServers).where(eq(discordServers.id, spiky.id));
    expect(scored!.rank_explain).toMatchObject({ growth: 0, trust: 0.7 });

    // A second pass with newer checks finds it again but opens nothing new.
    await t.db
      .update(discordServers)
      .set({ last_checked_at: hoursAgo(1) })
      .where(eq(discordServers.id, spiky.id));
    expect((await evaluateAnomalies(t.db, new Date(NOW.getTime() + 60_000))).opened).toBe(0);
    expect(await t.db.select().from(serverFlags)).toHaveLength(1);

    expect((await confirmedFlags(t.db)).size).toBe(0);
    const reviewed = await reviewFlag(t.db, queue[0]!.id, 'confirmed', 'mod@example.com', NOW);
    expect(reviewed).toMatchObject({ verdict: 'confirmed', reviewed_by: 'mod@example.com', closed_at: null });
    expect(await listFlagQueue(t.db)).toHaveLength(0);
    expect((await confirmedFlags(t.db)).get(spiky.id)).toEqual([
      expect.objectContaining({ rule: 'spike_no_presence', detail: queue[0]!.detail }),
    ]);
    // A flag already reviewed cannot be reviewed again.
    expect(await reviewFlag(t.db, queue[0]!.id, 'dismissed', 'other@example.com', NOW)).toBeNull();
  });

  it('a dismissed rule does not reopen on the same listing within 30 days', async () => {
    const spiky = await listing('Spiky', { members: 50_000, active_users: 600 });
    await t.db.insert(serverSnapshots).values([
      { server_id: spiky.id, checked_at: hoursAgo(26), outcome: 'ok', member_count: 20_000, online_count: 588 },
      { server_id: spiky.id, checked_at: hoursAgo(2), outcome: 'ok', member_count: 50_000, online_count: 600 },
    ]);
    await evaluateAnomalies(t.db, NOW);
    const [flag] = await listFlagQueue(t.db);
    await reviewFlag(t.db, flag!.id, 'dismissed', 'mod@example.com', NOW);
    await t.db
      .update(discordServers)
      .set({ last_checked_at: hoursAgo(1) })
      .where(eq(discordServers.id, spiky.id));
    expect((await evaluateAnomalies(t.db, new Date(NOW.getTime() + 60_000))).opened).toBe(0);
    expect(await listFlagQueue(t.db)).toHaveLength(0);
  });

  it('judges online share against the niche median of checked listings (low_presence)', async () => {
    for (let i = 0; i < 5; i++) await listing(`Healthy ${i}`, { members: 2_000, active_users: 240 });
    const ghost = await listing('Ghost Town', { members: 20_000, active_users: 100 });
    await dailyChecks(ghost.id, 7, () => [20_000, 100]);
    await evaluateAnomalies(t.db, NOW);
    const queue = await listFlagQueue(t.db);
    expect(queue.map((f) => [f.name, f.rule])).toEqual([['Ghost Town', 'low_presence']]);
    expect(queue[0]!.detail).toContain('Gaming median (12.0\u00a0%)');
  });
});
