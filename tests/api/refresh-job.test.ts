// The refresh job (functions/_app/jobs/refresh.ts) against the loopback Discord stand-in, on a
// real libSQL file, with a fake clock: counts and history, the invite's life over days, the lease,
// the budget (no 10-minute span ever over it, 429s included), the breaker and --all.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { asc, eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { getJobState, getLastRun } from '../../db/queries/freshness';
import {
  auditLog,
  discordServers,
  ownerUsers,
  serverClaims,
  serverFlags,
  serverSnapshots,
  siteChanges,
  webhookOutbox,
} from '../../db/schema';
import { discordClient } from '../../functions/_app/clients/discord';
import type { RebuildTrigger } from '../../functions/_app/context';
import { loadEnv } from '../../functions/_app/env';
import { rankDue, run as rankPass } from '../../functions/_app/jobs/rank';
import { BLOCK_LADDER_MS, REFRESH_JOB, type RefreshDeps, refreshServer, run } from '../../functions/_app/jobs/refresh';
import { SCHEDULE } from '../../functions/_app/jobs/schedule';
import worker from '../../functions/worker';
import { BUDGET, passSubrequests, refreshPace, WORKER_LOOKUPS_PER_PASS } from '../../src/lib/invite-checks/budget';
import { RANK_JOB } from '../../src/lib/ranking/constants';
import { startLibsqlHttpServer } from '../fixtures/libsql-http-server';
import { createTestDb, type TestDb } from '../helpers/db';
import { type DiscordStandIn, startDiscordStandIn } from '../helpers/discord-stand-in';
import { runScript } from '../helpers/run-script';
import { FREE_PLAN_SUBREQUESTS, scheduledSubrequests } from '../helpers/worker-invocation';
import { readWranglerConfig } from '../helpers/wrangler-config';

