import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertFakeServers } from '../../db/fake';
import { listServersWithPages, type Server, updateServer } from '../../db/queries/servers';
import { listSiteChanges } from '../../db/queries/site-changes';
import { seedIfEmpty } from '../../db/seed';
import { BUILD_SETTING_NAMES } from '../../functions/_app/build-settings';
import { randomSecret, rawProcessEnv } from '../../functions/_app/env';
import { HookRebuildTrigger } from '../../functions/_app/lib/rebuild-hook';
import { runAstroBuild } from '../../functions/_app/site-builder';
import { type LibsqlHttpServer, startLibsqlHttpServer } from '../fixtures/libsql-http-server';
import { createTestDb, type TestDb } from '../helpers/db';
import { runScript } from '../helpers/run-script';
import { readWranglerConfig } from '../helpers/wrangler-config';

const root = resolve(import.meta.dirname, '../..');

/** The shared build settings wrangler.toml's [vars] give `npm run deploy`'s build. */
async function deployedBuildSettings(): Promise<Record<string, string>> {
  const rawConfig = await readWranglerConfig(join(root, 'wrangler.toml'));
  const vars = (rawConfig as { vars?: Record<string, unknown> }).vars ?? {};
  return Object.fromEntries(
    BUILD_SETTING_NAMES.filter((name) => typeof vars[name] === 'string').map((name) => [name, vars[name] as string]),
  );
}
const SITE_URL = 'https://guildrank.example';

let tdb: TestDb;
let libsql: LibsqlHttpServer;
let token: string;
let scratch: string;
let outDir: string;
let edited: Server;
/** What each deploy printed and its exit code. */
let full: { code: number | null; out: string };
let failed: { code: number | null; out: string };
let incremental: { code: number | null; out: string };
/** The deployed dist/client after the full deploy: each file's inode and bytes' digest. */
let before: Map<string, { ino: number; digest: string }>;
/** The full deploy's stamp, read before the next deploy. */
let fullStamp: { dryRun: boolean; point: number; source: string };
/** Rows of site_changes after the failed deploy. */
let keptAfterFailure: number;
/** A full Node build of the database after the edit (the truth the publish must match). */
let nodeFull: string;

/** Runs `npm run deploy -- --dry-run --clear-changes --incremental` in a child process (the database fixture answers from this one). */
function deploy(env: Record<string, string> = {}) {
  return runScript('scripts/deploy.ts', ['--dry-run', '--clear-changes', '--incremental', '--out-dir', outDir], {
    DATABASE_URL: libsql.url,
    DATABASE_AUTH_TOKEN: token,
    ASTRO_CACHE_DIR: join(scratch, 'cache'),
    ...env,
  });
}

/** Every file of a folder, relative to it. */
function filesOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** The public path of a page file of `client/` (index.html is `/`). */
const pathOf = (file: string) => (file === 'index.html' ? '/' : `/${file.slice(0, -'.html'.length)}`);

/** A page with its render-time clock ("checked 7 minutes ago") taken out: builds minutes apart differ there only. */
const timeless = (html: string) => html.replace(/(<time\b[^>]*>)[^<]*(<\/time>)/g, '$1$2');

beforeAll(async () => {
  token = randomSecret();
  tdb = await createTestDb();
  await seedIfEmpty(tdb.db);
  // Enough listings for a second page of the full list (24 a page).
  await insertFakeServers(tdb.client, 40);
  libsql = await startLibsqlHttpServer({ file: tdb.url.replace(/^file:/, ''), authToken: token });
  mkdirSync(join(root, '.tmp'), { recursive: true });
  // Inside the repository: Astro stages an outDir outside it in the shared ./.astro/.
  scratch = mkdtempSync(join(root, '.tmp', 'deploy-publish-'));
  outDir = join(scratch, 'dist');
  // A sample-like listing (no invite check) listed long ago: its page says "Listed 2 years ago",
  // whenever the build and the publish render it.
  const [target] = (await listServersWithPages(tdb.db)).filter((s) => s.category === 'Crypto' && !s.guild_id);
  await tdb.client.execute({
    sql: "UPDATE discord_servers SET created_at = '2024-01-01T00:00:00.000Z' WHERE id = ?",
    args: [target!.id],
  });

  full = await deploy();
  if (full.code !== 0) throw new Error(`the full dry-run deploy failed:\n${full.out}`);
  fullStamp = JSON.parse(readFileSync(join(outDir, 'deploy-stamp.json'), 'utf8'));
  const client = join(outDir, 'client');
  before = new Map(
    filesOf(client).map((f) => [f, { ino: statSync(join(client, f)).ino, digest: digest(join(client, f)) }]),
  );

  // The listing edited as the console edits it: the row changed, then the change recorded with
  // its page and scope 'listings' (requestRebuild), through the Worker's hook trigger.
  edited = (await updateServer(tdb.db, target!.id, {
    description: 'Edited after the deploy: this card and page must change, nothing else.',
  }))!;
  const hook = new HookRebuildTrigger({
    url: 'http://127.0.0.1:9/unused',
    db: tdb.db,
    debounceMs: 3_600_000,
  });
  await hook.request(`edited ${edited.slug}`, [`/server/${edited.slug}`], 'listings');

  // The deploy's last check fails (the static-file limit): nothing is deployed, the change stays.
  failed = await deploy({ CF_ASSET_FILE_LIMIT: '1' });
  keptAfterFailure = (await listSiteChanges(tdb.db)).length;

  incremental = await deploy();
  if (incremental.code !== 0) throw new Error(`the incremental dry-run deploy failed:\n${incremental.out}`);
  // The figures docs/SCALING.md section 5 quotes: what each deploy did and how long it took.
  for (const line of [...full.out.split('\n'), ...incremental.out.split('\n')]) {
    if (/^(Rendered \d+ page| {2}wrote |Full build in|Incremental publish in)/.test(line)) console.log(line);
  }

  // The truth: a full Node build of the same database now.
  nodeFull = join(scratch, 'node-full');
  await runAstroBuild(
    root,
    nodeFull,
    rawProcessEnv({
      ASTRO_TELEMETRY_DISABLED: '1',
      ASTRO_ADAPTER: 'node',
      DATABASE_URL: libsql.url,
      DATABASE_AUTH_TOKEN: token,
      // The settings the deploy's build takes from wrangler.toml [vars] (SITE_URL, the refresh's pace...).
      ...(await deployedBuildSettings()),
      SITE_URL,
      ASTRO_CACHE_DIR: join(scratch, 'cache-node'),
    }),
  );
}, 900_000);

