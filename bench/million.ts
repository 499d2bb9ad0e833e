// The product at 1,000,000 listings (#18), every figure measured at that size in this run: the
// seed, the build with the default prerender settings, the Node server's pages under load (static
// files beside on-demand pages, cold and cached), uncached search over varied terms, and approval
// to live for a long-tail listing and for a prerendered one.
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { type Db, openDb } from '../db/client';
import { insertFakeServers } from '../db/fake';
import { migrateDb } from '../db/migrate';
import { checkpointWal } from '../db/queries/maintenance';
import { createOperator } from '../db/queries/operators';
import { countServers, getServerBySlug } from '../db/queries/servers';
import { getSitemapCounts, listSitemapServers } from '../db/queries/sitemap';
import { insertSubmission } from '../db/queries/submissions';
import { seedIfEmpty } from '../db/seed';
import { loadEnv, rawProcessEnv } from '../functions/_app/env';
import { run as runRankJob } from '../functions/_app/jobs/rank';
import { CATEGORIES } from '../src/lib/categories';
import { writeBareProject } from './build';
import { benchSubmission, countFiles, mib, runMeasured, seconds } from './lib/measure';
import type { NodeServerBenchOptions, NodeServerReply, NodeServerState } from './lib/node-server';
import { variedTerms } from './scale';
import type { BenchContext, BenchModule, BenchSection } from './types';

const PASSWORD = 'bench operator password';
const OPERATOR = 'million@example.com';
/** Static files per Cloudflare deployment on the free plan. */
const FILE_LIMIT = 20_000;
/**
 * The heap the build may use, as `npm start` gives its builds. The build reads each listing's head,
 * not every listed server (src/data/prerendered-listings.ts), and peaks near 1 GB at 1,000,000
 * listings; the limit is a ceiling, not a target.
 */
export const BUILD_HEAP_MIB = 8_192;
/** Connections of the page load: the same for the static baseline and the on-demand rows. */
const CONNECTIONS = 8;
/** Pages of each kind requested before the measured ones (not measured). */
const WARMUPS = 50;

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => n.toFixed(1);
/** Seconds with two decimals: approval times are fractions of a second. */
const secs = (n: number) => (n / 1000).toFixed(2);
export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

