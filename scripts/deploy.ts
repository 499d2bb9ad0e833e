// `npm run deploy [-- --dry-run]`: production on Cloudflare + Turso (docs/deploy.md).
//   1. check the settings: wrangler.toml `[vars]` is the one source of those the build reads too
//      (BUILD_SETTING_NAMES in functions/_app/build-settings.ts); one set differently in this shell,
//      a value of [vars] the Worker would refuse, or REFRESH_LOOKUPS_PER_PASS unset or past what an
//      invocation's subrequests allow (deployVarsProblems) stops the deploy before anything happens
//   2. migrate the Turso database (DATABASE_URL libsql://…, DATABASE_AUTH_TOKEN)
//   3. astro build from it with ASTRO_ADAPTER=cloudflare and those [vars] into dist/: the static
//      files in dist/client/ (the top PRERENDER_SERVERS listings and every other page, _headers
//      with the CSP hashes), the Worker in dist/server/ (functions/site-worker.ts bundled with the
//      pages rendered on request, and the wrangler.json @astrojs/cloudflare writes from wrangler.toml)
//   4. check dist/client/ against the static-asset file limit of the plan, and the settings the
//      build recorded (dist/server/build-settings.json) against the Worker's (dist/server/wrangler.json)
//   5. wrangler deploy --config dist/server/wrangler.json (Worker + assets), then clear the
//      recorded changes (site_changes) the deployed build holds: never before the deploy succeeded
// Incremental (docs/SCALING.md section 5): when --out-dir already holds the build this deploy
// made last (its stamp, DEPLOY_STAMP_FILE: same source, same settings, the changes it covers) and
// every change recorded since names its listings (scope 'listings', as on Node), steps 3-4 are
// replaced by Node's publish (functions/_app/site-publish.ts): the deployed dist is hard-linked
// into a fresh folder, only the pages the changes touch are rendered by the page code of a Node
// build of the same commit (kept in dist/publish/: it writes the Cloudflare build's HTML byte for
// byte) and written where they differ; wrangler then uploads only those. Anything else, or more
// server files than PUBLISH_MAX_SERVER_FILES, is the full build. A dry run rehearses this path
// with --incremental (it builds the page code) and --clear-changes (it forgets what it read).
// A real deploy reads the names of the Worker's secrets first (wrangler secret list; deploy-checks.ts
// workerSecretsProblems) and stops when the Worker would refuse to start with them, or when the
// Stripe keys this shell gives the build are not the Worker's (the pages state whether buying is open).
// Needs CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID for wrangler (no interactive login).
// WRANGLER_CONFIG names another wrangler config (default wrangler.toml); --out-dir another output folder.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readlink, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { parse as parseToml } from 'smol-toml';
import { openDb } from '../db/client';
import { migrateDb } from '../db/migrate';
import {
  clearSiteChangesThrough,
  lastSiteChangeId,
  listSiteChangesBetween,
  type SiteChange,
} from '../db/queries/site-changes';
import { seedIfEmpty } from '../db/seed';
import {
  BUILD_SETTING_NAMES,
  BUILD_SETTINGS_FILE,
  type BuildSettings,
  buildSettingsOf,
  settingsDrift,
} from '../functions/_app/build-settings';
import { deployVarsProblems, workerSecretsProblems } from '../functions/_app/deploy-checks';
import { loadEnv, rawProcessEnv, toolEnv } from '../functions/_app/env';
import { createOnDemandPages } from '../functions/_app/on-demand';
import { PUBLISH_MAX_NAMED, PUBLISH_MAX_SERVER_FILES } from '../functions/_app/site-builder';
import { linkTree, type PublishResult, publishChanges, SERVER_FOLDER } from '../functions/_app/site-publish';
import { deploymentFacts } from '../src/data/site-data';
import { FREE_PLAN_SUBREQUESTS } from '../src/lib/invite-checks/budget';
import { exclusive } from './lib/exclusive';

const { values } = parseArgs({
  options: {
    'dry-run': { type: 'boolean', default: false },
    'out-dir': { type: 'string', default: 'dist' },
    'clear-changes': { type: 'boolean', default: false },
    incremental: { type: 'boolean', default: false },
  },
});
const dryRun = values['dry-run'];
// A dry run leaves the recorded changes for the real deploy, unless told it rehearses on a database of its own.
const clearChanges = !dryRun || values['clear-changes'];
// A real deploy keeps the Node page code for the next one's publish; a dry run only when it rehearses that path.
const withPageCode = !dryRun || values.incremental;
const root = resolve('.');
const outDir = resolve(values['out-dir']);
// The settings as given (a default would hide a missing one), and the deploy tools' own.
const env = rawProcessEnv();
const tools = toolEnv();

