// Badges at scale (#33): GET /badge/{slug}.svg over HTTP against the app in its own process, at
// 1,000,000 listings (10,000 with --quick), each request a random listing's badge (so most
// answers miss the app's cache and read the database: what a CDN forwards), the issue's target
// p99 under 20 ms. The rank variant ("#3 in Gaming": the place the rank recompute stored) is
// measured beside it, over listings the recompute has scored and placed.
// `--db <file>`: a copy of that prepared database (e.g. db:fake's million) instead of seeding one.
import { type ChildProcess, fork } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { openDb } from '../db/client';
import { insertFakeServers } from '../db/fake';
import { migrateDb } from '../db/migrate';
import { markListingsChecked, randomSlugsInCategory } from '../db/queries/badges';
import { readListingGroups } from '../db/queries/listing-groups';
import { checkpointWal } from '../db/queries/maintenance';
import { recomputeRanks } from '../functions/_app/jobs/rank';
import type { BenchModule } from './types';

/** The part of autocannon's programmatic API used here (the package ships no types). */
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  requests: { setupRequest: (req: { path?: string }) => { path: string } }[];
}) => Promise<{
  requests: { average: number };
  latency: { p50: number; p99: number };
  '2xx': number;
  non2xx: number;
  errors: number;
  requests_total?: number;
}>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** Concurrent connections: a busy CDN edge's misses, not a queue on two cores. */
const CONNECTIONS = 8;

/** The machine's 1 / 5 / 15 minute load averages (2 cores, shared). */
const loadAverages = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

/** The badge server's CPU time so far (user + system, µs) and its event loop's delay since the last ask (ms), over IPC. */
const serverCpu = (child: ChildProcess) =>
  new Promise<{ cpu: number; loop: { p99: number; max: number } }>((resolve) => {
    const on = (m: { cpu?: number; loop?: { p99: number; max: number } }) => {
      if (m.cpu === undefined || !m.loop) return;
      child.off('message', on);
      resolve({ cpu: m.cpu, loop: m.loop });
    };
    child.on('message', on);
    child.send('cpu');
  });

/**
 * The listings' file: a copy of `prepared` (its -wal and -shm beside it) or a new one seeded with
 * `size` db:fake listings; migrated either way. Answers its URL and how many listings it holds.
 */
async function listingsFile(dir: string, size: number, prepared: string | undefined, log: (l: string) => void) {
  const file = join(dir, 'badges.db');
  if (prepared) {
    log(`badges: copying ${prepared}`);
    for (const suffix of ['', '-wal', '-shm']) {
      if (existsSync(prepared + suffix)) copyFileSync(prepared + suffix, file + suffix);
    }
  }
  const url = `file:${file}`;
  const seeding = await openDb({ url });
  await migrateDb(seeding.db);
  if (!prepared) {
    log(`badges: seeding ${size.toLocaleString('en-US')} listings`);
    await insertFakeServers(seeding.client, size);
  }
  seeding.client.close();
  return url;
}

/** Listings the warm-up requests (none of them measured; a sixth of the sample when it is smaller). */
const WARM_UP = 4_000;

/** The category whose listings the bench requests (the badge's cost is the same in every category). */
const CATEGORY = 'Gaming';

/**
 * The slugs the bench requests: `n` random listings of CATEGORY, marked as found working by a check
 * now (db:fake's listings were never checked, so none would have a score), then the category's rank
 * recompute (functions/_app/jobs/rank.ts, as at an approval) scores them and stores every place in
 * it; then the log is checkpointed. Answers the slugs and the recompute's time in ms.
 */
async function rankedSlugs(url: string, n: number, log: (l: string) => void) {
  const { db, client } = await openDb({ url });
  try {
    const slugs = await randomSlugsInCategory(db, n, CATEGORY);
    const now = new Date();
    await markListingsChecked(db, slugs, now.toISOString());
    log(`badges: ranking ${CATEGORY} (the rank recompute of one category)`);
    const rankMs = (await recomputeRanks(db, now, { category: CATEGORY })).ms;
    // The recompute's writes folded into the file, as a running server's checkpoints keep it: else
    // the badge server's first write would copy the whole log back inside the measured run.
    await checkpointWal(client);
    return { slugs, rankMs };
  } finally {
    client.close();
  }
}

/** One autocannon run over `paths`, each request a random one of them. */
async function load(port: number, paths: string[], seconds: number) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [{ setupRequest: (req) => ({ ...req, path: paths[Math.floor(Math.random() * paths.length)]! }) }],
  });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    requests: result['2xx'] + result.non2xx,
    errors: result.errors + result.non2xx,
  };
}