const T0 = Date.parse('2030-06-01T00:00:00.000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const iso = (ms: number) => new Date(ms).toISOString();
const guildId = (i: number) => String(100_000_000_000_000_000n + BigInt(i));

let cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

interface Harness {
  db: Db;
  tdb: TestDb;
  discord: DiscordStandIn;
  deps: RefreshDeps;
  rebuilds: string[];
  /** Adds listings with invite codes `code0…`, every one known to the stand-in unless `known` is false. */
  addListings(count: number, options?: { known?: boolean; guildIds?: boolean }): Promise<void>;
  listing(code: string): Promise<typeof discordServers.$inferSelect>;
  snapshots(code: string): Promise<(typeof serverSnapshots.$inferSelect)[]>;
}

async function harness(env: Record<string, string> = {}): Promise<Harness> {
  const tdb = await createTestDb();
  cleanups.push(tdb.cleanup);
  const discord = await startDiscordStandIn();
  cleanups.push(() => discord.close());
  const rebuilds: string[] = [];
  const rebuild: RebuildTrigger = {
    request: (reason) => void rebuilds.push(reason),
    status: () => ({ state: 'idle', liveSince: null, lastDurationMs: null, lastError: null, lastReason: null }),
  };
  const deps: RefreshDeps = {
    db: tdb.db,
    env: loadEnv({ DATABASE_URL: tdb.url, DISCORD_API_BASE: discord.url, ...env }),
    rebuild,
  };
  let added = 0;
  const h: Harness = {
    db: tdb.db,
    tdb,
    discord,
    deps,
    rebuilds,
    async addListings(count, { known = true, guildIds = false } = {}) {
      const rows = Array.from({ length: count }, (_, k) => {
        const i = added + k;
        if (known)
          discord.invites.set(`code${i}`, {
            guild: { id: guildId(i), name: `Guild ${i}`, icon: `icon${i}` },
            memberCount: 1000 + i,
            onlineCount: 100 + i,
          });
        return {
          name: `Server ${i}`,
          category: 'Gaming',
          slug: `server-${i}`,
          members: 5,
          active_users: 1,
          invite_code: `code${i}`,
          guild_id: guildIds ? guildId(i) : null,
        };
      });
      added += count;
      for (let start = 0; start < rows.length; start += 500)
        await tdb.db.insert(discordServers).values(rows.slice(start, start + 500));
    },
    async listing(code) {
      const [row] = await tdb.db.select().from(discordServers).where(eq(discordServers.invite_code, code));
      return row!;
    },
    async snapshots(code) {
      const { id } = await h.listing(code);
      return tdb.db
        .select()
        .from(serverSnapshots)
        .where(eq(serverSnapshots.server_id, id))
        .orderBy(asc(serverSnapshots.checked_at));
    },
  };
  return h;
}

const pass = (h: Harness, now: number, options: Parameters<typeof run>[2] = {}) =>
  run(h.deps, now, { random: () => 0.5, sleep: async () => {}, ...options });

describe('the refresh job', () => {
  it('a pass takes Discord counts and icon, verifies the guild, writes one history row per check and asks for a rebuild', async () => {
    const h = await harness();
    await h.addListings(3);
    const summary = await pass(h, T0);
    expect(summary).toMatchObject({ checked: 3, ok: 3, unknown: 0, transient: 0, skipped: 0, lookups: 3 });
    expect(h.discord.requests.map((r) => r.path)).toEqual([
      '/api/v10/invites/code0?with_counts=true',
      '/api/v10/invites/code1?with_counts=true',
      '/api/v10/invites/code2?with_counts=true',
    ]);
    const row = await h.listing('code1');
    expect(row).toMatchObject({
      members: 1001,
      active_users: 101,
      guild_id: guildId(1),
      guild_icon: 'icon1',
      invite_status: 'ok',
      last_checked_at: iso(T0),
      last_ok_at: iso(T0),
    });
    expect(Date.parse(row.next_check_at)).toBeGreaterThan(T0 + 19 * HOUR);
    expect(Date.parse(row.next_check_at)).toBeLessThanOrEqual(T0 + 24 * HOUR);
    expect(await h.snapshots('code1')).toEqual([
      { server_id: row.id, checked_at: iso(T0), outcome: 'ok', member_count: 1001, online_count: 101 },
    ]);
    expect(h.rebuilds).toEqual(['refresh']);
    expect(await getLastRun(h.db, REFRESH_JOB)).toEqual({
      at: iso(T0),
      summary: expect.objectContaining({ checked: 3 }),
    });

    // Nothing is due an hour later; the next day the new counts come in.
    expect(await pass(h, T0 + HOUR)).toMatchObject({ lookups: 0, checked: 0 });
    h.discord.invites.get('code1')!.memberCount = 1500;
    const nextDay = await pass(h, T0 + 24 * HOUR);
    expect(nextDay).toMatchObject({ checked: 3, lookups: 3 });
    expect((await h.listing('code1')).members).toBe(1500);
    expect((await h.snapshots('code1')).map((s) => s.member_count)).toEqual([1001, 1500]);
    expect(h.rebuilds).toEqual(['refresh', 'refresh']);
  });

  it('a pass that changes no public fact asks for no rebuild', async () => {
    const h = await harness();
    await h.addListings(1);
    await pass(h, T0);
    await pass(h, T0 + 24 * HOUR);
    expect(h.rebuilds).toEqual(['refresh']);
    expect(await h.snapshots('code0')).toHaveLength(2);
  });

  it('a dead invite’s Discord webhook notice to the owners is written with the lookup, or the lookup is not recorded either', async () => {
    const h = await harness();
    await h.addListings(1);
    await pass(h, T0);
    h.discord.invites.delete('code0');
    const day = T0 + 24 * HOUR;
    for (const at of [day, day + HOUR, day + 7 * HOUR]) await pass(h, at);
    expect((await h.listing('code0')).invite_status).toBe('suspect');
    // The listing's owner has a Discord webhook.
    const { id } = await h.listing('code0');
    const [owner] = await h.db
      .insert(ownerUsers)
      .values({
        discord_user_id: '700000000000000001',
        username: 'owner',
        webhook_url: `https://discord.com/api/webhooks/123456789012345678/${'tOkEn_-'.repeat(10)}`,
      })
      .returning();
    await h.db.insert(serverClaims).values({ server_id: id, owner_id: owner!.id, proof: 'owner' });
    // The check that finds it dead: the database refuses the notice once (a crash, a lost connection).
    await h.tdb.client.execute(`CREATE TRIGGER refuse_notice BEFORE INSERT ON webhook_outbox
      BEGIN SELECT RAISE(ABORT, 'connection lost'); END`);
    await expect(pass(h, day + 31 * HOUR)).rejects.toThrow();
    await h.tdb.client.execute('DROP TRIGGER refuse_notice');
    // The next pass finds it dead again and writes the notice, once.
    await pass(h, day + 31 * HOUR + MINUTE);
    await pass(h, day + 31 * HOUR + 2 * MINUTE);
    expect((await h.listing('code0')).invite_status).toBe('dead');
    const notices = await h.db.select().from(webhookOutbox).where(eq(webhookOutbox.event, 'invite_dead'));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.owner_id).toBe(owner!.id);
  });

  it('an unknown invite turns suspect at once, dead after 3 failures over 24 hours, and ok again by itself', async () => {
    const h = await harness();
    await h.addListings(1);
    await pass(h, T0);
    const known = h.discord.invites.get('code0')!;
    h.discord.invites.delete('code0');
    const log: string[] = [];
    const statusAt = async (at: number) => {
      await pass(h, at, { log: (l) => log.push(l) });
      return (await h.listing('code0')).invite_status;
    };
    const day = T0 + 24 * HOUR;
    expect(await statusAt(day)).toBe('suspect');
    expect(await statusAt(day + 30 * MINUTE)).toBe('suspect'); // not due yet: no lookup
    expect(h.discord.requests).toHaveLength(2);
    expect(await statusAt(day + HOUR)).toBe('suspect');
    expect(await statusAt(day + 7 * HOUR)).toBe('suspect'); // 3 failures, but only 7 h
    expect(await statusAt(day + 31 * HOUR)).toBe('dead');
    expect(log).toEqual([expect.stringMatching(/server \d+ is dead \(4 unknown-invite answers since /)]);
    expect(await getLastRun(h.db, REFRESH_JOB)).toMatchObject({ summary: { alerts: [{ kind: 'dead' }] } });
    // Recorded for the owner's mail (a later issue), in the audit log, once.
    const { id } = await h.listing('code0');
    expect(await h.db.select().from(auditLog)).toEqual([
      expect.objectContaining({
        operator_id: null,
        action: 'refresh.dead',
        entity: 'server',
        entity_id: String(id),
        created_at: iso(day + 31 * HOUR),
      }),
    ]);
    expect((await h.snapshots('code0')).map((s) => s.outcome)).toEqual([
      'ok',
      'unknown_invite',
      'unknown_invite',
      'unknown_invite',
      'unknown_invite',
    ]);
    // The invite answers again: back to ok at the next daily check, streak forgotten.
    h.discord.invites.set('code0', known);
    expect(await statusAt(day + 55 * HOUR)).toBe('ok');
    expect(await h.listing('code0')).toMatchObject({
      fail_streak: 0,
      first_fail_at: null,
      last_ok_at: iso(day + 55 * HOUR),
    });
  });

  it('an invite that opens another guild hides the listing at once and alerts the operators', async () => {
    const h = await harness();
    await h.addListings(1);
    await pass(h, T0);
    h.discord.invites.set('code0', {
      guild: { id: '999999999999999999', name: 'Hijacked' },
      memberCount: 9,
      onlineCount: 9,
    });
    const log: string[] = [];
    const summary = await pass(h, T0 + 24 * HOUR, { log: (l) => log.push(l) });
    expect(summary).toMatchObject({ checked: 1, alerts: [{ kind: 'wrong_guild' }] });
    const row = await h.listing('code0');
    // Hidden, the verified guild kept, and the other guild's counts never shown.
    expect(row).toMatchObject({ invite_status: 'wrong_guild', guild_id: guildId(0), members: 1000 });
    expect(log).toEqual([
      expect.stringMatching(/opens guild 999999999999999999 instead of 100000000000000000: hidden/),
    ]);
    expect((await h.snapshots('code0')).at(-1)).toMatchObject({ outcome: 'wrong_guild', member_count: null });
    expect(await h.db.select().from(auditLog)).toEqual([
      expect.objectContaining({
        action: 'refresh.wrong_guild',
        entity_id: String(row.id),
        details: { kind: 'wrong_guild', expectedGuildId: guildId(0), guildId: '999999999999999999' },
      }),
    ]);
  });

  it('a first check that finds a guild another listing holds does not take it', async () => {
    const h = await harness();
    await h.addListings(1, { guildIds: true });
    await h.addListings(1);
    h.discord.invites.set('code1', h.discord.invites.get('code0')!);
    await pass(h, T0);
    expect(await h.listing('code1')).toMatchObject({ invite_status: 'wrong_guild', guild_id: null });
    expect(await h.listing('code0')).toMatchObject({ invite_status: 'ok', guild_id: guildId(0) });
  });

  it('transient failures leave the status alone, back off, and stop the pass after 3 in a row', async () => {
    const h = await harness();
    await h.addListings(5);
    await pass(h, T0);
    h.discord.mode = { kind: 'server_error', status: 502 };
    const summary = await pass(h, T0 + 24 * HOUR);
    expect(summary).toMatchObject({ checked: 0, transient: 3, lookups: 3, skipped: 2 });
    const rows = await h.db.select().from(discordServers).orderBy(asc(discordServers.id));
    expect(rows.map((r) => r.invite_status)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(rows.slice(0, 3).map((r) => r.next_check_at)).toEqual(Array(3).fill(iso(T0 + 24 * HOUR + 15 * MINUTE)));
    expect(await h.snapshots('code0')).toHaveLength(1);
    // Discord is back: the two left over go first, the three that failed follow after their back-off.
    h.discord.mode = { kind: 'normal' };
    const before = h.discord.requests.length;
    expect(await pass(h, T0 + 24 * HOUR + MINUTE)).toMatchObject({ checked: 2 });
    expect(h.discord.requests.slice(before).map((r) => r.path.split('?')[0])).toEqual([
      '/api/v10/invites/code3',
      '/api/v10/invites/code4',
    ]);
    expect(await pass(h, T0 + 24 * HOUR + 15 * MINUTE)).toMatchObject({ checked: 3 });
  });

  it('holds a lease: of two passes started together only one looks anything up', async () => {
    const h = await harness();
    await h.addListings(20);
    h.discord.delayMs = 5;
    const [a, b] = await Promise.all([pass(h, T0), pass(h, T0)]);
    expect([a, b].filter((r) => r === 'busy')).toHaveLength(1);
    const ran = (a === 'busy' ? b : a) as Exclude<typeof a, 'busy'>;
    expect(ran.lookups).toBe(20);
    expect(h.discord.requests).toHaveLength(20);
    expect(new Set(h.discord.requests.map((r) => r.path)).size).toBe(20);
    // Released at the end: the next pass takes it again.
    expect(await pass(h, T0 + MINUTE)).not.toBe('busy');
    expect((await getJobState(h.db, REFRESH_JOB))?.lease_holder).toBeNull();
  });

  it('a lease left by a runner that died is taken once it runs out', async () => {
    const h = await harness();
    await h.addListings(1);
    await h.db.run(
      sql`INSERT INTO job_state (name, lease_until, lease_holder) VALUES ('refresh', ${iso(T0 + 5 * MINUTE)}, 'dead runner')`,
    );
    expect(await pass(h, T0)).toBe('busy');
    expect(await pass(h, T0 + 5 * MINUTE + 1)).toMatchObject({ checked: 1 });
  });

  it('a 429 counts as a lookup, stops the pass and holds the job for retry_after', async () => {
    const h = await harness();
    await h.addListings(3);
    h.discord.mode = { kind: 'rate_limited', retryAfter: 30 };
    const summary = await pass(h, T0);
    expect(summary).toMatchObject({ lookups: 1, checked: 0, skipped: 3, blockedUntil: iso(T0 + 30_000) });
    expect(await getJobState(h.db, REFRESH_JOB)).toMatchObject({
      window_count: 1,
      blocked_until: iso(T0 + 30_000),
      block_reason: 'rate_limited (user)',
    });
    h.discord.mode = { kind: 'normal' };
    // Held: no lookup before retry_after, then the same listing first.
    expect(await pass(h, T0 + 29_000)).toMatchObject({ lookups: 0, skipped: 3 });
    expect(h.discord.requests).toHaveLength(1);
    expect(await pass(h, T0 + 30_000)).toMatchObject({ lookups: 3, checked: 3 });
    expect(h.discord.requests.map((r) => r.path.split('?')[0])).toEqual([
      '/api/v10/invites/code0',
      '/api/v10/invites/code0',
      '/api/v10/invites/code1',
      '/api/v10/invites/code2',
    ]);
  });

  it('a 429 with retry_after 999999999 holds the job at most 5 minutes, and a healthy answer after it checks on', async () => {
    const h = await harness();
    await h.addListings(2);
    h.discord.mode = { kind: 'rate_limited', retryAfter: 999_999_999 };
    expect(await pass(h, T0)).toMatchObject({ lookups: 1, blockedUntil: iso(T0 + 5 * MINUTE) });
    h.discord.mode = { kind: 'normal' };
    expect(await pass(h, T0 + 5 * MINUTE - 1)).toMatchObject({ lookups: 0 });
    expect(await pass(h, T0 + 5 * MINUTE)).toMatchObject({ checked: 2 });
    expect((await getJobState(h.db, REFRESH_JOB))?.block_level).toBe(0);
  });

  it('a global 429 follows its ladder (1 min, 10 min, 1 h), whatever retry_after says', async () => {
    const h = await harness();
    await h.addListings(1);
    h.discord.mode = { kind: 'rate_limited', retryAfter: 999_999_999, global: true, scope: 'global' };
    let at = T0;
    const holds: number[] = [];
    for (let i = 0; i < 4; i++) {
      const summary = await pass(h, at);
      if (summary === 'busy' || !summary.blockedUntil) throw new Error('expected a hold');
      holds.push(Date.parse(summary.blockedUntil) - at);
      at = Date.parse(summary.blockedUntil);
    }
    expect(holds).toEqual([5 * MINUTE, 10 * MINUTE, HOUR, HOUR]);
  });

  it('a block page holds the job 1 h, then 6 h, then 24 h, and Discord answering again resets the ladder', async () => {
    const h = await harness();
    await h.addListings(2);
    h.discord.mode = { kind: 'cloudflare_block' };
    let at = T0;
    const holds: number[] = [];
    for (let i = 0; i < 4; i++) {
      const summary = await pass(h, at);
      if (summary === 'busy' || !summary.blockedUntil) throw new Error('expected a block');
      holds.push(Date.parse(summary.blockedUntil) - at);
      expect(await pass(h, Date.parse(summary.blockedUntil) - 1)).toMatchObject({ lookups: 0 });
      at = Date.parse(summary.blockedUntil);
    }
    expect(holds).toEqual([BLOCK_LADDER_MS[0], BLOCK_LADDER_MS[1], BLOCK_LADDER_MS[2], BLOCK_LADDER_MS[2]]);
    expect(h.discord.requests).toHaveLength(4);
    expect((await h.listing('code0')).invite_status).toBe('unchecked');
    h.discord.mode = { kind: 'normal' };
    expect(await pass(h, at)).toMatchObject({ checked: 2 });
    expect((await getJobState(h.db, REFRESH_JOB))?.block_level).toBe(0);
  });

  it('an auth error holds the job for a day', async () => {
    const h = await harness({ DISCORD_BOT_TOKEN: 'wrong' });
    const standIn = await startDiscordStandIn({ botToken: 'right' });
    cleanups.push(() => standIn.close());
    h.deps.discord = discordClient({ baseUrl: standIn.url, botToken: 'wrong', siteUrl: 'http://localhost' });
    await h.addListings(2);
    expect(await pass(h, T0)).toMatchObject({ lookups: 1, blockedUntil: iso(T0 + 24 * HOUR) });
    expect((await getJobState(h.db, REFRESH_JOB))?.block_reason).toBe('auth_error (401)');
  });

  it('--all checks every listing, not only the due ones, within the budget', async () => {
    const h = await harness({ REFRESH_PER_10MIN: '5' });
    await h.addListings(4);
    await pass(h, T0);
    h.discord.invites.get('code2')!.memberCount = 7777;
    expect(await pass(h, T0 + 11 * MINUTE)).toMatchObject({ lookups: 0 });
    expect(await pass(h, T0 + 11 * MINUTE, { all: true })).toMatchObject({ lookups: 4, skipped: 0 });
    expect((await h.listing('code2')).members).toBe(7777);
    // Within the budget: 5 per window, the rest in a later window.
    await h.addListings(6);
    expect(await pass(h, T0 + 22 * MINUTE, { all: true })).toMatchObject({ lookups: 5, skipped: 5 });
  });

  it('refreshServer checks one listing now, inside the same budget and breaker', async () => {
    const h = await harness({ REFRESH_PER_10MIN: '2' });
    await h.addListings(2);
    h.discord.invites.get('code1')!.memberCount = 4242;
    const id = (await h.listing('code1')).id;
    expect(await refreshServer(h.deps, id, T0)).toMatchObject({ status: 'checked', kind: 'ok' });
    expect((await h.listing('code1')).members).toBe(4242);
    expect(h.rebuilds).toEqual(['refresh']);
    expect(await refreshServer(h.deps, 999_999, T0)).toEqual({ status: 'not_found' });
    expect(await refreshServer(h.deps, id, T0)).toMatchObject({ status: 'checked' });
    expect(await refreshServer(h.deps, id, T0)).toEqual({ status: 'budget' });
    // The console's lookups count for the pass too: nothing left in this window.
    expect(await pass(h, T0 + MINUTE)).toMatchObject({ lookups: 0, skipped: 1 });
  });
});

describe('the refresh budget over hours of passes', () => {
  /**
   * The rule itself ("never more than the budget in any 10 minutes") is proved on budgetAt with
   * fast-check (src/lib/invite-checks/budget.test.ts); this run shows the job keeps it through the
   * database: 400 due listings, a budget of 40, a pass every fake minute for 3 hours (a 429 now
   * and then). Every lookup the stand-in receives is stamped with the fake minute, and no
   * 10-minute span, wherever it starts, holds more than the budget.
   */
  it('never looks up more than the budget in any 10 minutes, 429s included, and checks every listing', async () => {
    const h = await harness({ REFRESH_PER_10MIN: '40' });
    const N = 400;
    const HOURS = 3;
    const perWindow = h.deps.env.REFRESH_PER_10MIN;
    await h.addListings(N);
    const lookups: { at: number; n: number }[] = [];
    for (let minute = 0; minute < HOURS * 60; minute++) {
      const at = T0 + minute * MINUTE;
      // Every 97th minute Discord answers 429 for that pass.
      h.discord.mode = minute % 97 === 50 ? { kind: 'rate_limited', retryAfter: 20 } : { kind: 'normal' };
      const before = h.discord.requests.length;
      const summary = await pass(h, at, { clock: () => at });
      expect(summary).not.toBe('busy');
      const n = h.discord.requests.length - before;
      if (n > 0) lookups.push({ at, n });
    }
    // Sliding: from every pass that looked anything up, the next 10 minutes.
    const worst = Math.max(
      ...lookups.map(({ at }) =>
        lookups.filter((l) => l.at >= at && l.at < at + BUDGET.windowMs).reduce((sum, l) => sum + l.n, 0),
      ),
    );
    expect(worst).toBeLessThanOrEqual(perWindow);
    expect(worst).toBe(perWindow);
    const rateLimited = lookups.filter(({ at }) => ((at - T0) / MINUTE) % 97 === 50);
    expect(rateLimited.length).toBeGreaterThan(0);
    const [unchecked] = await h.db
      .select({ n: sql<number>`count(*)` })
      .from(discordServers)
      .where(
        sql`${discordServers.last_checked_at} IS NULL OR ${discordServers.last_checked_at} >= ${iso(T0 + HOURS * HOUR)}`,
      );
    expect(unchecked?.n).toBe(0);
    // No lookup lost: every listing has its history row, and every answered lookup wrote one.
    const [snapshots] = await h.db.select({ n: sql<number>`count(*)` }).from(serverSnapshots);
    const total = lookups.reduce((sum, l) => sum + l.n, 0);
    expect(snapshots?.n).toBe(total - rateLimited.length);
  }, 120_000);
});

describe('the scheduled refresh', () => {
  it("wrangler.toml's Cron Trigger runs a pass every minute through the Worker, on the database it is bound to", async () => {
    const rawConfig = await readWranglerConfig();
    expect((rawConfig as { triggers?: { crons?: string[] } }).triggers?.crons).toContain('* * * * *');
    const h = await harness();
    await h.addListings(20);
    // The Worker reaches the database over HTTP (libSQL's Hrana), as it reaches Turso.
    const libsql = await startLibsqlHttpServer({ file: h.tdb.url.replace(/^file:/, '') });
    cleanups.push(() => libsql.stop());
    const pending: Promise<unknown>[] = [];
    worker.scheduled(
      { cron: '* * * * *', scheduledTime: T0 },
      {
        ASSETS: { fetch: async () => new Response(null, { status: 404 }) },
        DATABASE_URL: libsql.url,
        DISCORD_API_BASE: h.discord.url,
      },
      { waitUntil: (p) => void pending.push(p) },
    );
    // Every job on that cron runs (the refresh pass and the placement clock: jobs/schedule.ts).
    expect(pending).toHaveLength(SCHEDULE.filter((job) => job.cron === '* * * * *').length);
    await Promise.all(pending);
    // A few lookups in one invocation (the Free plan's 50 subrequests; the first pass also ranks); the rest stay due.
    expect(h.discord.requests).toHaveLength(refreshPace(WORKER_LOOKUPS_PER_PASS)!.lookupsWhenRanking);
    expect(await h.listing('code1')).toMatchObject({ invite_status: 'ok', members: 1001, last_checked_at: iso(T0) });
    // The session sweep's trigger does not look anything up.
    worker.scheduled(
      { cron: '*/15 * * * *', scheduledTime: T0 + 24 * HOUR },
      {
        ASSETS: { fetch: async () => new Response(null, { status: 404 }) },
        DATABASE_URL: libsql.url,
        DISCORD_API_BASE: h.discord.url,
      },
      { waitUntil: (p) => void pending.push(p) },
    );
    await Promise.all(pending);
    expect(h.discord.requests).toHaveLength(refreshPace(WORKER_LOOKUPS_PER_PASS)!.lookupsWhenRanking);
    expect((await h.listing('code19')).invite_status).toBe('unchecked');
  });
});

describe("the Worker's every-minute invocation", () => {
  it('stays within the Free plan’s 50 subrequests with the deploy hook, a rank recompute included, and still recomputes on time', async () => {
    const h = await harness();
    // Listings new to the job (their guild unknown: a lookup's dearest, three subrequests).
    await h.addListings(40);
    // The ranks last recomputed 9 minutes before the first pass: the second is due to recompute.
    await rankPass({ db: h.db }, T0 - 9 * MINUTE);
    const libsql = await startLibsqlHttpServer({ file: h.tdb.url.replace(/^file:/, '') });
    cleanups.push(() => libsql.stop());
    const hook = createServer((_req, res) => res.writeHead(204).end());
    await new Promise<void>((ok) => hook.listen(0, '127.0.0.1', () => ok()));
    cleanups.push(() => new Promise<void>((ok) => hook.close(() => ok())));
    const bindings = {
      ASSETS: { fetch: async () => new Response(null, { status: 404 }) },
      DATABASE_URL: libsql.url,
      DISCORD_API_BASE: h.discord.url,
      REBUILD_HOOK_URL: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/deploy`,
      REBUILD_HOOK_TOKEN: 'hook-token-for-tests',
    };
    const invocation = async (at: number) => {
      const before = h.discord.requests.length;
      const subrequests = await scheduledSubrequests('* * * * *', at, bindings);
      return { subrequests, lookups: h.discord.requests.length - before };
    };
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await invocation(T0 + i * MINUTE));
    for (const [i, run] of runs.entries()) {
      expect(run.subrequests, `minute ${i}`).toBeLessThanOrEqual(FREE_PLAN_SUBREQUESTS);
      // The cost model the deploy checks REFRESH_LOOKUPS_PER_PASS with (budget.ts) covers what was measured.
      expect(run.subrequests, `minute ${i}`).toBeLessThanOrEqual(passSubrequests(WORKER_LOOKUPS_PER_PASS));
    }
    // The pass that recomputes the ranks (10 minutes after the last) takes fewer lookups; the others 8.
    const { lookups, lookupsWhenRanking } = refreshPace(WORKER_LOOKUPS_PER_PASS)!;
    expect(runs.map((r) => r.lookups)).toEqual([lookups, lookupsWhenRanking, lookups]);
    expect((await getJobState(h.db, RANK_JOB))?.last_run_at).toBe(iso(T0 + MINUTE));
  }, 60_000);

  it('a flag opened since the last recompute makes the ranks due, so the next Worker pass weighs it', async () => {
    const h = await harness();
    await h.addListings(1);
    const [listing] = await h.db.select({ id: discordServers.id }).from(discordServers);
    expect(await rankDue(h.db, T0)).toBe(true);
    await rankPass({ db: h.db }, T0);
    expect(await rankDue(h.db, T0 + MINUTE)).toBe(false);
    await h.db
      .insert(serverFlags)
      .values({ server_id: listing!.id, rule: 'members_jump', detail: 'd', opened_at: iso(T0 + 30_000) });
    expect(await rankDue(h.db, T0 + MINUTE)).toBe(true);
    // Its recompute weighs it: not due again until the next one's time.
    await rankPass({ db: h.db }, T0 + MINUTE);
    expect(await rankDue(h.db, T0 + 2 * MINUTE)).toBe(false);
    expect(await rankDue(h.db, T0 + 11 * MINUTE)).toBe(true);
  });
});

describe('npm run refresh', () => {
  it('asks the deploy hook for the rebuild with REBUILD_HOOK_TOKEN and records the change for the deploy job', async () => {
    const h = await harness();
    await h.addListings(2);
    // A CI trigger that, like GitHub's dispatch endpoint, refuses a call without its token.
    const calls: { authorization: string | undefined; body: string }[] = [];
    const hook = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        calls.push({ authorization: req.headers.authorization, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(req.headers.authorization === 'Bearer hook-token-for-tests' ? 204 : 401).end();
      });
    });
    await new Promise<void>((ok) => hook.listen(0, '127.0.0.1', () => ok()));
    cleanups.push(() => new Promise<void>((ok) => hook.close(() => ok())));
    const { code, out } = await runScript('scripts/refresh.ts', [], {
      DATABASE_URL: h.tdb.url,
      DISCORD_API_BASE: h.discord.url,
      REBUILD_HOOK_URL: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/deploy`,
      REBUILD_HOOK_TOKEN: 'hook-token-for-tests',
    });
    expect(code, out).toBe(0);
    expect(out).toMatch(/checked 2 \(ok 2/);
    expect(calls).toEqual([
      { authorization: 'Bearer hook-token-for-tests', body: JSON.stringify({ reason: 'refresh' }) },
    ]);
    // Recorded where the deploy job reads what to publish, and marked as covered by that call.
    const changes = await h.db.select().from(siteChanges);
    expect(changes.map((c) => c.reason)).toContain('refresh');
    expect(changes.every((c) => c.hook_called_at !== null)).toBe(true);
  }, 60_000);
});