/** Static files per deployment: 20,000 on the free plan, 100,000 on paid (CF_ASSET_FILE_LIMIT overrides). */
const fileLimit = tools.CF_ASSET_FILE_LIMIT;

const missing: string[] = [];
// A dry run may use a local HTTP libSQL endpoint (sqld, or the test fixture) instead of Turso.
const remoteUrl = dryRun ? /^(libsql|https|http):\/\// : /^(libsql|https):\/\//;
if (!env.DATABASE_URL || !remoteUrl.test(env.DATABASE_URL)) {
  missing.push('DATABASE_URL: the Turso URL, libsql://<db>-<org>.turso.io (turso db show <db> --url)');
}
if (!env.DATABASE_AUTH_TOKEN && !env.DATABASE_URL?.startsWith('http://'))
  missing.push('DATABASE_AUTH_TOKEN: turso db tokens create <db>');

// The settings the build reads come from the Worker's [vars], never from a second place.
const configFile = resolve(tools.WRANGLER_CONFIG);
// Parsed here rather than through wrangler, whose import alone takes seconds before any check.
const configText = readFileSync(configFile, 'utf8');
const rawConfig = (configFile.endsWith('.json') ? JSON.parse(configText) : parseToml(configText)) as {
  vars?: Record<string, unknown>;
  limits?: { subrequests?: unknown };
};
const vars: Record<string, string> = {};
for (const [k, v] of Object.entries(rawConfig.vars ?? {})) {
  vars[k] = typeof v === 'string' ? v : JSON.stringify(v);
}
const buildVars: Record<string, string | undefined> = {};
for (const name of BUILD_SETTING_NAMES) {
  const given = env[name] || undefined;
  if (given !== undefined && given !== vars[name]) {
    missing.push(
      `${name}: this shell has ${JSON.stringify(given)}, ${tools.WRANGLER_CONFIG} [vars] has ${vars[name] === undefined ? 'none' : JSON.stringify(vars[name])}: the build and the Worker both read it, from [vars] only (unset it here)`,
    );
  }
  buildVars[name] = vars[name];
}
// Every value of [vars] as the Worker will check it, and the refresh's pace within an invocation's
// subrequests: [limits] subrequests where the config raises it (Workers Paid), else the Free plan's.
const subrequests = Number(rawConfig.limits?.subrequests ?? FREE_PLAN_SUBREQUESTS);
const varsProblems = deployVarsProblems(vars, subrequests, tools.WRANGLER_CONFIG);
missing.push(...varsProblems);
if (!vars.SITE_URL) missing.push(`SITE_URL: the public origin, in ${tools.WRANGLER_CONFIG} [vars]`);
else if (!dryRun && URL.canParse(vars.SITE_URL) && new URL(vars.SITE_URL).hostname.endsWith('.example')) {
  missing.push(`SITE_URL: ${tools.WRANGLER_CONFIG} [vars] still has the example origin; set your site's own`);
}
// As npm start on an https site: the default, support@ the site's host, may be nobody's inbox.
if (!dryRun && !vars.SUPPORT_EMAIL) {
  missing.push(
    `SUPPORT_EMAIL: the address every page and mail shows, in ${tools.WRANGLER_CONFIG} [vars] (the default, support@ the site's host, may be nobody's inbox)`,
  );
}
if (!dryRun) {
  if (!tools.CLOUDFLARE_API_TOKEN) missing.push('CLOUDFLARE_API_TOKEN: a token with "Workers Scripts: Edit"');
  if (!tools.CLOUDFLARE_ACCOUNT_ID) missing.push('CLOUDFLARE_ACCOUNT_ID: from the Cloudflare dashboard');
}
// A real deploy whose own settings are right: the Worker's secrets (names only, `wrangler secret
// list`, a call to Cloudflare) must be those it starts with, and the Stripe keys this deploy gives
// the build the Worker's too (docs/deploy.md step 5).
if (!dryRun && missing.length === 0) {
  console.log(`== read the Worker's secrets (wrangler secret list) ==`);
  const listed = spawnSync(
    process.execPath,
    [join(root, 'node_modules/wrangler/bin/wrangler.js'), 'secret', 'list', '--config', configFile, '--format', 'json'],
    { cwd: root, encoding: 'utf8', env: rawProcessEnv({ WRANGLER_SEND_METRICS: 'false' }) },
  );
  let secrets: string[] | null = null;
  try {
    if (listed.status === 0) secrets = (JSON.parse(listed.stdout) as { name: string }[]).map((x) => x.name);
  } catch {
    secrets = null;
  }
  if (secrets) missing.push(...workerSecretsProblems(secrets, vars, env, tools.WRANGLER_CONFIG));
  else {
    missing.push(
      `the Worker's secrets could not be read (wrangler secret list exited ${listed.status}); put them before the first deploy (step 5):\n${(listed.stderr || listed.stdout).trim()}`,
    );
  }
}
if (missing.length) {
  console.error(
    `Cannot deploy: missing or invalid settings:\n${missing.map((m) => `  - ${m}`).join('\n')}\nSee docs/deploy.md.`,
  );
  process.exit(1);
}

