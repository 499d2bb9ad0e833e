// Guards the edge bundle: wrangler bundles functions/worker.ts exactly as `wrangler deploy`
// would, and no Node-only module may be in it (no nodejs_compat is enabled).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
let dir: string;
let inputs: string[];
let bundle: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'guildrank-bundle-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets', 'index.html'), '<!doctype html><title>x</title>');
  // The repository's own wrangler.toml, with only the asset folder pointed at a scratch one.
  const config = readFileSync(join(root, 'wrangler.toml'), 'utf8')
    .replace(/^main = .*$/m, `main = ${JSON.stringify(join(root, 'functions/worker.ts'))}`)
    .replace(/^directory = .*$/m, `directory = ${JSON.stringify(join(dir, 'assets'))}`);
  writeFileSync(join(dir, 'wrangler.toml'), config);
  const run = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules/wrangler/bin/wrangler.js'),
      'deploy',
      '--dry-run',
      '--config',
      join(dir, 'wrangler.toml'),
      '--outdir',
      join(dir, 'out'),
      '--metafile',
      join(dir, 'meta.json'),
    ],
    {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1', XDG_CONFIG_HOME: join(dir, 'config') },
      timeout: 180_000,
    },
  );
  if (run.status !== 0) throw new Error(`wrangler deploy --dry-run failed:\n${run.stdout}\n${run.stderr}`);
  const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as { inputs: Record<string, unknown> };
  inputs = Object.keys(meta.inputs);
  bundle = readFileSync(join(dir, 'out', 'worker.js'), 'utf8');
}, 200_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the edge bundle', () => {
  it('contains the app and the web libSQL client', () => {
    expect(inputs.some((i) => i.endsWith('functions/_app/app.ts'))).toBe(true);
    expect(inputs.some((i) => /@libsql\/client\/lib-esm\/web\.js$/.test(i))).toBe(true);
  });

  it('contains no Node-only module of ours or of the libSQL native driver', () => {
    const forbidden = inputs.filter((i) =>
      /functions\/_app\/(node|static|site-builder)\.ts$|db\/(client|migrate|seed|fake)\.ts$|@libsql\/client\/lib-esm\/(node|sqlite3)\.js$|node_modules\/libsql\/|@libsql\/linux-|@hono\/node-server/.test(
        i,
      ),
    );
    expect(forbidden).toEqual([]);
  });

  it('imports no node: builtin', () => {
    const builtins = [
      ...bundle.matchAll(/(?:from|import|require\()\s*["'](node:[\w/]+|fs|path|child_process|os)["']/g),
    ];
    expect(builtins.map((m) => m[1])).toEqual([]);
  });

  it('stays under the Workers free-plan size limit (3 MB compressed; checked raw here)', () => {
    expect(statSync(join(dir, 'out', 'worker.js')).size).toBeLessThan(3 * 1024 * 1024);
  });
});
