// The site at 10,000, 100,000 and 1,000,000 servers: build time and memory, files against
// Cloudflare's per-deployment limits, search index growth and latency, analytics writes.
// Every figure is measured in this run except the rows labelled "extrapolated".
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { createClient } from '@libsql/client';
import { openDb } from '../db/client';
import { insertFakeServers } from '../db/fake';
import { migrateDb } from '../db/migrate';
import { type InteractionWrite, insertInteractions } from '../db/queries/interactions';
import { checkpointWal, dropSearchIndex, firstServerIds, vacuumInto } from '../db/queries/maintenance';
import { listServers } from '../db/queries/servers';
import { seedIfEmpty } from '../db/seed';
import { createApp } from '../functions/_app/app';
import { loadEnv } from '../functions/_app/env';
import { countFiles, mib, runMeasured, seconds } from './lib/measure';
import type { BenchModule, BenchSection } from './types';

/** Static files per deployment (Workers static assets and Pages alike). */
const FILE_LIMITS = { free: 20_000, paid: 100_000 };
/** Turso monthly rows written per plan, as published on turso.tech/pricing when this was written. */
const TURSO_WRITES = { Free: 10_000_000, Developer: 25_000_000, Scaler: 100_000_000 };

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

const fileSize = (path: string) => {
  let total = 0;
  for (const suffix of ['', '-wal']) {
    try {
      total += statSync(path + suffix).size;
    } catch {
      // no WAL
    }
  }
  return total;
};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

/** A migrated, seeded file database with `n` fake servers, checkpointed so its size is on disk. */
async function makeDb(path: string, n: number) {
  const url = `file:${path}`;
  const { db, client } = await openDb({ url });
  await migrateDb(db);
  await seedIfEmpty(db);
  const ms = await insertFakeServers(client, n - 7 > 0 ? n - 7 : n);
  await checkpointWal(client);
  return { url, db, client, seedMs: ms };
}

/** Size of the same database without the search index (copied, FTS table and triggers dropped, vacuumed). */
async function sizeWithoutFts(client: import('@libsql/client').Client, dir: string, n: number): Promise<number> {
  const copy = join(dir, `nofts-${n}.db`);
  rmSync(copy, { force: true });
  await vacuumInto(client, copy);
  const c = createClient({ url: `file:${copy}` });
  await dropSearchIndex(c);
  c.close();
  const size = statSync(copy).size;
  rmSync(copy, { force: true });
  return size;
}

const SEARCH_TERMS = ['crypto', 'valorant', 'forex', 'dividend', 'parlay', 'guild', 'esports', 'zzqx'];

/**
 * Distinct search terms for the uncached API rows: every 3- to 8-letter piece of words the fake
 * servers use (whole words, prefixes, middles), phrases across words, and terms found nowhere.
 */
export function variedTerms(n: number): string[] {
  const words = ['valorant', 'minecraft', 'overwatch', 'satoshi', 'chainlink', 'momentum', 'moneyline', 'bankroll'];
  words.push('dividend', 'portfolio', 'community', 'collective', 'tournaments', 'speedrun', 'airdrops', 'staking');
  words.push('backtesting', 'injuries', 'earnings', 'research', 'signals', 'options', 'veterans', 'moderators');
  const phrases = ['helpful members', 'daily discussion', 'valorant lfg', 'chart analysis', 'live calls', 'nfl picks'];
  const absent = ['zzqx', 'quokka', 'xylophone', 'kumquat', 'zebra crossing', 'aardvark'];
  const terms = new Set<string>([...phrases, ...absent]);
  for (let len = 8; terms.size < n && len >= 3; len--) {
    for (const w of words) {
      for (let i = 0; i + len <= w.length && terms.size < n; i += 2) terms.add(w.slice(i, i + len));
    }
  }
  return [...terms];
}

/** Terms asked before the measured ones, none of them among variedTerms'. */
const WARMUP_TERMS = ['hub', 'club', 'lounge', 'guild', 'alpha', 'picks', 'hodl', 'pivot', 'casual', 'swing'];

