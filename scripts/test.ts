// `npm test`: every check, then one closing line `N passed, N failed` with the real totals.
// Type check, lint, HTML validation and the link check count one each; vitest and Playwright count per test.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { rawProcessEnv, setProcessEnv } from '../functions/_app/env';

setProcessEnv({ ASTRO_TELEMETRY_DISABLED: '1', WRANGLER_SEND_METRICS: 'false' });
mkdirSync('.tmp', { recursive: true });

const startedAt = Date.now();
let passed = 0;
let failed = 0;
/** Tests a runner skipped (`.skip`, `.todo`, a skip at run time), shown beside the closing line. */
const skipped = { vitest: 0, playwright: 0 };
const failures: string[] = [];

/** Runs a command with inherited output; returns true on exit 0. */
function run(cmd: string, args: string[], env: Record<string, string> = {}): boolean {
  const result = spawnSync(cmd, args, { stdio: 'inherit', env: rawProcessEnv(env) });
  return result.status === 0;
}

/**
 * Runs a command with inherited output without blocking this process's event loop, so the runs in
 * the background (below) are timed when they end, not when the foreground run does.
 */
function runAsync(cmd: string, args: string[], env: Record<string, string> = {}): Promise<boolean> {
  const child = spawn(cmd, args, { stdio: 'inherit', env: rawProcessEnv(env) });
  return new Promise((resolve) => {
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
}

/** A check that counts as one test. */
function step(name: string, cmd: string, args: string[], env?: Record<string, string>): boolean {
  console.log(`\n▶ ${name}`);
  const ok = run(cmd, args, env);
  if (ok) passed++;
  else {
    failed++;
    failures.push(name);
  }
  return ok;
}

/** Debian's Chromium and its headless shell (tests/helpers/chromium.ts), installed with apt-get when missing. */
function ensureChromium(): boolean {
  const missing = [
    ['chromium', '/usr/bin/chromium'],
    ['chromium-headless-shell', '/usr/lib/chromium/chromium-headless-shell'],
  ]
    .filter(([, path]) => !existsSync(path!))
    .map(([pkg]) => pkg!);
  if (missing.length === 0) return true;
  if (process.getuid?.() !== 0) {
    // The full browser alone serves the e2e run (slower); without it nothing does.
    if (!missing.includes('chromium')) return true;
    console.error(`Chromium is missing: install Debian's packages (apt-get install -y ${missing.join(' ')}).`);
    return false;
  }
  console.log(`Installing ${missing.join(' and ')} (apt-get)…`);
  const installed =
    run('apt-get', ['update', '-qq']) &&
    run('apt-get', ['install', '-y', '-qq', ...missing], { DEBIAN_FRONTEND: 'noninteractive' });
  return installed || existsSync('/usr/bin/chromium');
}

/**
 * Starts a command in the background, its output kept in a file until `settle`: the type check,
 * the HTML check's build and the e2e template build each keep one core busy for a minute or less,
 * while vitest spends much of its time waiting on servers, timers and stand-ins.
 * `settle` waits for it, prints its output under its name with how long it ran and, for a check,
 * counts it as one test.
 */
function background(name: string, cmd: string, args: string[], counts = true) {
  const log = `.tmp/${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.log`;
  const out = openSync(log, 'w');
  const started = Date.now();
  let took = 0;
  const child = spawn(cmd, args, { env: rawProcessEnv(), stdio: ['ignore', out, out] });
  closeSync(out);
  const done = new Promise<boolean>((resolve) => {
    child.on('error', () => resolve(false));
    child.on('close', (code) => {
      took = Math.round((Date.now() - started) / 1000);
      resolve(code === 0);
    });
  });
  return {
    async settle(): Promise<boolean> {
      const ok = await done;
      console.log(`\n▶ ${name} (${took} s)`);
      process.stdout.write(readFileSync(log, 'utf8'));
      if (!counts) return ok;
      if (ok) passed++;
      else {
        failed++;
        failures.push(name);
      }
      return ok;
    },
  };
}

// The content types first (a build rewrites the same files later), then the check without its own sync.
run('astro', ['sync']);
const typeCheck = background('type check (astro check)', 'astro', ['check', '--noSync']);
// The HTML check (its own build of the samples and 120 fake servers) and the e2e run's template site
// build beside vitest; Playwright starts from the template (tests/e2e/global-setup.ts).
const htmlCheck = existsSync('scripts/check-html.ts')
  ? background('HTML validation and internal links', 'tsx', ['scripts/check-html.ts'])
  : null;
const templateDir = mkdtempSync(join(process.cwd(), '.tmp', 'e2e-template-'));
const template = background('e2e template site (build)', 'tsx', ['tests/e2e/build-template.ts', templateDir], false);
step('lint and format (biome ci)', 'biome', ['ci', '.']);

// Unit and integration tests (real libSQL files in temp dirs).
console.log('\n▶ vitest');
rmSync('.tmp/vitest.json', { force: true });
await runAsync('vitest', ['run', '--reporter=default', '--reporter=json', '--outputFile=.tmp/vitest.json']);
if (existsSync('.tmp/vitest.json')) {
  const report = JSON.parse(readFileSync('.tmp/vitest.json', 'utf8'));
  passed += report.numPassedTests;
  skipped.vitest = report.numPendingTests + report.numTodoTests;
  failed +=
    report.numFailedTests +
    (report.numTotalTestSuites > 0 && report.success === false && report.numFailedTests === 0 ? 1 : 0);
  if (!report.success) failures.push('vitest');
} else {
  failed++;
  failures.push('vitest (no report)');
}

// Browser tests and HTML checks against the production build.
if (ensureChromium()) {
  // Without the template (its build failed), the global setup builds it again and says why.
  const templateEnv: Record<string, string> = (await template.settle()) ? { GUILDRANK_E2E_TEMPLATE: templateDir } : {};
  console.log('\n▶ playwright');
  rmSync('.tmp/playwright.json', { force: true });
  await runAsync('playwright', ['test'], templateEnv);
  rmSync(templateDir, { recursive: true, force: true });
  if (existsSync('.tmp/playwright.json')) {
    const { stats, errors = [] } = JSON.parse(readFileSync('.tmp/playwright.json', 'utf8'));
    passed += stats.expected;
    skipped.playwright = stats.skipped;
    // An error outside any test (a fixture's teardown, the global setup) fails the run as one more.
    failed += stats.unexpected + stats.flaky + errors.length;
    if (stats.unexpected + stats.flaky + errors.length > 0) failures.push('playwright');
  } else {
    failed++;
    failures.push('playwright (no report)');
  }
} else {
  failed++;
  failures.push('chromium install');
}

await typeCheck.settle();
await htmlCheck?.settle();

if (failures.length) console.log(`\nFailed: ${failures.join(', ')}`);
console.log(
  `${skipped.vitest + skipped.playwright} skipped (vitest ${skipped.vitest}, playwright ${skipped.playwright})`,
);
console.log(`npm test took ${Math.round((Date.now() - startedAt) / 1000)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