export const bench: BenchModule = async (ctx) => {
  const size = ctx.quick ? 10_000 : 1_000_000;
  const seconds = ctx.quick ? 3 : 10;
  const dir = join(ctx.tmp, 'badges');
  mkdirSync(dir, { recursive: true });
  const started = performance.now();
  const url = await listingsFile(dir, size, ctx.db, ctx.log);
  const { slugs, rankMs } = await rankedSlugs(url, 20_000 + WARM_UP, ctx.log);
  const reading = await openDb({ url });
  const listings = (await readListingGroups(reading.db)).reduce((n, g) => n + g.servers, 0).toLocaleString('en-US');
  reading.client.close();
  const preparedS = Math.round((performance.now() - started) / 1000);
  const child: ChildProcess = fork(new URL('./lib/badge-server.ts', import.meta.url), [url], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (m: { port: number }) => resolve(m.port));
      child.once('exit', (code) => reject(new Error(`badge server exited (${code})`)));
    });
    // The rank variant must show a place, or its row measures "not ranked yet".
    const sample = await (await fetch(`http://127.0.0.1:${port}/badge/${slugs[0]}.svg?variant=rank`)).text();
    if (!new RegExp(`#\\d+ in ${CATEGORY}`).test(sample)) throw new Error(`rank badge without a place: ${sample}`);
    const rows: (string | number)[][] = [
      [
        'badge',
        'listings',
        'connections',
        'req/s',
        'p50 ms',
        'p99 ms',
        'server CPU ms per request',
        'server event loop delay p99 / max ms',
        'errors',
        'load average before / after',
      ],
    ];
    const notes: string[] = [];
    // Each row its own half of the listings, so the second never reads what the first cached; a
    // warm-up over WARM_UP listings of neither half first (the JIT, the indexes' inner pages: what
    // a server that has been up a while has), so the first row does not pay the server's start.
    const warmCount = Math.min(WARM_UP, Math.floor(slugs.length / 6));
    const warm = slugs.slice(0, warmCount);
    for (const query of ['', '?variant=rank']) {
      await load(
        port,
        warm.map((s) => `/badge/${s}.svg${query}`),
        ctx.quick ? 1 : 3,
      );
    }
    const measured = slugs.slice(warmCount);
    const half = Math.floor(measured.length / 2);
    for (const [label, query, part] of [
      ['members · online (default)', '', measured.slice(0, half)],
      ['rank in category', '?variant=rank', measured.slice(half)],
    ] as const) {
      const paths = part.map((s) => `/badge/${s}.svg${query}`);
      // A short warm-up of the connections, then the measured run.
      await load(port, paths.slice(0, 200), 1);
      const before = loadAverages();
      const { cpu: cpuBefore } = await serverCpu(child);
      const r = await load(port, paths, seconds);
      const { cpu: cpuAfter, loop } = await serverCpu(child);
      const cpuMs = cpuAfter - cpuBefore;
      const stalls = `${loop.p99.toFixed(0)} / ${loop.max.toFixed(0)}`;
      const perRequest = r.requests > 0 ? (cpuMs / 1000 / r.requests).toFixed(2) : '-';
      const after = loadAverages();
      rows.push([
        label,
        listings,
        CONNECTIONS,
        r.rps,
        r.p50,
        r.p99,
        perRequest,
        stalls,
        r.errors,
        `${before} → ${after}`,
      ]);
      ctx.log(
        `badges ${label}: ${r.rps} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${perRequest} ms CPU per request, event loop delay p99 / max ${stalls} ms, ${r.errors} errors, load ${before} → ${after}`,
      );
      notes.push(
        `${label}: p99 ${r.p99} ms at ${listings} listings (target < 20 ms): ${r.p99 < 20 ? 'met' : 'missed'}.`,
      );
    }
    notes.push(
      `Each request names one of ${half.toLocaleString('en-US')} random listings of ${CATEGORY} (another ${half.toLocaleString('en-US')} for the second row), marked as checked and scored by the category's rank recompute before the runs: a listing's first request of the run misses the app's cache (fresh 60 s) and reads the slug's unique index; the answer is cached 10 minutes by browsers and CDNs besides.`,
      'The rank variant shows the place the rank recompute stored (category_place) beside the score; the category’s size is a listing_groups sum cached a minute per category: no count over the category per request.',
      `The database: ${ctx.db ? 'a copy of a prepared file (--db)' : `${size.toLocaleString('en-US')} db:fake listings seeded now`}, ${CATEGORY}'s rank recompute ${(rankMs / 1000).toFixed(0)} s; ${preparedS} s before the first request in all.`,
      'Server CPU per request is the badge process’s user + system time over the run divided by its answers: on a shared machine it moves less than the p99, which waits on other processes too.',
    );
    return [
      {
        title: 'Badges',
        description: `GET /badge/{slug}.svg over HTTP, the app in its own process, autocannon with ${CONNECTIONS} connections for ${seconds} s per row.`,
        rows,
        notes,
      },
    ];
  } finally {
    child.kill();
  }
};