/** GET /api/servers?search= for each term once, in turn, through the real app over loopback HTTP: every answer a cache miss. */
export async function searchOverHttp(db: import('../db/client').Db, url: string, terms: readonly string[]) {
  const app = createApp({
    db,
    env: loadEnv({ DATABASE_URL: url, RATE_LIMITS: 'false', SITE_URL: 'http://127.0.0.1' }),
  });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((ok) => server.once('listening', () => ok()));
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const times: number[] = [];
  let capped = 0;
  const timed = async (path: string) => {
    const started = performance.now();
    const res = await fetch(`${base}${path}`);
    const body = await res.text();
    if (!res.ok) throw new Error(`${path} answered ${res.status}`);
    return { ms: performance.now() - started, body };
  };
  try {
    // The first answers of a fresh process pay for compiling the app's code: warm it up first
    // with other terms (each measured term stays a cache miss).
    for (const term of WARMUP_TERMS) await timed(`/api/servers?search=${encodeURIComponent(term)}&per_page=12`);
    for (const term of terms) {
      const { ms, body } = await timed(`/api/servers?search=${encodeURIComponent(term)}&per_page=12`);
      times.push(ms);
      if ((JSON.parse(body) as { total_exact: boolean }).total_exact === false) capped++;
    }
    const index = await timed('/sitemap-index.xml');
    const files = [...index.body.matchAll(/<loc>[^<]*(\/sitemap-[^<]+)<\/loc>/g)].map((m) => m[1]!);
    const firstServers = files.find((f) => f.startsWith('/sitemap-servers-'));
    const serversFile = firstServers ? await timed(firstServers) : undefined;
    return {
      times: times.sort((x, y) => x - y),
      capped,
      sitemap: {
        indexMs: index.ms,
        files: files.length,
        serversFileMs: serversFile?.ms ?? 0,
        serversFileUrls: serversFile ? (serversFile.body.match(/<loc>/g) ?? []).length : 0,
      },
    };
  } finally {
    await new Promise<void>((ok) => server.close(() => ok()));
  }
}

