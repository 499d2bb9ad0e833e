// Badges at scale (#33): GET /badge/{slug}.svg over HTTP against the app in its own process, at
// 1,000,000 listings (10,000 with --quick), each request a random listing's badge (so most
// answers miss the app's cache and read the database: what a CDN forwards), the target
// p99 under 20 ms. The rank variant, which counts the listing's category once per 10 minutes, is
// measured beside it.
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { openDb } from '../db/client';
import { insertFakeServers } from '../db/fake';
import { migrateDb } from '../db/migrate';
import { randomServerSlugs } from '../db/queries/badges';
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
}>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** Concurrent connections: a busy CDN edge's misses, not a queue on two cores. */
const CONNECTIONS = 8;

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
    errors: result.errors + result.non2xx,
  };
}

export const bench: BenchModule = async (ctx) => {
  const size = ctx.quick ? 10_000 : 1_000_000;
  const seconds = ctx.quick ? 3 : 10;
  const dir = join(ctx.tmp, 'badges');
  mkdirSync(dir, { recursive: true });
  const url = `file:${join(dir, 'badges.db')}`;
  const seeding = await openDb({ url });
  await migrateDb(seeding.db);
  ctx.log(`badges: seeding ${size.toLocaleString('en-US')} listings`);
  await insertFakeServers(seeding.client, size);
  seeding.client.close();
  const reading = await openDb({ url });
  const slugs = await randomServerSlugs(reading.db, 20_000);
  reading.client.close();
  const child: ChildProcess = fork(new URL('./lib/badge-server.ts', import.meta.url), [url], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (m: { port: number }) => resolve(m.port));
      child.once('exit', (code) => reject(new Error(`badge server exited (${code})`)));
    });
    const rows: (string | number)[][] = [['badge', 'listings', 'connections', 'req/s', 'p50 ms', 'p99 ms', 'errors']];
    const notes: string[] = [];
    for (const [label, query] of [
      ['members · online (default)', ''],
      ['rank in category', '?variant=rank'],
    ] as const) {
      const paths = slugs.map((s) => `/badge/${s}.svg${query}`);
      // A short warm-up (connections, the JIT), then the measured run.
      await load(port, paths.slice(0, 200), 1);
      const r = await load(port, paths, seconds);
      rows.push([label, size.toLocaleString('en-US'), CONNECTIONS, r.rps, r.p50, r.p99, r.errors]);
      ctx.log(`badges ${label}: ${r.rps} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.errors} errors`);
      if (query === '')
        notes.push(
          `Default badge p99 ${r.p99} ms at ${size.toLocaleString('en-US')} listings (target < 20 ms): ${r.p99 < 20 ? 'met' : 'missed'}.`,
        );
    }
    notes.push(
      `Each request names one of ${slugs.length.toLocaleString('en-US')} random listings: most miss the app's cache (fresh 60 s) and read the slug's unique index; the answer is cached 10 minutes by browsers and CDNs besides.`,
      'The rank variant counts the listing’s category by score once per listing per 10 minutes (cached); its first fetch of a listing reads the whole category.',
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
