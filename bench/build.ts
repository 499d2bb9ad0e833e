import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDb } from '../db/client';
import { insertFakeServers } from '../db/fake';
import { migrateDb } from '../db/migrate';
import { seedIfEmpty } from '../db/seed';
import { mib, runMeasured, seconds } from './lib/measure';
import type { BenchModule } from './types';

/** Counts .html files under a folder. */
function countHtml(dir: string): number {
  let n = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.html')) n++;
  }
  return n;
}

/**
 * A bare Astro project that renders one trivial page per server row of the database at `url`:
 * the baseline. Another project, so the URL is written into its page rather than read from our environment.
 */
function writeBareProject(dir: string, url: string): void {
  mkdirSync(join(dir, 'src', 'pages'), { recursive: true });
  writeFileSync(
    join(dir, 'astro.config.mjs'),
    "import { defineConfig } from 'astro/config';\nexport default defineConfig({ output: 'static', build: { format: 'directory' } });\n",
  );
  writeFileSync(
    join(dir, 'src', 'pages', '[id].astro'),
    `---
import { createClient } from '@libsql/client';
export async function getStaticPaths() {
  const client = createClient({ url: ${JSON.stringify(url)} });
  const { rows } = await client.execute('SELECT id, name FROM discord_servers');
  client.close();
  return rows.map((r) => ({ params: { id: String(r.id) }, props: { name: String(r.name) } }));
}
const { name } = Astro.props;
---
<html lang="en"><head><title>{name}</title></head><body><h1>{name}</h1></body></html>
`,
  );
}

