// `npm run deploy [-- --dry-run]`: production on Cloudflare + Turso (docs/deploy.md).
//   1. check the settings: wrangler.toml `[vars]` is the one source of those the build reads too
//      (SITE_URL, SUPPORT_EMAIL, TURNSTILE_SITE_KEY: functions/_app/build-settings.ts); one set
//      differently in this shell stops the deploy before anything happens
//   2. migrate the Turso database (DATABASE_URL libsql://…, DATABASE_AUTH_TOKEN)
//   3. astro build from it with ASTRO_ADAPTER=cloudflare and those [vars] into dist/: the static
//      files in dist/client/ (the top PRERENDER_SERVERS listings and every other page, _headers
//      with the CSP hashes), the Worker in dist/server/ (functions/site-worker.ts bundled with the
//      pages rendered on request, and the wrangler.json @astrojs/cloudflare writes from wrangler.toml)
//   4. check dist/client/ against the static-asset file limit of the plan, and the settings the
//      build recorded (dist/server/build-settings.json) against the Worker's (dist/server/wrangler.json)
//   5. wrangler deploy --config dist/server/wrangler.json (Worker + assets)
// Needs CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID for wrangler (no interactive login).
// WRANGLER_CONFIG names another wrangler config (default wrangler.toml); --out-dir another output folder.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parse as parseToml } from 'smol-toml';
import { openDb } from '../db/client';
import { migrateDb } from '../db/migrate';
import { seedIfEmpty } from '../db/seed';
import {
  BUILD_SETTING_NAMES,
  BUILD_SETTINGS_FILE,
  type BuildSettings,
  buildSettingsOf,
  settingsDrift,
} from '../functions/_app/build-settings';
import { loadEnv, rawProcessEnv, toolEnv } from '../functions/_app/env';

const { values } = parseArgs({
  options: { 'dry-run': { type: 'boolean', default: false }, 'out-dir': { type: 'string', default: 'dist' } },
});
const dryRun = values['dry-run'];
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
if (!vars.SITE_URL) missing.push(`SITE_URL: the public origin, in ${tools.WRANGLER_CONFIG} [vars]`);
else if (!dryRun && new URL(vars.SITE_URL).hostname.endsWith('.example')) {
  missing.push(`SITE_URL: ${tools.WRANGLER_CONFIG} [vars] still has the example origin; set your site's own`);
}
if (!dryRun) {
  if (!tools.CLOUDFLARE_API_TOKEN) missing.push('CLOUDFLARE_API_TOKEN: a token with "Workers Scripts: Edit"');
  if (!tools.CLOUDFLARE_ACCOUNT_ID) missing.push('CLOUDFLARE_ACCOUNT_ID: from the Cloudflare dashboard');
}
if (missing.length) {
  console.error(
    `Cannot deploy: missing or invalid settings:\n${missing.map((m) => `  - ${m}`).join('\n')}\nSee docs/deploy.md.`,
  );
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
    console.error(`${label} failed (exit ${result.status ?? result.signal}); nothing was deployed after this step.`);
    process.exit(1);
  }
};

console.log('== migrate the Turso database ==');
const { db, client } = await openDb({ url: env.DATABASE_URL as string, authToken: env.DATABASE_AUTH_TOKEN });
try {
  await migrateDb(db);
  // Same as `npm start`: a brand-new database gets the sample servers, an existing one is left alone.
  if (await seedIfEmpty(db)) console.log('Seeded the sample servers into the empty database.');
} catch (err) {
  console.error(`Migration or seeding failed: ${(err as Error).message}`);
  process.exit(1);
} finally {
  client.close();
}

// A fresh output: files of an earlier build would be uploaded (and counted) with this one.
rmSync(outDir, { recursive: true, force: true });
run(
  'build the site from the database',
  process.execPath,
  [join(root, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', outDir],
  { ASTRO_ADAPTER: 'cloudflare', WRANGLER_CONFIG: configFile, ...buildVars },
);

// What the build read against what the Worker will read: they must agree (the Worker refuses to start otherwise).
const built = JSON.parse(readFileSync(join(outDir, 'server', BUILD_SETTINGS_FILE), 'utf8')) as BuildSettings;
const workerVars =
  (JSON.parse(readFileSync(join(outDir, 'server', 'wrangler.json'), 'utf8')) as { vars?: Record<string, unknown> })
    .vars ?? {};
const drift = settingsDrift(
  built,
  buildSettingsOf(loadEnv(Object.fromEntries(Object.entries(workerVars).map(([k, v]) => [k, String(v)])))),
);
if (drift.length) {
  console.error(`The build and the Worker disagree; nothing was deployed:\n${drift.map((d) => `  - ${d}`).join('\n')}`);
  process.exit(1);
}
console.log(`\nSettings the build and the Worker share agree: ${BUILD_SETTING_NAMES.join(', ')}.`);

// Only the static files count against the limit: the Worker's modules are not assets.
const assetsDir = join(outDir, 'client');
let files = 0;
for (const entry of readdirSync(assetsDir, { withFileTypes: true, recursive: true })) {
  if (entry.isFile()) files++;
}
console.log(
  `\ndist/client/ holds ${files.toLocaleString('en-US')} files (limit ${fileLimit.toLocaleString('en-US')}; PRERENDER_SERVERS ${tools.PRERENDER_SERVERS.toLocaleString('en-US')}).`,
);
if (files > fileLimit) {
  console.error(
    'Too many static files for one deployment. Lower PRERENDER_SERVERS (the other listings are rendered on request), or raise CF_ASSET_FILE_LIMIT on a paid plan (100,000).',
  );
  process.exit(1);
}

// The config the adapter wrote (main: the bundled Worker, assets: ../client), named explicitly
// rather than found through .wrangler/deploy/config.json, which any later build rewrites.
run(dryRun ? 'wrangler deploy --dry-run' : 'wrangler deploy', process.execPath, [
  join(root, 'node_modules/wrangler/bin/wrangler.js'),
  'deploy',
  '--config',
  join(outDir, 'server', 'wrangler.json'),
  ...(dryRun ? ['--dry-run'] : []),
]);
console.log(dryRun ? '\nDry run complete: nothing was uploaded.' : '\nDeployed.');
