import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openDb } from '../db/client';
import { migrateDb } from '../db/migrate';
import { countDueServers, countSnapshots } from '../db/queries/freshness';
import { discordServers } from '../db/schema';
import { loadEnv } from '../functions/_app/env';
import { run } from '../functions/_app/jobs/refresh';
import { BUDGET, listingsPerDay, refreshCycleDays } from '../src/lib/invite-checks/budget';
import { startDiscordStandIn } from '../tests/helpers/discord-stand-in';
import type { BenchModule } from './types';

const MINUTE = 60_000;
const T0 = Date.parse('2030-01-01T00:00:00.000Z');

/** A database of `n` listings with invite codes the stand-in knows, all due. */
async function setUp(ctx: { tmp: string }, name: string, n: number) {
  const url = `file:${join(ctx.tmp, `${name}.db`)}`;
  const { db, client } = await openDb({ url });
  await migrateDb(db);
  const discord = await startDiscordStandIn();
  const rows = Array.from({ length: n }, (_, i) => {
    discord.invites.set(`bench${i}`, {
      guild: { id: String(200_000_000_000_000_000n + BigInt(i)), name: `Guild ${i}`, icon: null },
      memberCount: 100 + i,
      onlineCount: 10 + (i % 90),
    });
    return { name: `Bench ${i}`, category: 'Gaming', slug: `bench-${i}`, invite_code: `bench${i}` };
  });
  for (let start = 0; start < rows.length; start += 500)
    await db.insert(discordServers).values(rows.slice(start, start + 500));
  const env = loadEnv({ DATABASE_URL: url, DISCORD_API_BASE: discord.url });
  return {
    db,
    discord,
    deps: { db, env },
    close: async () => {
      await discord.close();
      client.close();
    },
  };
}

/**
 * One refresh pass over 10,000 listings against the loopback Discord stand-in: with the budget's
 * pacing switched off (one pass, every listing) for the job's own speed and CPU per lookup, then
 * within the budget (a pass every fake minute until every listing is checked); no lookup lost
 * means one history row per answered lookup. And what the budget covers a day.
 */
export const bench: BenchModule = async (ctx) => {
  mkdirSync(ctx.tmp, { recursive: true });
  const n = ctx.quick ? 1_000 : 10_000;
  const perWindow = BUDGET.refreshPerWindow;
  const rows: (string | number)[][] = [
    ['run', 'listings', 'lookups', 'lookups per second', 'CPU ms per lookup', 'history rows', 'lost', 'due after'],
  ];

  // Pacing off: a budget as large as the table, one pass.
  {
    const s = await setUp(ctx, 'unpaced', n);
    const cpu = process.cpuUsage();
    const started = performance.now();
    const summary = await run(s.deps, T0, { perWindow: n, random: () => 0.5, sleep: async () => {}, clock: () => T0 });
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    if (summary === 'busy') throw new Error('lease busy');
    const history = await countSnapshots(s.db);
    rows.push([
      'one pass, pacing off',
      n,
      summary.lookups,
      Math.round(summary.lookups / seconds),
      ((used.user + used.system) / 1000 / summary.lookups).toFixed(2),
      history,
      summary.lookups - history,
      await countDueServers(s.db, T0),
    ]);
    await s.close();
  }

  // Within the budget: a pass every fake minute, as npm start's timer and the Cron Trigger run it.
  {
    const s = await setUp(ctx, 'paced', n);
    let lookups = 0;
    let minute = 0;
    const started = performance.now();
    for (; (await countDueServers(s.db, T0 + minute * MINUTE)) > 0; minute++) {
      const at = T0 + minute * MINUTE;
      const summary = await run(s.deps, at, { perWindow, random: () => 0.5, sleep: async () => {}, clock: () => at });
      if (summary !== 'busy') lookups += summary.lookups;
    }
    const wallSeconds = (performance.now() - started) / 1000;
    const history = await countSnapshots(s.db);
    rows.push([
      `within the budget (${perWindow} per 10 min): ${minute} passes, ${(minute / 60).toFixed(1)} h of fake time`,
      n,
      lookups,
      (lookups / (minute * 60)).toFixed(3),
      `(${wallSeconds.toFixed(0)} s of wall time)`,
      history,
      lookups - history,
      await countDueServers(s.db, T0 + minute * MINUTE),
    ]);
    await s.close();
  }

  const perDay = listingsPerDay(perWindow);
  return [
    {
      title: 'Refresh job (#15)',
      description: `The refresh job (functions/_app/jobs/refresh.ts) over ${n.toLocaleString('en-US')} due listings against the loopback Discord stand-in (tests/helpers/discord-stand-in.ts, same process: its CPU is in the figure), on a libSQL file: one batch per lookup (listing, history row, budget count). "Pacing off" is one pass with a budget as large as the table; "within the budget" is a pass every fake minute until every listing is checked.`,
      rows,
      notes: [
        `Listings per day the budget covers: ${perWindow} per 10 min × 144 = ${perDay.toLocaleString('en-US')}; 10,000 listings: checked every ${refreshCycleDays(10_000, perWindow)} day; 100,000: every ${refreshCycleDays(100_000, perWindow).toFixed(1)} days (the slower lane, oldest-checked first).`,
        'The paced row runs on a fake clock, so passes take no time and a window opens every 10 minutes; in real time a window closes 10 minutes after its last real lookup and the next opens on the following minute: up to 160 per 11 minutes.',
        'No lookup lost: every answered lookup wrote its history row (lost = lookups − history rows), and nothing is left due.',
      ],
    },
  ];
};