/** `astro build` of the site with N fake servers beside a bare Astro build of N trivial pages from the same database. */
export const bench: BenchModule = async (ctx) => {
  mkdirSync(ctx.tmp, { recursive: true });
  // The bare project must sit inside the repo so it resolves the same node_modules.
  const bare = join(ctx.root, '.tmp', 'bench-bare');
  rmSync(bare, { recursive: true, force: true });
  const astro = join(ctx.root, 'node_modules', 'astro', 'bin', 'astro.mjs');
  const sizes = ctx.quick ? [1_000] : [1_000, 10_000];
  /** Site/bare pairs per size. */
  const rounds = ctx.quick ? 1 : 3;
  const rows: (string | number)[][] = [
    [
      'servers',
      'site pages',
      'site build s',
      'site peak MiB',
      'bare pages',
      'bare build s',
      'bare peak MiB',
      'time ratio',
    ],
  ];
  const notes: string[] = [];
  try {
    for (const n of sizes) {
      const url = `file:${join(ctx.tmp, `build-${n}.db`)}`;
      const { db, client } = await openDb({ url });
      await migrateDb(db);
      await seedIfEmpty(db);
      await insertFakeServers(client, n);
      client.close();
      writeBareProject(bare, url);
      const env = {
        DATABASE_URL: url,
        ASTRO_TELEMETRY_DISABLED: '1',
        SITE_URL: 'https://guildrank.example',
      };
      // Output inside the project: Astro stages prerender chunks in ./.astro/ when outDir is outside it.
      const siteOut = join(ctx.root, '.tmp', `bench-site-${n}`);
      const bareOut = join(ctx.root, '.tmp', `bench-bare-out-${n}`);
      // Every build is cold: the site's cache directory is a fresh one inside the project, and the
      // bare project's own (its default, node_modules/.astro) is emptied before each of its builds.
      let builds = 0;
      const siteCache = () => join(ctx.root, '.tmp', `bench-cache-${n}-${builds++}`);
      const bareCache = join(bare, 'node_modules', '.astro');
      const caches: string[] = [];
      /** One cold `astro build` into a fresh (emptied) output folder. */
      const build = (args: string[], outDir: string, cacheDir?: string) => {
        rmSync(outDir, { recursive: true, force: true });
        rmSync(bareCache, { recursive: true, force: true });
        if (cacheDir) caches.push(cacheDir);
        return runMeasured(process.execPath, [astro, 'build', ...args, '--outDir', outDir], {
          cwd: ctx.root,
          env: cacheDir ? { ...env, ASTRO_CACHE_DIR: cacheDir } : env,
        });
      };
      const buildSite = () => build([], siteOut, siteCache());
      const buildBare = () => build(['--root', bare], bareOut);
      // Several site/bare pairs, alternating which goes first (the first build of a pair reads
      // more from a cold disk cache); the row is the pair with the median ratio.
      type Measured = Awaited<ReturnType<typeof build>>;
      const pairs: { site: Measured; base: Measured; ratio: number }[] = [];
      for (let round = 0; round < rounds; round++) {
        ctx.log(`building the site and the bare baseline with ${n} servers (pair ${round + 1} of ${rounds})…`);
        let site: Measured;
        let base: Measured;
        if (round % 2 === 0) {
          site = await buildSite();
          base = await buildBare();
        } else {
          base = await buildBare();
          site = await buildSite();
        }
        pairs.push({ site, base, ratio: site.ms / base.ms });
        ctx.log(
          `  site ${seconds(site.ms)} s, bare ${seconds(base.ms)} s (${round % 2 === 0 ? 'site' : 'bare'} first)`,
        );
      }
      const ratios = pairs.map((p) => p.ratio).sort((a, b) => a - b);
      const { site, base, ratio } = pairs.find((p) => p.ratio === ratios[Math.floor(ratios.length / 2)])!;
      // npm start's builder keeps Astro's incremental cache (ASTRO_INCREMENTAL=1): its cold first
      // build also writes a copy of every page, the price of fast rebuilds after an approval.
      let incremental = '';
      if (n === sizes.at(-1)) {
        const incOut = join(ctx.root, '.tmp', `bench-site-inc-${n}`);
        ctx.log(`building the site with ${n} servers, incremental cache on (as npm start does)…`);
        const inc = await runMeasured(process.execPath, [astro, 'build', '--outDir', incOut], {
          cwd: ctx.root,
          env: { ...env, ASTRO_INCREMENTAL: '1', ASTRO_CACHE_DIR: join(ctx.tmp, `cache-inc-${n}`) },
        });
        rmSync(incOut, { recursive: true, force: true });
        incremental = `Cold build with the incremental cache on (npm start's first build, which also stores a copy of every page for later rebuilds) at ${n.toLocaleString('en-US')} servers: ${seconds(inc.ms)} s, ${mib(inc.peakRssBytes)} MiB peak (${(inc.ms / base.ms).toFixed(2)}x the bare baseline).`;
      }
      rows.push([
        n.toLocaleString('en-US'),
        countHtml(siteOut).toLocaleString('en-US'),
        seconds(site.ms),
        mib(site.peakRssBytes),
        countHtml(bareOut).toLocaleString('en-US'),
        seconds(base.ms),
        mib(base.peakRssBytes),
        `${ratio.toFixed(2)}x (${ratios.map((r) => `${r.toFixed(2)}x`).join(', ')})`,
      ]);
      if (n === 10_000)
        notes.push(
          `Build at 10,000 servers: ${ratio.toFixed(2)}x the bare baseline, median of ${rounds} pairs (target: at most 1.5x): ${ratio <= 1.5 ? 'met' : 'missed'}.`,
        );
      if (incremental) notes.push(incremental);
      rmSync(siteOut, { recursive: true, force: true });
      rmSync(bareOut, { recursive: true, force: true });
      for (const dir of caches) rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    rmSync(bare, { recursive: true, force: true });
  }
  return [
    {
      title: 'Site build throughput',
      description:
        'Full `astro build` of the site (every category, pagination, subcategory and server page; `npm run build`, as CI and deploys run it) from a file database with the sample set plus N fake servers, beside a bare Astro build of one trivial page per server row from the same database, measured in the same run, every build with a cold cache. Each row is the median of 3 site/bare pairs (the ratio of every pair in brackets; one pair in `--quick`), the order alternating between pairs. Peak memory is the sampled resident set of the build process tree.',
      rows,
      notes,
    },
  ];
};