/** The server of bench/lib/node-server.ts in a process of its own, and the messages it answers. */
export async function startServer(options: NodeServerBenchOptions) {
  const child: ChildProcess = fork(new URL('./lib/node-server.ts', import.meta.url), [JSON.stringify(options)], {
    execArgv: ['--import', 'tsx'],
    // As `npm start` runs it: React's production build (functions/_app/node.ts).
    env: rawProcessEnv({ NODE_ENV: 'production' }),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T extends NodeServerReply['type']>(type: T) =>
    new Promise<Extract<NodeServerReply, { type: T }>>((resolve, reject) => {
      const onMessage = (m: NodeServerReply) => {
        if (m.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(m as Extract<NodeServerReply, { type: T }>);
      };
      const onExit = (code: number | null) => reject(new Error(`the Node server process exited (${code})`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const { port, rebuiltAtStart } = await next('listening');
  const ask = async (type: 'state' | 'idle'): Promise<NodeServerState> => {
    const reply = type === 'state' ? next('state') : next('idle');
    child.send(type);
    return (await reply).state;
  };
  return {
    base: `http://127.0.0.1:${port}`,
    rebuiltAtStart,
    state: () => ask('state'),
    /** Resolves once no build is queued or running in the server. */
    idle: () => ask('idle'),
    close: () =>
      new Promise<void>((ok) => {
        if (child.exitCode !== null) return ok();
        child.once('exit', () => ok());
        child.send('close');
      }),
  };
}

interface Load {
  requests: number;
  p50: number;
  p99: number;
  rps: number;
  errors: number;
}

/**
 * Connection `i`'s keep-alive agent: its connections leave from a loopback address of its own
 * (127.0.0.10 + i), so the server sees `CONNECTIONS` visitors, as it would, and not one client
 * past the render gate's share (lib/render-gate.ts: PER_CLIENT_IN_FLIGHT renders at once, the rest 429).
 */
const connectionAgent = (i: number) => new Agent({ keepAlive: true, maxSockets: 1, localAddress: `127.0.0.${10 + i}` });

/** One GET (gzip accepted) through `agent`: its status and its page, unzipped. */
function get(agent: Agent, url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { 'accept-encoding': 'gzip' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const body = (res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Each URL requested once by `CONNECTIONS` concurrent keep-alive connections, each from its own
 * loopback address (a fixed-concurrency loop: every connection takes the next URL as soon as its
 * answer is read). An answer counts as an error unless it is a 200 whose page names its own path.
 */
async function load(urls: readonly string[]): Promise<Load> {
  const times: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, i) => {
      const agent = connectionAgent(i);
      try {
        while (next < urls.length) {
          const url = urls[next++]!;
          const t0 = performance.now();
          const res = await get(agent, url);
          times.push(performance.now() - t0);
          if (res.status !== 200 || !res.body.includes(new URL(url).pathname)) errors++;
        }
      } finally {
        agent.destroy();
      }
    }),
  );
  const wall = performance.now() - started;
  times.sort((a, b) => a - b);
  return {
    requests: times.length,
    p50: percentile(times, 0.5),
    p99: percentile(times, 0.99),
    rps: times.length / (wall / 1000),
    errors,
  };
}

const met = (ok: boolean) => (ok ? 'met' : 'missed');

/** The section's table: rows of a figure, or of a load run's latency and throughput, and notes. */
export function newTable() {
  const rows: (string | number)[][] = [['measured', 'value', 'p50 ms', 'p99 ms', 'requests/s', 'errors', 'target']];
  const notes: string[] = [];
  const row = (what: string, value: string, target = '-', l?: Load) =>
    rows.push([
      what,
      value,
      l ? ms(l.p50) : '-',
      l ? ms(l.p99) : '-',
      l ? fmt(l.rps) : '-',
      l ? l.errors : '-',
      target,
    ]);
  return { rows, notes, row };
}
type Table = ReturnType<typeof newTable>;

/** Signs in over HTTP; returns a function that calls the admin API as that operator. */
async function signIn(base: string) {
  const res = await fetch(`${base}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email: OPERATOR, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status}`);
  const { csrfToken } = (await res.json()) as { csrfToken: string };
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  return async (method: string, path: string, body?: unknown) => {
    const answer = await fetch(`${base}${path}`, {
      method,
      ...(body === undefined
        ? { headers: { cookie, origin: base, 'x-csrf-token': csrfToken } }
        : {
            headers: { cookie, origin: base, 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          }),
    });
    if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${await answer.text()}`);
    return answer.json() as Promise<Record<string, unknown>>;
  };
}

/** Polls `url` (every 20 ms) until its answer passes `done`; returns the milliseconds since `start`. */
async function waitFor(url: string, start: number, done: (status: number, body: string) => boolean): Promise<number> {
  for (;;) {
    const res = await fetch(url);
    const body = await res.text();
    if (done(res.status, body)) return performance.now() - start;
    if (performance.now() - start > 600_000) throw new Error(`${url} not as expected after 600 s (${res.status})`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The PUT body of a listing as the console sends it: every field the servers schema takes. */
function listingInput(server: Record<string, unknown>, description: string): Record<string, unknown> {
  const fields = ['name', 'category', 'subcategory', 'slug', 'members', 'active_users', 'rating', 'image_url'];
  fields.push('pros', 'cons', 'is_premium', 'is_sponsored', 'affiliate_link', 'tags', 'features', 'sort_order');
  fields.push('is_active', 'language', 'region', 'placement_started_at', 'placement_ends_at');
  return { ...Object.fromEntries(fields.map((f) => [f, server[f]])), description };
}

/**
 * `count` listed servers' slugs spread over the whole id range (sitemap reads along the primary
 * key, a window at each of `windows` evenly spaced ids), none of them in `skip`.
 */
export async function spreadSlugs(db: Db, count: number, skip: ReadonlySet<string>): Promise<string[]> {
  const { maxId } = await getSitemapCounts(db);
  const windows = 50;
  const per = Math.ceil(count / windows);
  const out: string[] = [];
  for (let w = 0; w < windows && out.length < count; w++) {
    let after = Math.floor((maxId * w) / windows);
    let taken = 0;
    while (taken < per && after < maxId) {
      const rows = await listSitemapServers(db, after, Math.min(maxId, after + per * 4));
      after = Math.min(maxId, after + per * 4);
      for (const row of rows) {
        if (taken >= per || out.length >= count) break;
        if (skip.has(row.slug)) continue;
        out.push(row.slug);
        taken++;
      }
    }
  }
  return out;
}

/** A seeded database and a finished build in `buildsDir` (named by its `current`), for the server part. */
export interface LiveSite {
  db: Db;
  url: string;
  buildsDir: string;
  /** The build's folder. */
  out: string;
  /** Listings in the database, formatted. */
  size: string;
  /** Environment of the server's rebuilds. */
  buildEnv: Record<string, string>;
}

/**
 * Steps 3 to 5 on a built site: the Node server on that build, its pages under load, uncached
 * search through it, approval and edit to live. Adds its rows and notes to `table`.
 */
export async function measureLiveSite(ctx: BenchContext, site: LiveSite, table: Table): Promise<LiveFigures> {
  const { db, url, buildsDir, out, size, buildEnv } = site;
  const { row, rows, notes } = table;
  const figures: Partial<LiveFigures> = {};
  /** Long-tail pages under load: under the on-demand cache's 5,000 pages, so the second pass is all hits. */
  const pages = ctx.quick ? 1_000 : 4_000;
  const terms = variedTerms(ctx.quick ? 100 : 300);
  const prerendered = new Set(
    readdirSync(join(out, 'client', 'server'))
      .filter((f) => f.endsWith('.html'))
      .map((f) => f.slice(0, -'.html'.length)),
  );
  // The pages under load: prerendered server pages (files) and long-tail ones (on demand),
  // spread over the list; a few more of each warm the server up first (not measured).
  const statics = [...prerendered].filter(
    (_, i) => i % Math.max(1, Math.floor(prerendered.size / (pages + WARMUPS))) === 0,
  );
  const tail = await spreadSlugs(db, pages + WARMUPS, prerendered);
  if (statics.length < pages + WARMUPS || tail.length < pages + WARMUPS) {
    throw new Error(`too few pages to load: ${statics.length} prerendered, ${tail.length} long-tail`);
  }

  // 3. The Node server npm start runs, on that build, in a process of its own.
  ctx.log('million: starting the Node server on that build…');
  const server = await startServer({ url, root: ctx.root, buildsDir, buildEnv });
  try {
    if (server.rebuiltAtStart) throw new Error('the server built the site again at start');
    const { base } = server;
    const urls = (slugs: string[]) => slugs.map((s) => `${base}/server/${s}`);
    await load(urls(statics.slice(pages)));
    await load(urls(tail.slice(pages)));
    const staticFirst = await load(urls(statics.slice(0, pages)));
    const staticAgain = await load(urls(statics.slice(0, pages)));
    const cold = await load(urls(tail.slice(0, pages)));
    const cachedPages = (await server.state()).cachedPages;
    const cached = await load(urls(tail.slice(0, pages)));
    ctx.log(
      `million: static p99 ${ms(staticAgain.p99)} ms, on demand cold p99 ${ms(cold.p99)} ms, cached p99 ${ms(cached.p99)} ms (${cachedPages} pages cached)`,
    );
    row(`Pages: prerendered /server/{slug}, first read (${fmt(pages)} files)`, `${fmt(pages)} pages`, '-', staticFirst);
    row(`Pages: prerendered /server/{slug}, again (static baseline)`, `${fmt(pages)} pages`, '-', staticAgain);
    row(`Pages: long-tail /server/{slug} on demand, cold (cache misses)`, `${fmt(pages)} pages`, '-', cold);
    row(
      `Pages: long-tail /server/{slug} on demand, cached`,
      `${fmt(pages)} pages (${fmt(cachedPages)} in the cache)`,
      '-',
      cached,
    );
    figures.staticP99 = staticAgain.p99;
    figures.staticRps = staticAgain.rps;
    figures.coldP99 = cold.p99;
    figures.cachedRps = cached.rps;
    notes.push(
      `On-demand server pages at ${size} listings, ${CONNECTIONS} connections: cold p50 ${ms(cold.p50)} / p99 ${ms(cold.p99)} ms, cached p50 ${ms(cached.p50)} / p99 ${ms(cached.p99)} ms, beside ${ms(staticAgain.p50)} / ${ms(staticAgain.p99)} ms for prerendered files (${(cached.rps / staticAgain.rps).toFixed(2)}× their requests/s cached, ${(cold.rps / staticAgain.rps).toFixed(2)}× cold).`,
    );

    // 4. Uncached search over varied terms, through the same server, each beside an uncached
    // listing page without a term (the baseline: same endpoint, page size and connection count).
    ctx.log(`million: ${terms.length} uncached searches beside as many uncached listing pages…`);
    const timedGet = async (query: string) => {
      const t0 = performance.now();
      const res = await fetch(`${base}/api/servers?${query}&per_page=12`);
      const body = await res.text();
      if (!res.ok) throw new Error(`/api/servers?${query} answered ${res.status}`);
      return { ms: performance.now() - t0, body };
    };
    const search = async (term: string) => {
      const { ms: took, body } = await timedGet(`search=${encodeURIComponent(term)}`);
      return { ms: took, capped: (JSON.parse(body) as { total_exact: boolean }).total_exact === false };
    };
    const listings = noTermListings(terms.length);
    // Compiling the search path costs the first answers: other terms first (none of variedTerms'),
    // and listing pages the measured ones do not ask for (page 30 and on).
    for (const term of ['hub', 'club', 'lounge', 'alpha', 'hodl', 'pivot', 'casual', 'swing']) await search(term);
    for (let i = 0; i < 8; i++) await timedGet(`sort=members&page=${30 + i}`);
    const times: number[] = [];
    const listingTimes: number[] = [];
    const perTerm: [string, number][] = [];
    let capped = 0;
    for (const [i, term] of terms.entries()) {
      listingTimes.push((await timedGet(listings[i]!)).ms);
      const r = await search(term);
      times.push(r.ms);
      perTerm.push([term, r.ms]);
      if (r.capped) capped++;
    }
    times.sort((a, b) => a - b);
    listingTimes.sort((a, b) => a - b);
    const searchP99 = percentile(times, 0.99);
    const listingP99 = percentile(listingTimes, 0.99);
    figures.searchP99 = searchP99;
    figures.listingP99 = listingP99;
    const slowest = perTerm
      .sort((x, y) => y[1] - x[1])
      .slice(0, 5)
      .map(([term, took]) => `"${term}" ${ms(took)} ms`)
      .join(', ');
    ctx.log(`million: search p99 ${ms(searchP99)} ms, no-term p99 ${ms(listingP99)} ms; slowest terms: ${slowest}`);
    notes.push(`The slowest searches of this run: ${slowest}.`);
    rows.push([
      `Search: GET /api/servers?search= uncached, ${times.length} distinct terms (${capped} totals capped)`,
      `${times.length} searches`,
      ms(percentile(times, 0.5)),
      ms(searchP99),
      fmt(1000 / (times.reduce((a, b) => a + b, 0) / times.length)),
      0,
      'p99 <= 2x the no-term p99',
    ]);
    rows.push([
      `Search baseline: GET /api/servers uncached without a term, ${listingTimes.length} distinct listing pages (category, sort, page 1-13)`,
      `${listingTimes.length} pages`,
      ms(percentile(listingTimes, 0.5)),
      ms(listingP99),
      fmt(1000 / (listingTimes.reduce((a, b) => a + b, 0) / listingTimes.length)),
      0,
      '-',
    ]);

    // 5. Approval to live. (a) A new listing, long tail: its page renders on request at once.
    const call = await signIn(base);
    const pending = await insertSubmission(
      db,
      benchSubmission('Million Bench Approval', 'https://discord.gg/millionbench'),
    );
    const approveStart = performance.now();
    const approved = (await call('POST', `/api/admin/submissions/${pending.id}/approve`)) as {
      server: { slug: string };
    };
    const answerMs = performance.now() - approveStart;
    const newPage = `${base}/server/${approved.server.slug}`;
    const approvalLive = await waitFor(newPage, approveStart, (status) => status === 200);
    ctx.log(`million: approval live on request in ${secs(approvalLive)} s; waiting for its rebuild…`);
    const afterApproval = await server.idle();
    const approvalRebuilt = performance.now() - approveStart;
    if (afterApproval.status.state === 'failed')
      throw new Error(`the rebuild failed: ${afterApproval.status.lastError}`);
    row(
      'Approval to live: new long-tail listing, page answers 200 (on demand)',
      `${secs(approvalLive)} s (approve answered in ${fmt(answerMs)} ms)`,
      '< 10 s',
    );
    figures.approvalPublishMs = approvalRebuilt;
    row(
      'Approval to live: the publish it asked for is live (from the approve call)',
      `${seconds(approvalRebuilt)} s (${publishLine(afterApproval, 0)})`,
    );
    notes.push(
      `Approval to live of a long-tail listing at ${size} listings: ${secs(approvalLive)} s (target: under 10 s): ${met(approvalLive < 10_000)}.`,
    );

    // (b) An operator edit of a top-ranked listing, whose page is a prerendered file: rendered on
    // request until a build begun after the edit is live, then the rebuilt file has the new text.
    // A fake listing among the prerendered ones (the sample servers' icons are site paths, which
    // the console's form would have to change first).
    let top: Awaited<ReturnType<typeof getServerBySlug>> = null;
    for (const slug of statics) {
      top = await getServerBySlug(db, slug);
      if (top && (top.image_url === null || top.image_url.startsWith('https://'))) break;
    }
    if (!top) throw new Error('no prerendered listing to edit');
    const topSlug = top.slug;
    const { server: record } = (await call('GET', `/api/admin/servers/${top.id}`)) as {
      server: Record<string, unknown>;
    };
    const marker = `Edited by the million-listings bench at ${Date.now()}.`;
    const topPage = `${base}/server/${topSlug}`;
    const editStart = performance.now();
    await call('PUT', `/api/admin/servers/${top.id}`, listingInput(record, `${String(record.description)} ${marker}`));
    const editAnswerMs = performance.now() - editStart;
    const editLive = await waitFor(topPage, editStart, (status, body) => status === 200 && body.includes(marker));
    ctx.log(`million: edit live on request in ${secs(editLive)} s; waiting for its rebuild…`);
    const afterEdit = await server.idle();
    const editRebuilt = performance.now() - editStart;
    figures.editPublishMs = editRebuilt;
    if (afterEdit.status.state === 'failed') throw new Error(`the rebuild failed: ${afterEdit.status.lastError}`);
    // Once the rebuild is live the page is its file again, and the file has the edit.
    const file = await fetch(topPage);
    const fileHasEdit = file.status === 200 && (await file.text()).includes(marker);
    row(
      'Edit to live: prerendered listing, page shows the edit (rendered on request)',
      `${secs(editLive)} s (edit answered in ${fmt(editAnswerMs)} ms)`,
      '< 10 s',
    );
    row(
      'Edit to live: the publish it asked for is live (from the PUT; the file has the edit)',
      `${seconds(editRebuilt)} s (${publishLine(afterEdit, afterApproval.publishes)}; ${fileHasEdit ? 'file has the edit' : 'FILE LACKS THE EDIT'})`,
    );
    notes.push(
      `Edit of a prerendered listing to live at ${size} listings: ${secs(editLive)} s on request (target: under 10 s): ${met(editLive < 10_000)}; the rewritten file ${seconds(editRebuilt)} s after the edit.`,
    );
    if (!fileHasEdit) throw new Error('the published file of the edited listing lacks the edit');
  } finally {
    await server.idle().catch(() => undefined);
    await server.close();
  }
  return figures as LiveFigures;
}

/** How a change went live: an incremental publish (what it rendered and wrote) or a full build. */
function publishLine(after: NodeServerState, publishesBefore: number): string {
  const took = seconds(after.status.lastDurationMs ?? 0);
  if (after.publishes > publishesBefore && after.publish) {
    const p = after.publish;
    return `incremental publish ${took} s: ${fmt(p.rendered)} pages rendered, ${fmt(p.written)} written, ${fmt(p.removed)} removed`;
  }
  return `full build ${took} s`;
}

/** The figures of a live-site measurement the run's ratios are made of. */
export interface LiveFigures {
  staticP99: number;
  staticRps: number;
  coldP99: number;
  cachedRps: number;
  searchP99: number;
  listingP99: number;
  approvalPublishMs: number;
  editPublishMs: number;
}

/**
 * `count` distinct uncached listing pages of GET /api/servers without a term: every listing (all,
 * each category) in each visitor order, pages 1 to 13 (query strings, without per_page).
 */
export function noTermListings(count: number): string[] {
  const out: string[] = [];
  const scopes = ['', ...CATEGORIES.map((c) => `category=${encodeURIComponent(c.name)}&`)];
  for (let page = 1; out.length < count; page++) {
    for (const sort of ['members', 'active', 'newest', 'growing']) {
      for (const scope of scopes) if (out.length < count) out.push(`${scope}sort=${sort}&page=${page}`);
    }
  }
  return out;
}

export const bench: BenchModule = async (ctx) => {
  mkdirSync(ctx.tmp, { recursive: true });
  const fakes = ctx.quick ? 20_000 : 1_000_000;
  const path = join(ctx.tmp, 'million.db');
  const url = `file:${path}`;
  // Inside the project: Astro stages prerender chunks under the output folder only when it lies
  // within the working directory (else in a shared ./.astro/ other builds also use).
  const buildsDir = join(ctx.root, '.tmp', `bench-million-${process.pid}`);
  const table = newTable();
  const { row, rows, notes } = table;
  const loadBefore = loadavg();
  const run: Partial<RunFigures> = { at: new Date().toISOString().slice(0, 16).replace('T', ' '), quick: ctx.quick };
  ctx.log(`million: load average before the run ${loadBefore.map((l) => l.toFixed(2)).join(' / ')} (1, 5, 15 min)`);

  try {
    // 1. Seed: the sample servers, the bulk load of the fake ones, the first operator.
    ctx.log(`million: seeding ${fmt(fakes)} fake servers…`);
    const { db, client } = await openDb({ url });
    await migrateDb(db);
    const seedStart = performance.now();
    await seedIfEmpty(db);
    const sampleMs = performance.now() - seedStart;
    const bulkMs = await insertFakeServers(client, fakes);
    const operatorStart = performance.now();
    await createOperator(db, { email: OPERATOR, password: PASSWORD, role: 'admin' });
    const operatorMs = performance.now() - operatorStart;
    // The steady state of a directory: every listing scored once (the rank job, forced), so an
    // approval moves only the places below the new listing instead of making the first recompute
    // of its category (which rewrites every listing of it). Its own row: not part of the seed time.
    ctx.log('million: the rank recompute of every listing…');
    const rankStart = performance.now();
    const ranked = await runRankJob({ db }, Date.now(), { force: true });
    const rankMs = performance.now() - rankStart;
    await checkpointWal(client);
    const seedMs = performance.now() - seedStart - rankMs;
    const total = await countServers(db);
    const size = fmt(total);
    ctx.log(`million: ${size} servers seeded in ${seconds(seedMs)} s (bulk load ${seconds(bulkMs)} s)`);
    row(`Seed: bulk load of ${fmt(fakes)} fake servers (db/queries/bulk-load.ts)`, `${seconds(bulkMs)} s`, '< 180 s');
    row('Seed: sample servers + first operator', `${seconds(sampleMs)} s + ${seconds(operatorMs)} s`);
    row(
      'Seed: rank recompute of every listing (functions/_app/jobs/rank.ts, once after the seed)',
      `${seconds(rankMs)} s (${fmt(ranked.ranks?.listings ?? 0)} listings, ${fmt(ranked.ranks?.updated ?? 0)} rows written, ${fmt(ranked.pages.length)} pages named)`,
    );
    notes.push(
      `Seed of ${fmt(fakes)} fake servers: ${seconds(bulkMs)} s (target: under 3 minutes): ${met(bulkMs < 180_000)}.`,
    );

    // 2. The build npm start would make at first start (same folder layout, cache and settings),
    // measured, then handed to the server as its live build.
    const env = loadEnv({ DATABASE_URL: url, PORT: '0', HOST: '127.0.0.1' });
    const buildEnv = {
      NODE_OPTIONS: `--max-old-space-size=${BUILD_HEAP_MIB}`,
      ASTRO_CACHE_DIR: join(buildsDir, '.astro-cache'),
      ASTRO_INCREMENTAL: '1',
    };
    const name = `build-${Date.now()}`;
    const out = join(buildsDir, name);
    mkdirSync(buildsDir, { recursive: true });
    ctx.log(`million: astro build with ${size} servers…`);
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
    const clientFiles = countFiles(join(out, 'client'));
    const allFiles = countFiles(out);
    const serverPages = readdirSync(join(out, 'client', 'server')).filter((f) => f.endsWith('.html')).length;
    ctx.log(
      `million: built in ${seconds(built.ms)} s, peak ${mib(built.peakRssBytes)} MiB, ${fmt(clientFiles.files)} files in client/`,
    );
    row('Build: astro build, wall time', `${seconds(built.ms)} s`);
    row(
      'Build: peak memory (RSS of the build process tree)',
      `${mib(built.peakRssBytes)} MiB (heap limit ${fmt(BUILD_HEAP_MIB)} MiB)`,
    );
    row(
      'Build: files in client/ (what a Cloudflare deployment uploads)',
      `${fmt(clientFiles.files)} (${fmt(clientFiles.html)} HTML, ${fmt(serverPages)} server pages)`,
      `<= ${fmt(FILE_LIMIT)}`,
    );
    row('Build: files in the whole output (client/ + server/)', fmt(allFiles.files));
    run.seedS = bulkMs / 1000;
    run.rankS = rankMs / 1000;
    run.buildS = built.ms / 1000;
    run.peakMiB = built.peakRssBytes / 2 ** 20;

    // The bare baseline: a bare Astro project writing as many pages (one file each) from the same
    // database (bench/build.ts's), right after the site's build.
    ctx.log(`million: bare Astro build of ${fmt(clientFiles.html)} pages…`);
    const bareDir = join(buildsDir, 'bare');
    writeBareProject(bareDir, url, clientFiles.html, join(buildsDir, '.bare-cache'));
    const bare = await runMeasured(
      process.execPath,
      [astro, 'build', '--root', bareDir, '--outDir', join(buildsDir, 'bare-out')],
      {
        cwd: ctx.root,
        env: { ASTRO_TELEMETRY_DISABLED: '1', NODE_OPTIONS: `--max-old-space-size=${BUILD_HEAP_MIB}` },
      },
    );
    run.bareS = bare.ms / 1000;
    row(
      `Build baseline: a bare Astro project writing the same ${fmt(clientFiles.html)} pages`,
      `${seconds(bare.ms)} s, peak ${mib(bare.peakRssBytes)} MiB`,
    );
    notes.push(
      `Files a deployment uploads at ${size} listings: ${fmt(clientFiles.files)} (limit ${fmt(FILE_LIMIT)} on the free plan): ${met(clientFiles.files <= FILE_LIMIT)}.`,
    );

    try {
      Object.assign(run, await measureLiveSite(ctx, { db, url, buildsDir, out, size, buildEnv }, table));
    } finally {
      client.close();
    }
  } finally {
    rmSync(buildsDir, { recursive: true, force: true });
    for (const s of ['', '-wal', '-shm']) rmSync(path + s, { force: true });
  }
  const loadAfter = loadavg();
  run.loadBefore = loadBefore[0]!;
  run.loadAfter = loadAfter[0]!;
  ctx.log(`million: load average after the run ${loadAfter.map((l) => l.toFixed(2)).join(' / ')}`);
  const figures = run as RunFigures;
  const ratios = ratiosOf(figures);
  for (const r of ratios) {
    ctx.log(`million: ${r.what}: ${r.value.toFixed(2)}${r.unit} (${r.of}) target ${r.target}: ${met(r.ok)}`);
    notes.push(`${r.what}: **${r.value.toFixed(2)}${r.unit}** (${r.of}); target ${r.target}: ${met(r.ok)}.`);
  }
  notes.push(
    `Load average (1 min) before the run ${loadBefore[0]!.toFixed(2)}, after it ${loadAfter[0]!.toFixed(2)} (5 min: ${loadBefore[1]!.toFixed(2)}, ${loadAfter[1]!.toFixed(2)}).`,
  );
  const history = recordRun(ctx.root, figures);
  const runsTable = runsSection(history.filter((h) => h.quick === ctx.quick).slice(-RUNS_SHOWN));
  return [
    {
      title: 'A million listings',
      description: `Everything at the same size, measured in one run (nothing extrapolated): a migrated file database with the sample servers, ${fmt(fakes)} deterministic fake servers (bulk load) and an operator, then the rank job once (every listing scored, as in a directory whose ranks are computed: the fakes are unchecked, so they score 0 and print no place); \`astro build\` with the default prerender settings (PRERENDER_SERVERS, PRERENDER_LISTING_PAGES), as \`npm start\` makes its first build (its own Astro cache, incremental on, heap limit ${fmt(BUILD_HEAP_MIB)} MiB through NODE_OPTIONS, also given to the server's rebuilds), peak memory of the build process tree sampled every 50 ms; then that build is the live build of the Node server \`npm start\` runs (startNodeServer, in a process of its own, rate limits and the invite refresh off). Pages: ${CONNECTIONS} concurrent keep-alive connections, each from a loopback address of its own (${CONNECTIONS} visitors, each within the render gate's share), each page requested once per pass (gzip accepted), after ${WARMUPS} warm-up requests of each kind; the prerendered pages are files (the first pass reads and gzips each, the second serves them from memory: the static baseline); the long-tail pages are rendered on request from the database by the build's page code (cold) and then served from the in-process cache (cached). Search: each term asked once, one at a time, through the same server, each right after an uncached listing page without a term (the baseline: every listing in each order, pages 1-13, the same page size and connection). The bare baseline: bench/build.ts's bare Astro project writing as many pages (one file each) from the same database, built right after the site. Approval: \`POST /api/admin/submissions/:id/approve\` until the new page answers 200 (polled every 20 ms), then until the publish it asked for is live (the incremental publish of functions/_app/site-publish.ts, or a full build when it falls back: the row says which); edit: \`PUT /api/admin/servers/:id\` of a prerendered listing with a new description until its page shows it, then until its publish is live. Every ratio is against its baseline in this run; the load average is taken before and after.`,
      rows,
      notes,
    },
    runsTable,
  ];
};

/** One run's figures, kept in bench/history/million.json for the spread across runs. */
export interface RunFigures extends LiveFigures {
  /** When the run began (UTC, minutes). */
  at: string;
  quick: boolean;
  seedS: number;
  /** The rank recompute of every listing after the seed (runs before it was measured have none). */
  rankS?: number;
  buildS: number;
  bareS: number;
  peakMiB: number;
  /** 1-minute load average before and after the run. */
  loadBefore: number;
  loadAfter: number;
}

/** Runs shown in the spread table: the last three (the targets count in the worst of three consecutive runs). */
const RUNS_SHOWN = 3;

interface Ratio {
  what: string;
  value: number;
  /** The figure and its same-run baseline. */
  of: string;
  target: string;
  ok: boolean;
  /** 'x' for a ratio, ' GB' for the one absolute figure. */
  unit: string;
}

/** The run's figures as ratios against baselines of the same run (issue 35's targets). */
export function ratiosOf(f: RunFigures): Ratio[] {
  const r = (
    what: string,
    value: number,
    of: string,
    target: string,
    ok: (v: number) => boolean,
    unit = 'x',
  ): Ratio => ({
    what,
    value,
    of,
    target,
    ok: ok(value),
    unit,
  });
  return [
    r(
      'Search p99 / no-term listing p99',
      f.searchP99 / f.listingP99,
      `${ms(f.searchP99)} / ${ms(f.listingP99)} ms`,
      '<= 2',
      (v) => v <= 2,
    ),
    r(
      'On-demand cold p99 / prerendered file p99',
      f.coldP99 / f.staticP99,
      `${ms(f.coldP99)} / ${ms(f.staticP99)} ms`,
      '<= 2',
      (v) => v <= 2,
    ),
    r(
      'On-demand cached req/s / prerendered file req/s',
      f.cachedRps / f.staticRps,
      `${fmt(f.cachedRps)} / ${fmt(f.staticRps)}`,
      '>= 0.8',
      (v) => v >= 0.8,
    ),
    r(
      'Approval publish live / full build',
      f.approvalPublishMs / 1000 / f.buildS,
      `${seconds(f.approvalPublishMs)} / ${f.buildS.toFixed(1)} s`,
      '<= 0.2',
      (v) => v <= 0.2,
    ),
    r(
      'Edit publish live / full build',
      f.editPublishMs / 1000 / f.buildS,
      `${seconds(f.editPublishMs)} / ${f.buildS.toFixed(1)} s`,
      '<= 0.2',
      (v) => v <= 0.2,
    ),
    r(
      'Full build / bare Astro build of as many pages',
      f.buildS / f.bareS,
      `${f.buildS.toFixed(1)} / ${f.bareS.toFixed(1)} s`,
      '<= 2',
      (v) => v <= 2,
    ),
    r('Full build peak memory', f.peakMiB / 1024, `${fmt(f.peakMiB)} MiB`, '<= 1.5', (v) => v <= 1.5, ' GB'),
  ];
}

/** Appends this run to bench/history/million.json (kept in the repo) and returns every run kept, oldest first. */
function recordRun(root: string, run: RunFigures): RunFigures[] {
  const file = join(root, 'bench', 'history', 'million.json');
  const runs: RunFigures[] = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as RunFigures[]) : [];
  runs.push(run);
  mkdirSync(join(root, 'bench', 'history'), { recursive: true });
  writeFileSync(file, `${JSON.stringify(runs.slice(-20), null, 2)}\n`);
  return runs;
}

/** The last runs side by side: each run's figures and ratios, then the spread (best, worst) of each ratio. */
function runsSection(runs: RunFigures[]): BenchSection {
  const head = ['run (UTC)', 'load before / after', 'seed s', 'build s', 'bare s', 'peak MiB'];
  const names = runs[0] ? ratiosOf(runs[0]).map((r) => r.what) : [];
  const rows: (string | number)[][] = [[...head, ...names]];
  for (const f of runs) {
    rows.push([
      f.at,
      `${f.loadBefore.toFixed(2)} / ${f.loadAfter.toFixed(2)}`,
      f.seedS.toFixed(1),
      f.buildS.toFixed(1),
      f.bareS.toFixed(1),
      fmt(f.peakMiB),
      ...ratiosOf(f).map((r) => `${r.value.toFixed(2)} (${r.of})`),
    ]);
  }
  const notes = names.map((name, i) => {
    const values = runs.map((f) => ratiosOf(f)[i]!);
    const sorted = values.map((v) => v.value).sort((a, b) => a - b);
    const worst = values.every((v) => v.ok)
      ? 'met in every run'
      : `missed in ${values.filter((v) => !v.ok).length} of ${values.length}`;
    return `${name}: from ${sorted[0]!.toFixed(2)} to ${sorted[sorted.length - 1]!.toFixed(2)} over ${values.length} run(s), target ${values[0]!.target}: ${worst}.`;
  });
  return {
    title: 'A million listings: the last runs and their spread',
    description: `The last ${RUNS_SHOWN} runs of \`npm run bench -- --only million\`${runs[0]?.quick ? ' --quick' : ''} (bench/history/million.json keeps them), each ratio against its baseline measured in the same run; a target counts when it holds in the worst run.`,
    rows,
    notes,
  };
}