/** The file in the output folder that says which build it holds (read by the next deploy). */
const DEPLOY_STAMP_FILE = 'deploy-stamp.json';
/** Where the page code of the Node build of the same commit is kept, beside client/ and server/. */
const RENDERER_FOLDER = 'publish';

/** What a deployed build was made from: the next deploy publishes into it only when all of it is the same. */
interface DeployStamp {
  /** HEAD and a digest of the uncommitted changes to tracked files; null outside a git checkout. */
  source: string | null;
  /** Everything else the pages are made from besides the database. */
  settings: Record<string, unknown>;
  /** The last recorded change (site_changes id) the build holds. */
  point: number;
  /** Made by a dry run: never uploaded, so a real deploy does not publish into it. */
  dryRun: boolean;
}

/** The source a build is made from: the commit, and what differs from it in tracked files. */
function sourceVersion(): string | null {
  const git = (args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'buffer', maxBuffer: 1 << 28 });
  const head = git(['rev-parse', 'HEAD']);
  if (head.status !== 0) return null;
  const diff = git(['diff', 'HEAD', '--binary']);
  if (diff.status !== 0) return null;
  return `${head.stdout.toString().trim()}+${createHash('sha256').update(diff.stdout).digest('hex').slice(0, 16)}`;
}

/** The settings of this deploy's build as the stamp records them (as JSON keeps them: no undefined). */
const settings: Record<string, unknown> = JSON.parse(
  JSON.stringify({
    vars: buildVars,
    facts: deploymentFacts(
      loadEnv(
        Object.fromEntries(
          Object.entries({ ...env, ...buildVars }).filter((e): e is [string, string] => typeof e[1] === 'string'),
        ),
      ),
    ),
    prerenderServers: tools.PRERENDER_SERVERS,
    prerenderListingPages: tools.PRERENDER_LISTING_PAGES,
    config: createHash('sha256').update(configText).digest('hex'),
  }),
);
const source = sourceVersion();

console.log('== migrate the Turso database ==');
const { db, client } = await openDb({ url: env.DATABASE_URL as string, authToken: env.DATABASE_AUTH_TOKEN });
try {
  await migrateDb(db);
  // Same as `npm start`: a brand-new database gets the sample servers, an existing one is left alone.
  if (await seedIfEmpty(db)) console.log('Seeded the sample servers into the empty database.');
} catch (err) {
  console.error(`Migration or seeding failed: ${(err as Error).message}`);
  client.close();
  process.exit(1);
}

/** Ends the deploy with a failure: nothing after the failed step happened, the recorded changes stay. */
function fail(message: string): never {
  console.error(message);
  rmSync(`${outDir}.next`, { recursive: true, force: true });
  client.close();
  process.exit(1);
}

const run = (label: string, cmd: string, args: string[], extraEnv: Record<string, string> = {}) => {
  console.log(`\n== ${label} ==`);
  const result = spawnSync(cmd, args, {
    cwd: root,
    stdio: 'inherit',
    env: rawProcessEnv({ ASTRO_TELEMETRY_DISABLED: '1', WRANGLER_SEND_METRICS: 'false', ...extraEnv }),
  });
  if (result.status !== 0) {
    fail(`${label} failed (exit ${result.status ?? result.signal}); nothing was deployed after this step.`);
  }
};

// Every change recorded up to here is read by this deploy's build or publish; later ones wait for the next.
const point = await lastSiteChangeId(db);
const started = performance.now();

