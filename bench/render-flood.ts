// One client flooding distinct on-demand URLs (security issue 27, item 5): what another client's
// uncached server pages take while it does, beside what they take alone. The Node server `npm
// start` runs, with its rate limits on, sees each client by its socket address, so the two clients
// are two loopback addresses of this machine (127.0.0.2 floods, others read).

import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { openDb } from '../db/client';
import { insertFakeServers } from '../db/fake';
import { migrateDb } from '../db/migrate';
import { checkpointWal } from '../db/queries/maintenance';
import { countServers } from '../db/queries/servers';
import { seedIfEmpty } from '../db/seed';
import { loadEnv } from '../functions/_app/env';
import { RATE_LIMITS } from '../functions/_app/lib/rate-limits';
import { PER_CLIENT_IN_FLIGHT } from '../functions/_app/lib/render-gate';
import { runMeasured, seconds } from './lib/measure';
import { BUILD_HEAP_MIB, percentile, spreadSlugs, startServer } from './million';
import type { BenchModule } from './types';

/** Connections of the flooding client. */
const FLOOD_CONNECTIONS = 16;
/** The other client's pages per pass, one at a time, one started every READ_EVERY_MS: under its own rate limit. */
const READS = 100;
const READ_EVERY_MS = 550;
/** Uncached pages requested first from an address of their own (the page code loads, nothing measured). */
const WARMUPS = 20;
/** Distinct long-tail pages the flood cycles through. */
const FLOOD_PAGES = 20_000;
/** Server pages the build prerenders: few, so the build is quick; every page under load is rendered on request. */
const PRERENDERED = 200;

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => n.toFixed(1);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

/** A keep-alive agent whose connections leave from `address`. */
const agentFrom = (address: string, sockets: number) =>
  new Agent({ keepAlive: true, maxSockets: sockets, localAddress: address });

