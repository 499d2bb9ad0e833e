import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDb } from '../db/client';
import { insertFakeServers } from '../db/fake';
import { migrateDb } from '../db/migrate';
import { seedIfEmpty } from '../db/seed';
import { countFiles, mib, runMeasured, seconds } from './lib/measure';
import type { BenchModule } from './types';

/** The most the site's build may take, as a multiple of the bare baseline's (issue #18). */
const TARGET_RATIO = 1.5;

/**
 * A bare Astro project that writes `pages` trivial pages, one file per page like the site
 * (`build.format: 'file'`), from the server rows of the database at `url`: the baseline. When the
 * site wrote more pages than there are servers (its listing and category pages, at small sizes),
 * the rows are used again under another path. Another project, so the URL, the page count and
 * the cache folder are written into it rather than read from our environment.
 */
export function writeBareProject(dir: string, url: string, pages: number, cacheDir: string): void {
  mkdirSync(join(dir, 'src', 'pages'), { recursive: true });
  writeFileSync(
    join(dir, 'astro.config.mjs'),
    `import { defineConfig } from 'astro/config';\nexport default defineConfig({ output: 'static', cacheDir: ${JSON.stringify(cacheDir)}, build: { format: 'file' } });\n`,
  );
  writeFileSync(
    join(dir, 'src', 'pages', '[id].astro'),
    `---
import { createClient } from '@libsql/client';
export async function getStaticPaths() {
  const client = createClient({ url: ${JSON.stringify(url)} });
  const { rows } = await client.execute('SELECT id, name FROM discord_servers');
  client.close();
  return Array.from({ length: ${pages} }, (_, i) => {
    const row = rows[i % rows.length];
    const lap = Math.floor(i / rows.length);
    return { params: { id: lap ? \`\${row.id}-\${lap}\` : String(row.id) }, props: { name: String(row.name) } };
  });
}
const { name } = Astro.props;
---
<html lang="en"><head><title>{name}</title></head><body><h1>{name}</h1></body></html>
`,
  );
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * `astro build` of the site with N fake servers beside a bare Astro build that writes as many
 * pages, one file each, from the same database.
 */
export const bench: BenchModule = async (ctx) => {
  mkdirSync(ctx.tmp, { recursive: true });
  // Everything a build writes sits inside the repo: the bare project so it resolves the same
  // node_modules, the output folders because Astro stages prerendered chunks beside the project
  // (an outDir outside it breaks the prerender step).
  const work = join(ctx.root, '.tmp', 'bench-build');
  rmSync(work, { recursive: true, force: true });
  const bare = join(work, 'bare');
  const astro = join(ctx.root, 'node_modules', 'astro', 'bin', 'astro.mjs');
  const sizes = ctx.quick ? [1_000] : [10_000, 100_000];
  /** Site/bare pairs per size. */
  const rounds = ctx.quick ? 1 : 3;
  const rows: (string | number)[][] = [
    [
      'servers',
      'site files',
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
  /** Builds so far: each writes into out-N and keeps its cache in cache-N, so every build is cold. */
  let builds = 0;
  try {
    for (const n of sizes) {
      const url = `file:${join(ctx.tmp, `build-${n}.db`)}`;
      const { db, client } = await openDb({ url });
      await migrateDb(db);
      await seedIfEmpty(db);
      // From 20,000 servers on this is db/queries/bulk-load.ts: 100,000 in seconds.
      const seeded = await insertFakeServers(client, n);
      client.close();
      ctx.log(`${n} fake servers inserted in ${seconds(seeded)} s`);
      const env = { DATABASE_URL: url, ASTRO_TELEMETRY_DISABLED: '1', SITE_URL: 'https://guildrank.example' };
      /**
       * One cold `astro build` into a folder of its own, with a cache folder of its own. Nothing a
       * build wrote is deleted before the last build of the run: creating a file, ext4 (without a
       * journal, as here) steps over every free inode deleted in the last minutes, one buffer
       * lookup each. A kernel profile of a build started soon after 10,000 files were deleted spent
       * about 30% of its samples there (find_inode_bit, recently_deleted, find_get_block_common),
       * up to 5 s more system time per build, whichever project it was.
       */
      const build = async (args: string[], extraEnv = {}, prepare?: (cacheDir: string) => void) => {
        const outDir = join(work, `out-${builds}`);
        const cacheDir = join(work, `cache-${builds}`);
        builds++;
        prepare?.(cacheDir);
        // Every build starts with the disk's dirty pages written out, so none pays for writing
        // back the files of the build before it.
        spawnSync('sync');
        const run = await runMeasured(process.execPath, [astro, 'build', ...args, '--outDir', outDir], {
          cwd: ctx.root,
          env: { ...env, ASTRO_CACHE_DIR: cacheDir, ...extraEnv },
        });
        return { run, outDir };
      };
      /** The site's build and what it wrote: its static files (client/; server/ is the bundle for on-demand pages). */
      const buildSite = async () => {
        const { run, outDir } = await build([]);
        const { files, html: pages } = countFiles(join(outDir, 'client'));
        return { run, files, pages };
      };
      /** The bare baseline writing `pages` pages. */
      const buildBare = async (pages: number) => {
        // The bare project names its cache folder in its config.
        const { run, outDir } = await build(['--root', bare], {}, (cacheDir) =>
          writeBareProject(bare, url, pages, cacheDir),
        );
        const { files, html } = countFiles(outDir);
        return { run, files, pages: html };
      };
      // An unmeasured site build first: it gives the page count the bare project writes, and it
      // takes the first build's costs (the database file into the page cache, the inodes of the
      // last size's files). Then the pairs, the order alternating: bare first, site first, bare first.
      type Site = Awaited<ReturnType<typeof buildSite>>;
      type Bare = Awaited<ReturnType<typeof buildBare>>;
      const pairs: { site: Site; base: Bare; ratio: number }[] = [];
      ctx.log(`building the site with ${n} servers once, unmeasured…`);
      const warmUp = await buildSite();
      const pageCount = warmUp.pages;
      ctx.log(`  site ${seconds(warmUp.run.ms)} s (unmeasured)`);
      for (let round = 0; round < rounds; round++) {
        ctx.log(`building the site and the bare baseline with ${n} servers (pair ${round + 1} of ${rounds})…`);
        let site: Site;
        let base: Bare;
        if (round % 2 === 0) {
          base = await buildBare(pageCount);
          site = await buildSite();
        } else {
          site = await buildSite();
          base = await buildBare(pageCount);
        }
        if (site.pages !== pageCount || base.pages !== pageCount)
          throw new Error(
            `pair ${round + 1} at ${n} servers: the site wrote ${site.pages} pages, the bare baseline ${base.pages}, expected ${pageCount}`,
          );
        const ratio = site.run.ms / base.run.ms;
        pairs.push({ site, base, ratio });
        ctx.log(
          `  site ${seconds(site.run.ms)} s, bare ${seconds(base.run.ms)} s, ${ratio.toFixed(2)}x (${round % 2 === 0 ? 'bare' : 'site'} first)`,
        );
      }
      const ratio = median(pairs.map((p) => p.ratio));
      const { site, base } = pairs.find((p) => p.ratio === ratio)!;
      rows.push([
        n.toLocaleString('en-US'),
        site.files.toLocaleString('en-US'),
        site.pages.toLocaleString('en-US'),
        seconds(site.run.ms),
        mib(site.run.peakRssBytes),
        base.pages.toLocaleString('en-US'),
        seconds(base.run.ms),
        mib(base.run.peakRssBytes),
        `${ratio.toFixed(2)}x (${pairs.map((p) => `${p.ratio.toFixed(2)}x`).join(', ')})`,
      ]);
      // CPU time beside the wall time: on a machine shared with other work the wall time of a
      // build follows the load, its CPU time much less.
      const cpuRatios = pairs.map((p) => p.site.run.cpuMs / p.base.run.cpuMs);
      notes.push(
        `Build at ${n.toLocaleString('en-US')} servers: ${ratio.toFixed(2)}x the bare baseline, median of ${rounds} pair${rounds === 1 ? '' : 's'} (target: at most ${TARGET_RATIO}x): ${ratio <= TARGET_RATIO ? 'met' : 'missed'}. CPU time (user + system) of the same pairs: site ${pairs.map((p) => seconds(p.site.run.cpuMs)).join(', ')} s, bare ${pairs.map((p) => seconds(p.base.run.cpuMs)).join(', ')} s, median ratio ${median(cpuRatios).toFixed(2)}x.`,
      );
      // npm start's builder keeps Astro's incremental cache (ASTRO_INCREMENTAL=1): its cold first
      // build also writes a copy of every page, the price of fast rebuilds after an approval.
      if (n === sizes.at(-1)) {
        ctx.log(`building the site with ${n} servers, incremental cache on (as npm start does)…`);
        const { run: inc } = await build([], { ASTRO_INCREMENTAL: '1' });
        notes.push(
          `Cold build with the incremental cache on (npm start's first build, which also stores a copy of every page for later rebuilds) at ${n.toLocaleString('en-US')} servers: ${seconds(inc.ms)} s, ${mib(inc.peakRssBytes)} MiB peak (${(inc.ms / base.run.ms).toFixed(2)}x the bare baseline).`,
        );
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return [
    {
      title: 'Site build throughput',
      description: `\`astro build\` of the site (\`npm run build\`, as CI and deploys run it: home, category and subcategory pages, the first pages of every listing and the top PRERENDER_SERVERS server pages by rank, default 10,000, written to client/; the server bundle for the pages rendered on request to server/) from a file database with the sample set plus N fake servers, beside a bare Astro project that writes as many trivial pages as the site wrote .html files, one file per page as the site does (\`build.format: 'file'\`), from the server rows of the same database, measured in the same run. Every build is cold, with a cache folder of its own. Each row is the pair with the median ratio of ${ctx.quick ? 'one site/bare pair (--quick)' : '3 site/bare pairs'} (the ratio of every pair in brackets), after one unmeasured site build; the order alternates between pairs, each build starts after a \`sync\` and writes into a folder of its own, and nothing is deleted before the last build (on this disk a build that started within minutes of 10,000 files being deleted paid up to 5 s more system time in ext4's inode allocator, whichever project it was; deletions made just before the run still weigh on its first builds). Site files are every static file in client/, site pages its .html files. Peak memory is the sampled resident set of the build process tree.`,
      rows,
      notes,
    },
  ];
};