/**
 * The changes since the build in `outDir` when it was stamped by a deploy of the same source and
 * settings (and keeps the Node page code), or null: the full build then.
 */
async function pendingSince(): Promise<{ stamp: DeployStamp; changes: SiteChange[] } | null> {
  let stamp: DeployStamp;
  try {
    stamp = JSON.parse(readFileSync(join(outDir, DEPLOY_STAMP_FILE), 'utf8')) as DeployStamp;
  } catch {
    return null;
  }
  const why = (reason: string) => {
    console.log(`\nThe build in ${outDir} is not published into: ${reason}; building in full.`);
    return null;
  };
  if (stamp.dryRun && !dryRun) return why('it was made by a dry run, never uploaded');
  if (!source || stamp.source !== source)
    return why(`made from ${stamp.source ?? 'unknown source'}, this is ${source}`);
  if (!isDeepStrictEqual(stamp.settings, settings)) return why('made with other settings');
  if (!existsSync(join(outDir, RENDERER_FOLDER, 'entry.mjs'))) return why('it has no Node page code');
  if (stamp.point > point) return why('it is newer than the database');
  const changes = await listSiteChangesBetween(db, stamp.point, point);
  const wide = changes.find((c) => c.scope !== 'listings' || !c.page);
  if (wide) return why(`a change may touch any page ("${wide.reason}")`);
  if (new Set(changes.map((c) => c.page)).size > PUBLISH_MAX_NAMED) return why('the changes name too many pages');
  return { stamp, changes };
}

/**
 * Publishes `changes` into a fresh copy of the deployed build (site-publish.ts, as Node does):
 * the folder it made, or null when the publish could not take them (the full build then).
 */
async function publishInto(out: string, changes: SiteChange[]): Promise<{ result: PublishResult } | null> {
  await rm(out, { recursive: true, force: true });
  const entry = join(outDir, RENDERER_FOLDER, 'entry.mjs');
  const pages = createOnDemandPages({
    entry: () => entry,
    db,
    ...(settings.facts as ReturnType<typeof deploymentFacts>),
  });
  try {
    const result = await publishChanges({
      live: outDir,
      out,
      db,
      pages: [...new Set(changes.map((c) => c.page as string))],
      render: pages.publishRenderer(entry),
      listingPages: tools.PRERENDER_LISTING_PAGES,
      serverPages: tools.PRERENDER_SERVERS,
      maxServerPages: PUBLISH_MAX_SERVER_FILES,
    });
    // linkBuild makes server/ a symbolic link to the live build's (Node keeps one copy of the
    // page code): here the live folder goes away after the deploy, so the Worker is linked file by file.
    const worker = join(out, SERVER_FOLDER);
    const target = await readlink(worker);
    await rm(worker);
    await linkTree(target, worker);
    return { result };
  } catch (err) {
    await rm(out, { recursive: true, force: true });
    console.log(
      `\nThe incremental publish could not take these changes (${(err as Error).message}); building in full.`,
    );
    return null;
  }
}