/** One GET through `agent`: its status, its time, and whether a 200 page names its own path. */
function get(agent: Agent, url: string): Promise<{ status: number; ms: number; ok: boolean }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { 'accept-encoding': 'identity' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        const body = Buffer.concat(chunks).toString('utf8');
        resolve({ status, ms: performance.now() - t0, ok: status === 200 && body.includes(new URL(url).pathname) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

interface Reads {
  requests: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
}

/** The other client: each URL once, one at a time, one started every READ_EVERY_MS. */
async function read(agent: Agent, urls: readonly string[]): Promise<Reads> {
  const times: number[] = [];
  let errors = 0;
  const started = performance.now();
  for (const [i, url] of urls.entries()) {
    const wait = started + i * READ_EVERY_MS - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const res = await get(agent, url);
    times.push(res.ms);
    if (!res.ok) errors++;
  }
  times.sort((a, b) => a - b);
  return {
    requests: times.length,
    p50: percentile(times, 0.5),
    p99: percentile(times, 0.99),
    max: times.at(-1) ?? 0,
    errors,
  };
}

/** The flooding client: FLOOD_CONNECTIONS loops over distinct URLs until `stop`; its answers by status. */
function flood(agent: Agent, urls: readonly string[]) {
  const statuses = new Map<number, number>();
  let next = 0;
  let stopped = false;
  let failures = 0;
  const started = performance.now();
  const loops = Array.from({ length: FLOOD_CONNECTIONS }, async () => {
    while (!stopped) {
      const url = urls[next++ % urls.length]!;
      try {
        const { status } = await get(agent, url);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      } catch {
        failures++;
      }
    }
  });
  return {
    async stop() {
      stopped = true;
      await Promise.all(loops);
      const wall = (performance.now() - started) / 1000;
      let total = 0;
      for (const n of statuses.values()) total += n;
      return { statuses, failures, rps: total / wall };
    },
  };
}

export const bench: BenchModule = async (ctx) => {
  mkdirSync(ctx.tmp, { recursive: true });
  const fakes = ctx.quick ? 10_000 : 100_000;
  const path = join(ctx.tmp, 'flood.db');
  const url = `file:${path}`;
  const buildsDir = join(ctx.root, '.tmp', `bench-flood-${process.pid}`);
  const rows: (string | number)[][] = [['measured', 'requests', 'p50 ms', 'p99 ms', 'max ms', 'errors', 'target']];
  const notes: string[] = [];
  const loadBefore = load();
  let loadDuring = '';

  try {
    ctx.log(`render-flood: seeding ${fmt(fakes)} fake servers…`);
    const { db, client } = await openDb({ url });
    try {
      await migrateDb(db);
      await seedIfEmpty(db);
      await insertFakeServers(client, fakes);
      await checkpointWal(client);
      const size = fmt(await countServers(db));

      const env = loadEnv({ DATABASE_URL: url, PORT: '0', HOST: '127.0.0.1' });
      const buildEnv = {
        NODE_OPTIONS: `--max-old-space-size=${BUILD_HEAP_MIB}`,
        ASTRO_CACHE_DIR: join(buildsDir, '.astro-cache'),
        PRERENDER_SERVERS: String(PRERENDERED),
        PRERENDER_LISTING_PAGES: '1',
      };
      const name = `build-${Date.now()}`;
      const out = join(buildsDir, name);
      mkdirSync(buildsDir, { recursive: true });
      ctx.log(`render-flood: astro build with ${size} servers (${PRERENDERED} server pages prerendered)…`);
      const astro = join(ctx.root, 'node_modules', 'astro', 'bin', 'astro.mjs');
      const built = await runMeasured(process.execPath, [astro, 'build', '--outDir', out], {
        cwd: ctx.root,
        env: {
          ...buildEnv,
          DATABASE_URL: url,
          SITE_URL: env.SITE_URL,
          SUPPORT_EMAIL: env.SUPPORT_EMAIL,
          ASTRO_TELEMETRY_DISABLED: '1',
        },
      });
      writeFileSync(join(buildsDir, 'current'), name);
      ctx.log(`render-flood: built in ${seconds(built.ms)} s`);
      const prerendered = new Set(
        readdirSync(join(out, 'client', 'server'))
          .filter((f) => f.endsWith('.html'))
          .map((f) => f.slice(0, -'.html'.length)),
      );
      // Disjoint long-tail pages: the warm-up's, each pass of the reader's, and the flood's.
      const tail = await spreadSlugs(db, WARMUPS + 2 * READS + FLOOD_PAGES, prerendered);
      if (tail.length < WARMUPS + 2 * READS + FLOOD_PAGES) throw new Error(`too few long-tail pages: ${tail.length}`);
      // Spread over the id range: every other one is the reader's, so both read the same kinds of rows.
      const readerSlugs = tail.filter((_, i) => i % 50 === 0).slice(0, WARMUPS + 2 * READS);
      const taken = new Set(readerSlugs);
      const floodSlugs = tail.filter((s) => !taken.has(s));

      const server = await startServer({ url, root: ctx.root, buildsDir, buildEnv, rateLimits: true });
      try {
        if (server.rebuiltAtStart) throw new Error('the server built the site again at start');
        const urls = (slugs: readonly string[]) => slugs.map((s) => `${server.base}/server/${s}`);
        const warm = urls(readerSlugs.slice(0, WARMUPS));
        const alone = urls(readerSlugs.slice(WARMUPS, WARMUPS + READS));
        const flooded = urls(readerSlugs.slice(WARMUPS + READS));

        ctx.log('render-flood: warm-up, then the other client alone…');
        await read(agentFrom('127.0.0.4', 1), warm);
        const baseline = await read(agentFrom('127.0.0.3', 1), alone);
        ctx.log(`render-flood: alone p50 ${ms(baseline.p50)} / p99 ${ms(baseline.p99)} ms`);

        ctx.log(`render-flood: one client floods with ${FLOOD_CONNECTIONS} connections while the other reads…`);
        const flooder = flood(agentFrom('127.0.0.2', FLOOD_CONNECTIONS), urls(floodSlugs));
        // The flood runs a moment first, so the reader starts into it, not beside its first requests.
        await new Promise((r) => setTimeout(r, 2_000));
        const under = await read(agentFrom('127.0.0.5', 1), flooded);
        loadDuring = load();
        const floodOut = await flooder.stop();
        ctx.log(`render-flood: under the flood p50 ${ms(under.p50)} / p99 ${ms(under.p99)} ms`);

        const row = (what: string, r: Reads, target = '-') =>
          rows.push([what, r.requests, ms(r.p50), ms(r.p99), ms(r.max), r.errors, target]);
        row('Another client: uncached server pages, alone (baseline)', baseline);
        row(
          `Another client: uncached server pages, while one client floods (${FLOOD_CONNECTIONS} connections)`,
          under,
          'p99 < 100 ms',
        );
        const answers = [...floodOut.statuses]
          .sort(([a], [b]) => a - b)
          .map(([status, n]) => `${fmt(n)} × ${status}`)
          .join(', ');
        rows.push([
          `Flooding client: distinct uncached server pages, ${FLOOD_CONNECTIONS} connections`,
          fmt([...floodOut.statuses.values()].reduce((a, b) => a + b, 0)),
          '-',
          '-',
          '-',
          floodOut.failures,
          `${answers} (${fmt(floodOut.rps)} requests/s)`,
        ]);
        notes.push(
          `Another client's uncached server pages at ${size} listings: p99 ${ms(under.p99)} ms while one client floods, beside ${ms(baseline.p99)} ms alone (target: under 100 ms): ${under.p99 < 100 && under.errors === 0 ? 'met' : 'missed'}.`,
          `The flooding client is held to ${PER_CLIENT_IN_FLIGHT} renders at once and ${RATE_LIMITS.renders.limit} a minute (lib/render-gate.ts, RATE_LIMITS.renders); the rest of its requests are answered 429 with Retry-After.`,
          `Machine load (1 / 5 / 15 min load averages, 2 cores shared with other work): ${loadBefore} before the run, ${loadDuring} at the end of the flooded pass.`,
          `The p99 of ${READS} requests is their slowest: on a shared machine it moves with the machine's load (the baseline's too), the p50 with the server's own work. The flood's 200s include pages of its own rendered earlier and answered from the cache when its loops come round its list again.`,
        );
      } finally {
        await server.close();
      }
    } finally {
      client.close();
    }
  } finally {
    rmSync(buildsDir, { recursive: true, force: true });
    for (const s of ['', '-wal', '-shm']) rmSync(path + s, { force: true });
  }
  return [
    {
      title: 'On-demand pages under a flood from one client',
      description: `A migrated file database with the sample servers and ${fmt(fakes)} deterministic fake servers; \`astro build\` prerendering only ${PRERENDERED} server pages, so every page under load is rendered on request; then the Node server \`npm start\` runs (startNodeServer, in a process of its own, its rate limits on, the invite refresh off), which tells clients apart by their socket address. The other client (its own loopback address per pass) requests ${READS} distinct uncached server pages one at a time, one started every ${READ_EVERY_MS} ms (within its own render limit), first alone, then while a client at 127.0.0.2 requests distinct uncached server pages over ${FLOOD_CONNECTIONS} keep-alive connections as fast as they are answered; ${WARMUPS} pages are requested first from another address (not measured). An error is an answer other than a 200 naming its own path.`,
      rows,
      notes,
    },
  ];
};
