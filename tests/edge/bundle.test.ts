import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createClient } from '@libsql/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomSecret } from '../../functions/_app/env';
import { type LibsqlHttpServer, startLibsqlHttpServer } from '../fixtures/libsql-http-server';
import { runScript } from '../helpers/run-script';

const root = resolve(import.meta.dirname, '../..');
let scratch: string;
let libsql: LibsqlHttpServer;
let token: string;
let server: string;
let deployed: { code: number | null; out: string };
let drifted: { code: number | null; out: string };
let admin: { code: number | null; out: string };

/** Every file under `dir` (relative paths). */
const filesUnder = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));

beforeAll(async () => {
  mkdirSync(join(root, '.tmp'), { recursive: true });
  // Inside the repository: Astro stages an outDir outside it in the shared ./.astro/.
  scratch = mkdtempSync(join(root, '.tmp', 'bundle-'));
  token = randomSecret();
  // A brand-new database, as `turso db create` gives.
  libsql = await startLibsqlHttpServer({ file: join(scratch, 'turso.db'), authToken: token });
  const database = { DATABASE_URL: libsql.url, DATABASE_AUTH_TOKEN: token };
  // A setting the build reads, set in the shell to something else than wrangler.toml [vars].
  drifted = await runScript('scripts/deploy.ts', ['--dry-run', '--out-dir', join(scratch, 'drift')], {
    ...database,
    SITE_URL: 'https://elsewhere.example',
  });
  deployed = await runScript('scripts/deploy.ts', ['--dry-run', '--out-dir', join(scratch, 'dist')], {
    ...database,
    ASTRO_CACHE_DIR: join(scratch, 'cache'),
  });
  if (deployed.code !== 0) throw new Error(`npm run deploy -- --dry-run failed:\n${deployed.out}`);
  server = join(scratch, 'dist', 'server');
  admin = await runScript(
    'scripts/admin-create.ts',
    ['--email', 'first@example.com', '--password', 'a long first password'],
    database,
  );
}, 600_000);

afterAll(async () => {
  await libsql?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('npm run deploy -- --dry-run from an empty database (docs/deploy.md)', () => {
  it('migrates and seeds the database, builds, agrees on the shared settings and completes wrangler’s dry run', async () => {
    expect(deployed.out).toContain('Seeded the sample servers');
    expect(deployed.out).toContain('Settings the build and the Worker share agree');
    expect(deployed.out).toContain('Dry run complete: nothing was uploaded.');
    const db = createClient({ url: libsql.url, authToken: token });
    try {
      const { rows } = await db.execute('SELECT count(*) AS n FROM discord_servers');
      expect(Number(rows[0]?.n)).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });

  it('refuses a setting the build reads when the shell’s value differs from wrangler.toml [vars], before touching anything', () => {
    expect(drifted.code).toBe(1);
    expect(drifted.out).toMatch(/SITE_URL: this shell has "https:\/\/elsewhere\.example", wrangler\.toml \[vars\] has/);
    expect(drifted.out).not.toContain('== migrate');
  });

  it('creates the first operator in the remote database with npm run admin:create', () => {
    expect(admin.code, admin.out).toBe(0);
    expect(admin.out).toContain('Created admin first@example.com');
  });
});

describe('the deployed Worker bundle', () => {
  /** The source files the bundle was made from, from its source maps. */
  const sources = () =>
    filesUnder(server)
      .filter((f) => f.endsWith('.map'))
      .flatMap((f) => (JSON.parse(readFileSync(f, 'utf8')) as { sources: string[] }).sources);

  it('contains the app, the on-demand pages and the web libSQL client', () => {
    const all = sources();
    expect(all.some((s) => s.endsWith('functions/_app/app.ts'))).toBe(true);
    expect(all.some((s) => s.endsWith('functions/site-worker.ts'))).toBe(true);
    expect(all.some((s) => /@libsql\/client\/lib-esm\/web\.js$/.test(s))).toBe(true);
  });

  it('contains no Node-only module of ours or of the libSQL native driver', () => {
    const forbidden = sources().filter((s) =>
      /functions\/_app\/(node|static|site-builder|on-demand)\.ts$|db\/(client|migrate|seed|fake)\.ts$|@libsql\/client\/lib-esm\/(node|sqlite3)\.js$|node_modules\/libsql\/|@libsql\/linux-|@hono\/node-server/.test(
        s,
      ),
    );
    expect(forbidden).toEqual([]);
  });

  it('imports no node: builtin', () => {
    const found: string[] = [];
    for (const file of filesUnder(server).filter((f) => f.endsWith('.mjs'))) {
      const code = readFileSync(file, 'utf8');
      for (const m of code.matchAll(/(?:from|import|require\()\s*["'](node:[\w/]+|fs|path|child_process|os)["']/g)) {
        found.push(`${file.slice(server.length)}: ${m[1]}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('stays under the Workers free-plan size limit (3 MB compressed)', () => {
    const modules = filesUnder(server).filter((f) => f.endsWith('.mjs'));
    const gzipped = modules.reduce((sum, f) => sum + gzipSync(readFileSync(f)).length, 0);
    expect(gzipped).toBeLessThan(3 * 1024 * 1024);
  });

  it('ships browser scripts without the adapter’s process shim', () => {
    const assets = join(scratch, 'dist', 'client', '_astro');
    const scripts = readdirSync(assets).filter((f) => f.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(10);
    expect(scripts.filter((f) => readFileSync(join(assets, f), 'utf8').includes('globalThis.process'))).toEqual([]);
  });
});
