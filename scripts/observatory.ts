// `npm run observatory`: the MDN HTTP Observatory's own tests and grader run against the site as
// `npm start` serves it (a fresh seeded database, built, on a free local port), for the home page
// and a server page. The two tests that need HTTPS on port 443 (redirection to HTTPS and HSTS
// preload) are left out; every other test scores as on observatory.mozilla.org. Exits 1 below
// the target (120). The scanner is installed on first use into .tmp/observatory with install
// scripts off (one of its dependencies downloads a CA list at install time, which fails offline
// and which a local scan does not need).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadEnv } from '../functions/_app/env';
import { startNodeServer } from '../functions/_app/node';

const VERSION = '1.4.8';
const TARGET = 120;
const PAGES = ['/', '/server/apex-legends-hub'];
const HTTPS_ONLY = new Set(['redirectionTest', 'strictTransportSecurityTest']);

const root = resolve('.');
const dir = join(root, '.tmp', 'observatory');
const pkg = join(dir, 'node_modules', '@mdn', 'mdn-http-observatory');
if (!existsSync(join(pkg, 'package.json'))) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{"private":true}\n');
  console.log(`Installing @mdn/mdn-http-observatory@${VERSION} into .tmp/observatory…`);
  const npm = spawnSync(
    'npm',
    ['install', `@mdn/mdn-http-observatory@${VERSION}`, '--ignore-scripts', '--no-audit', '--no-fund'],
    { cwd: dir, stdio: 'inherit' },
  );
  if (npm.status !== 0) process.exit(npm.status ?? 1);
}
const load = (path: string) => import(pathToFileURL(join(pkg, 'src', path)).href);
const { retrieve } = await load('retriever/retriever.js');
const { ALL_TESTS } = await load('constants.js');
const { getScoreModifier } = await load('grader/grader.js');
const { MINIMUM_SCORE_FOR_EXTRA_CREDIT } = await load('grader/charts.js');

type Test = ((r: unknown) => { result: string }) & { name: string };

const tmp = mkdtempSync(join(tmpdir(), 'guildrank-observatory-'));
const env = loadEnv({
  DATABASE_URL: `file:${join(tmp, 'site.db')}`,
  PORT: '0',
  HOST: '127.0.0.1',
  REFRESH_ENABLED: 'false',
});
console.log('Building and starting the site…');
const server = await startNodeServer({ env, root, buildsDir: join(root, '.tmp', 'observatory-builds'), log: () => {} });
let worst = Number.POSITIVE_INFINITY;
try {
  for (const path of PAGES) {
    // httpsPort 1: nothing listens there, so the scanner grades the plain-HTTP answer.
    const r = await retrieve('127.0.0.1', { httpPort: String(server.port), httpsPort: '1', path });
    let withExtra = 100;
    let uncurved = 100;
    console.log(`\n${path}`);
    for (const test of ALL_TESTS as Test[]) {
      if (HTTPS_ONLY.has(test.name)) continue;
      const { result } = test(r);
      const modifier = getScoreModifier(result) as number;
      withExtra += modifier;
      if (modifier < 0) uncurved += modifier;
      console.log(`  ${test.name.padEnd(32)} ${result} (${modifier >= 0 ? '+' : ''}${modifier})`);
    }
    const score = uncurved >= MINIMUM_SCORE_FOR_EXTRA_CREDIT ? withExtra : uncurved;
    worst = Math.min(worst, score);
    console.log(`  score ${score}`);
  }
} finally {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
  rmSync(join(root, '.tmp', 'observatory-builds'), { recursive: true, force: true });
}
console.log(`\nMDN Observatory (HTTPS-only tests left out): lowest score ${worst}, target ${TARGET}`);
process.exit(worst >= TARGET ? 0 : 1);