afterAll(async () => {
  await libsql?.stop();
  tdb?.cleanup();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** The pages the incremental deploy printed as written. */
const writtenPaths = () => [...incremental.out.matchAll(/^ {2}wrote (\S+)$/gm)].map((m) => m[1]!);

describe('npm run deploy publishes a change that names its listings into the deployed build', () => {
  it('the full deploy stamps its build with the source, the settings and the changes it holds, beside the Node page code', () => {
    expect(full.out).toMatch(/^Full build in [\d.]+ s; cleared the recorded changes up to 0\.$/m);
    expect(existsSync(join(outDir, 'publish', 'entry.mjs'))).toBe(true);
    expect(fullStamp).toMatchObject({ dryRun: true, point: 0 });
    expect(fullStamp.source).toMatch(/^[0-9a-f]{40}\+/);
  });

  it('a failing deploy step keeps the recorded change and the deployed build as they were', () => {
    expect(failed.code).toBe(1);
    expect(failed.out).toMatch(/Too many static files/);
    expect(keptAfterFailure).toBe(1);
    expect(existsSync(`${outDir}.next`)).toBe(false);
  });

  it('publishes instead of building: only the touched pages are written, and it says which', () => {
    expect(incremental.out).toMatch(/== publish 1 recorded change\(s\) into the deployed build/);
    expect(incremental.out).toMatch(/^Incremental publish in [\d.]+ s;/m);
    expect(incremental.out).not.toMatch(/build the site from the database/);
    const written = writtenPaths();
    // The listing's own page and the listing pages its card is on (its category, the full list, the home's list if there).
    expect(written).toContain(`/server/${edited.slug}`);
    expect(written).toContain('/best-crypto-discord');
    const client = join(outDir, 'client');
    const changed = filesOf(client).filter((f) => before.get(f)?.digest !== digest(join(client, f)));
    // Files written are exactly the files whose bytes changed (the stamp is not under client/).
    expect(changed.map(pathOf).sort()).toEqual([...written].sort());
    for (const path of written) {
      const html = readFileSync(join(client, path === '/' ? 'index.html' : `${path.slice(1)}.html`), 'utf8');
      expect(html, path).toContain('Edited after the deploy');
    }
  });

  it('every other file is the previous deploy’s own file (same inode), and none is missing or new', () => {
    const client = join(outDir, 'client');
    const written = new Set(writtenPaths());
    expect(filesOf(client)).toEqual([...before.keys()]);
    for (const file of filesOf(client)) {
      if (written.has(pathOf(file))) continue;
      expect(statSync(join(client, file)).ino, file).toBe(before.get(file)!.ino);
    }
  });

  it('every page of the published build is what a full build of the same database writes', () => {
    const client = join(outDir, 'client');
    const pages = filesOf(client).filter((f) => f.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(80);
    for (const file of pages) {
      const published = readFileSync(join(client, file), 'utf8');
      const built = readFileSync(join(nodeFull, 'client', file), 'utf8');
      expect(timeless(published), file).toBe(timeless(built));
    }
    // The edited listing's page and its category page have no clock: byte for byte.
    for (const file of [`server/${edited.slug}.html`, 'best-crypto-discord.html']) {
      expect(readFileSync(join(client, file), 'utf8'), file).toBe(readFileSync(join(nodeFull, 'client', file), 'utf8'));
    }
  });

  it('the deployed policy holds every inline script of the written pages', () => {
    const client = join(outDir, 'client');
    const headers = readFileSync(join(client, '_headers'), 'utf8');
    for (const path of writtenPaths()) {
      const html = readFileSync(join(client, path === '/' ? 'index.html' : `${path.slice(1)}.html`), 'utf8');
      for (const [, body] of html.matchAll(
        /<script(?![^>]*\b(?:src=|type="application\/ld\+json"))[^>]*>([\s\S]*?)<\/script>/g,
      )) {
        const hash = createHash('sha256').update(body!).digest('base64');
        expect(headers, `${path}: sha256-${hash}`).toContain(`'sha256-${hash}'`);
      }
    }
  });

  it('the change is cleared once the deploy succeeded, and the stamp covers it', async () => {
    expect(await listSiteChanges(tdb.db)).toEqual([]);
    const stamp = JSON.parse(readFileSync(join(outDir, 'deploy-stamp.json'), 'utf8'));
    expect(stamp.point).toBeGreaterThan(fullStamp.point);
    expect(stamp.source).toBe(fullStamp.source);
    expect(incremental.out).toMatch(/cleared the recorded changes up to \d+/);
  });
});