export const bench: BenchModule = async (ctx) => {
  const { mkdirSync } = await import('node:fs');
  mkdirSync(ctx.tmp, { recursive: true });
  const astro = join(ctx.root, 'node_modules', 'astro', 'bin', 'astro.mjs');
  const buildSizes = ctx.quick ? [1_000, 5_000] : [10_000, 100_000];
  const dbSizes = ctx.quick ? [1_000, 5_000, 50_000] : [10_000, 100_000, 1_000_000];

  // 1. Builds, measured.
  const builds: { n: number; ms: number; peak: number; files: number; html: number; bytes: number }[] = [];
  for (const n of buildSizes) {
    const path = join(ctx.tmp, `build-${n}.db`);
    const { url, client } = await makeDb(path, n);
    client.close();
    // Inside the project: with an outDir outside the working directory Astro stages its prerender
    // chunks in the shared ./.astro/, where a concurrent build elsewhere would overwrite them.
    const out = join(ctx.root, '.tmp', `scale-site-${n}-${process.pid}`);
    ctx.log(`scale: astro build with ${fmt(n)} servers…`);
    const m = await runMeasured(process.execPath, ['--max-old-space-size=16384', astro, 'build', '--outDir', out], {
      cwd: ctx.root,
      env: {
        DATABASE_URL: url,
        ASTRO_TELEMETRY_DISABLED: '1',
        SITE_URL: 'https://guildrank.example',
        // A cold build every time: no incremental cache shared with other builds.
        ASTRO_CACHE_DIR: join(ctx.tmp, `astro-cache-${n}`),
      },
    });
    const counted = countFiles(out);
    builds.push({ n, ms: m.ms, peak: m.peakRssBytes, ...counted });
    ctx.log(
      `scale: ${fmt(n)} servers built in ${seconds(m.ms)} s, peak ${mib(m.peakRssBytes)} MiB, ${fmt(counted.files)} files`,
    );
    rmSync(out, { recursive: true, force: true });
    rmSync(path, { force: true });
    rmSync(`${path}-wal`, { force: true });
    rmSync(`${path}-shm`, { force: true });
  }

  // Linear fit through the two measured points (cost per server + fixed cost).
  const [a, b] = builds;
  const linear = (pick: (x: (typeof builds)[number]) => number, n: number) =>
    a && b ? pick(a) + ((pick(b) - pick(a)) / (b.n - a.n)) * (n - a.n) : Number.NaN;
  const big = dbSizes[dbSizes.length - 1] ?? 1_000_000;
  const buildRows: (string | number)[][] = [
    [
      'servers',
      'source',
      'build s',
      'peak MiB',
      'files in dist',
      'HTML pages',
      'dist MB',
      'fits free (20k)',
      'fits paid (100k)',
    ],
  ];
  const fits = (files: number, limit: number) => (files <= limit ? 'yes' : 'no');
  for (const r of builds) {
    buildRows.push([
      fmt(r.n),
      'measured',
      seconds(r.ms),
      mib(r.peak),
      fmt(r.files),
      fmt(r.html),
      mb(r.bytes),
      fits(r.files, FILE_LIMITS.free),
      fits(r.files, FILE_LIMITS.paid),
    ]);
  }
  const xFiles = linear((x) => x.files, big);
  buildRows.push([
    fmt(big),
    'extrapolated (linear from the two rows above)',
    seconds(linear((x) => x.ms, big)),
    mib(linear((x) => x.peak, big)),
    fmt(xFiles),
    fmt(linear((x) => x.html, big)),
    mb(linear((x) => x.bytes, big)),
    fits(xFiles, FILE_LIMITS.free),
    fits(xFiles, FILE_LIMITS.paid),
  ]);
  const perServer = a && b ? (b.files - a.files) / (b.n - a.n) : Number.NaN;
  const maxFree = a ? (FILE_LIMITS.free - (a.files - perServer * a.n)) / perServer : Number.NaN;
  const maxPaid = a ? (FILE_LIMITS.paid - (a.files - perServer * a.n)) / perServer : Number.NaN;

  // 2. Database, search index and search latency, measured at every size (1M included).
  const dbRows: (string | number)[][] = [
    [
      'servers',
      'seed s',
      'DB MB',
      'DB MB without FTS',
      'FTS share',
      'search p50 ms',
      'search p99 ms',
      'searches',
      'API search p50 ms (uncached)',
      'API search p99 ms (uncached)',
      'API searches (totals capped)',
    ],
  ];
  const sitemapRows: (string | number)[][] = [
    ['servers', 'files in the index', 'index ms', 'first server file ms', 'URLs in it'],
  ];
  const apiNotes: string[] = [];
  const terms = variedTerms(ctx.quick ? 100 : 300);
  let eventRows: (string | number)[][] = [];
  let bytesPerEvent = 0;
  let eventsPerSecond = 0;
  for (const n of dbSizes) {
    const path = join(ctx.tmp, `db-${n}.db`);
    ctx.log(`scale: seeding ${fmt(n)} servers…`);
    const { db, client, seedMs, url } = await makeDb(path, n);
    const withFts = fileSize(path);
    const withoutFts = await sizeWithoutFts(client, ctx.tmp, n);
    const times: number[] = [];
    const rounds = ctx.quick ? 5 : 25;
    // Round 0 warms the process up and is not counted.
    for (let i = 0; i <= rounds; i++) {
      for (const term of SEARCH_TERMS) {
        const t0 = performance.now();
        await listServers(db, { search: term, page: 1, perPage: 12 });
        if (i > 0) times.push(performance.now() - t0);
      }
    }
    times.sort((x, y) => x - y);
    ctx.log(`scale: ${fmt(n)}: ${terms.length} uncached searches through the API…`);
    const api = await searchOverHttp(db, url, terms);
    const apiP99 = percentile(api.times, 0.99);
    if (n === big) {
      apiNotes.push(
        `Uncached GET /api/servers?search= at ${fmt(n)} listings: p99 ${apiP99.toFixed(1)} ms over ${api.times.length} distinct terms (target: at most 25 ms): ${apiP99 <= 25 ? 'met' : 'missed'}.`,
      );
    }
    sitemapRows.push([
      fmt(n),
      api.sitemap.files,
      api.sitemap.indexMs.toFixed(0),
      api.sitemap.serversFileMs.toFixed(0),
      fmt(api.sitemap.serversFileUrls),
    ]);
    dbRows.push([
      fmt(n),
      seconds(seedMs),
      mb(withFts),
      mb(withoutFts),
      `${Math.round((100 * (withFts - withoutFts)) / withFts)}%`,
      percentile(times, 0.5).toFixed(2),
      percentile(times, 0.99).toFixed(2),
      times.length,
      percentile(api.times, 0.5).toFixed(1),
      apiP99.toFixed(1),
      `${api.times.length} (${api.capped})`,
    ]);

    // 3. Analytics writes into the largest database: throughput and bytes per stored event.
    if (n === big) {
      const events = ctx.quick ? 20_000 : 200_000;
      const ids = await firstServerIds(client, 5000);
      const before = fileSize(path);
      const batch: InteractionWrite[] = [];
      const t0 = performance.now();
      for (let i = 0; i < events; i++) {
        batch.push({
          interaction_type: i % 10 === 0 ? 'click' : 'view',
          target_type: 'server',
          target_id: String(ids[i % ids.length]),
          server_id: ids[i % ids.length],
          session_id: `s-${i % 5000}`,
          ip_address: 'a3f1c2e4b5d6a7f8a3f1c2e4b5d6a7f8a3f1c2e4b5d6a7f8a3f1c2e4b5d6a7f8',
          user_agent:
            'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36',
          referrer: 'https://www.google.com/',
          conversion_value: i % 10 === 0 ? 1 : 0,
        } as InteractionWrite);
        if (batch.length === 50) await insertInteractions(db, batch.splice(0));
      }
      if (batch.length) await insertInteractions(db, batch.splice(0));
      const ms = performance.now() - t0;
      await checkpointWal(client);
      bytesPerEvent = (fileSize(path) - before) / events;
      eventsPerSecond = events / (ms / 1000);
      ctx.log(`scale: ${fmt(events)} events in ${seconds(ms)} s, ${bytesPerEvent.toFixed(0)} bytes each`);
    }
    client.close();
    for (const s of ['', '-wal', '-shm']) rmSync(path + s, { force: true });
  }

  // Analytics volume against Turso's monthly row-write quotas, from the measured bytes per event.
  const eventsPerView = 1.3; // a page view event plus a click on ~30% of views (the site's own funnel shape)
  eventRows = [
    [
      'page views / day',
      'events / month',
      'storage / month MB',
      ...Object.keys(TURSO_WRITES).map((p) => `${p} quota used`),
    ],
  ];
  for (const views of [10_000, 100_000, 1_000_000]) {
    const perMonth = views * eventsPerView * 30;
    eventRows.push([
      fmt(views),
      fmt(perMonth),
      mb(perMonth * bytesPerEvent),
      ...Object.values(TURSO_WRITES).map((q) => `${Math.round((100 * perMonth) / q)}%`),
    ]);
  }

  const sections: BenchSection[] = [
    {
      title: 'Scale: site build and static files',
      description: `\`astro build\` of the full site from a file database holding N servers (seeded by db/fake.ts), peak memory of the build process tree sampled every 50 ms, files counted in the output. The ${fmt(big)} row is a linear extrapolation from the two measured rows, not a measurement.`,
      rows: buildRows,
      notes: [
        `Files per added server (measured slope): ${perServer.toFixed(2)}. One deployment holds at most ${fmt(FILE_LIMITS.free)} files (free) / ${fmt(FILE_LIMITS.paid)} (paid): about ${fmt(maxFree)} servers fully prerendered on free, ${fmt(maxPaid)} on paid.`,
      ],
    },
    {
      title: 'Scale: database, search index and search latency',
      description:
        'Fresh migrated file database with N fake servers; size after a WAL checkpoint, and the same data copied with the FTS5 trigram table and its triggers dropped (VACUUMed). "search" is listServers() in process, 12 per page, 25 rounds over 8 terms from very common to no match. "API search" is GET /api/servers?search= through the real app over loopback HTTP (Node), one request at a time, each term asked once so every answer is a cache miss: whole words, word pieces of 3 to 8 letters, phrases and terms found nowhere. A search counts its matches up to 1,000 and then answers total_exact: false ("1,000+"); the count of such answers is in brackets.',
      rows: dbRows,
      notes: apiNotes,
    },
    {
      title: 'Scale: sitemaps from the database',
      description:
        'GET /sitemap-index.xml and the first server sitemap file it names (50,000 server ids a file), through the same app, after the searches above.',
      rows: sitemapRows,
    },
    {
      title: 'Scale: analytics writes against Turso quotas',
      description: `Measured: ${fmt(eventsPerSecond)} events/s inserted in batches of 50 (the most POST /api/events accepts) into the ${fmt(big)}-server database, ${bytesPerEvent.toFixed(0)} bytes on disk per stored event (row + indexes). The volume rows are arithmetic from that measurement and ${eventsPerView} events per page view; each stored event is one row written.`,
      rows: eventRows,
    },
  ];
  return sections;
};