/** The full build: the Cloudflare build into `outDir`, then the Node page code of the same source beside it. */
async function buildInFull(): Promise<void> {
  // A fresh output: files of an earlier build would be uploaded (and counted) with this one.
  rmSync(outDir, { recursive: true, force: true });
  // One Cloudflare build of this checkout at a time: the adapter writes .wrangler/deploy/config.json
  // at the root and reads it back to prerender (scripts/lib/exclusive.ts). The rest of a deploy
  // (the Node page code, the checks, wrangler's upload) runs beside another's.
  await exclusive(
    join(root, '.wrangler', 'cloudflare-build.lock'),
    () =>
      run(
        'build the site from the database',
        process.execPath,
        [join(root, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', outDir],
        { ASTRO_ADAPTER: 'cloudflare', WRANGLER_CONFIG: configFile, ...buildVars },
      ),
    (holder) => console.log(`Waiting for another Cloudflare build of this checkout (pid ${holder}) to finish…`),
  );
  // The page code the next deploy publishes with: a Node build writes the same pages byte for
  // byte (astro.config.mjs, sameOutputAsNode). Only its server entry is kept, so it prerenders
  // as little as it may (the page code does not depend on how many pages are files).
  if (!withPageCode) return;
  const nodeBuild = `${outDir}-node`;
  rmSync(nodeBuild, { recursive: true, force: true });
  run(
    'build the page code for the next incremental deploy (Node)',
    process.execPath,
    [join(root, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', nodeBuild],
    { ASTRO_ADAPTER: 'node', PRERENDER_SERVERS: '0', PRERENDER_LISTING_PAGES: '1', ...buildVars },
  );
  renameSync(join(nodeBuild, 'server'), join(outDir, RENDERER_FOLDER));
  rmSync(nodeBuild, { recursive: true, force: true });
}

const pending = await pendingSince();
const next = `${outDir}.next`;
let published: PublishResult | null = null;
if (pending) {
  console.log(
    `\n== publish ${pending.changes.length} recorded change(s) into the deployed build (${pending.stamp.source}) ==`,
  );
  const done = await publishInto(next, pending.changes);
  if (done) published = done.result;
}
const deployDir = published ? next : outDir;
if (published) {
  const { rendered, written, removed } = published;
  console.log(
    `Rendered ${rendered.length} page(s), wrote ${written.length}, removed ${removed.length}, in ${((performance.now() - started) / 1000).toFixed(1)} s:`,
  );
  for (const path of written) console.log(`  wrote ${path}`);
  for (const path of removed) console.log(`  removed ${path}`);
} else {
  await buildInFull();
}
// The stamp, as a new file (the published folder's is a hard link to the deployed build's).
rmSync(join(deployDir, DEPLOY_STAMP_FILE), { force: true });
writeFileSync(
  join(deployDir, DEPLOY_STAMP_FILE),
  `${JSON.stringify({ source, settings, point, dryRun } satisfies DeployStamp, null, 2)}\n`,
);

// What the build read against what the Worker will read: they must agree (the Worker refuses to start otherwise).
const built = JSON.parse(readFileSync(join(deployDir, 'server', BUILD_SETTINGS_FILE), 'utf8')) as BuildSettings;
const workerVars =
  (JSON.parse(readFileSync(join(deployDir, 'server', 'wrangler.json'), 'utf8')) as { vars?: Record<string, unknown> })
    .vars ?? {};
const drift = settingsDrift(
  built,
  buildSettingsOf(loadEnv(Object.fromEntries(Object.entries(workerVars).map(([k, v]) => [k, String(v)])))),
);
if (drift.length) {
  fail(`The build and the Worker disagree; nothing was deployed:\n${drift.map((d) => `  - ${d}`).join('\n')}`);
}
console.log(`\nSettings the build and the Worker share agree: ${BUILD_SETTING_NAMES.join(', ')}.`);

// Only the static files count against the limit: the Worker's modules are not assets.
const assetsDir = join(deployDir, 'client');
let files = 0;
for (const entry of readdirSync(assetsDir, { withFileTypes: true, recursive: true })) {
  if (entry.isFile()) files++;
}
console.log(
  `\ndist/client/ holds ${files.toLocaleString('en-US')} files (limit ${fileLimit.toLocaleString('en-US')}; PRERENDER_SERVERS ${tools.PRERENDER_SERVERS.toLocaleString('en-US')}).`,
);
if (files > fileLimit) {
  fail(
    'Too many static files for one deployment. Lower PRERENDER_SERVERS (the other listings are rendered on request), or raise CF_ASSET_FILE_LIMIT on a paid plan (100,000).',
  );
}

// The config the adapter wrote (main: the bundled Worker, assets: ../client), named explicitly
// rather than found through .wrangler/deploy/config.json, which any later build rewrites.
run(dryRun ? 'wrangler deploy --dry-run' : 'wrangler deploy', process.execPath, [
  join(root, 'node_modules/wrangler/bin/wrangler.js'),
  'deploy',
  '--config',
  join(deployDir, 'server', 'wrangler.json'),
  ...(dryRun ? ['--dry-run'] : []),
]);

// Deployed: the published folder becomes the build the next deploy starts from.
if (published) {
  const old = `${outDir}.old`;
  rmSync(old, { recursive: true, force: true });
  renameSync(outDir, old);
  renameSync(next, outDir);
  rmSync(old, { recursive: true, force: true });
}
// Only now are the changes it holds forgotten: a failed step above left them for the next deploy.
if (clearChanges) await clearSiteChangesThrough(db, point);
client.close();
console.log(dryRun ? '\nDry run complete: nothing was uploaded.' : '\nDeployed.');
console.log(
  `${published ? 'Incremental publish' : 'Full build'} in ${((performance.now() - started) / 1000).toFixed(1)} s; ${clearChanges ? 'cleared' : 'kept (dry run)'} the recorded changes up to ${point}.`,
);
