import { defineConfig } from '@playwright/test';
import { rawProcessEnv, setProcessEnv } from './functions/_app/env';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/helpers/chromium';

// Each worker starts its own server (own database, own port, own build): see tests/e2e/fixtures.ts.
// Two workers on this 2-core machine (E2E_WORKERS sets another number, 1 to debug a spec). A third
// was measured in a clean-clone run (2026-11-27 07:36 UTC, idle): every test took about half as long
// again (1,403 s of test time against about 950 s) and the run was longer (9.4 min against 8.4-8.9):
// the e2e run is CPU-bound (docs/testing.md).
// The servers the specs start are the production server as `npm start` runs it: React's production
// build (functions/_app/node.ts sets the same).
setProcessEnv({ NODE_ENV: rawProcessEnv().NODE_ENV ?? 'production' });
const WORKERS = Number(rawProcessEnv().E2E_WORKERS ?? 2);

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  // One build of the sample servers, copied by every site that has nothing of its own (fixtures.ts).
  globalSetup: './tests/e2e/global-setup.ts',
  fullyParallel: false,
  workers: WORKERS,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: '.tmp/playwright.json' }]],
  use: {
    browserName: 'chromium',
    // One renderer process per site while one is open: each reused context keeps a page of its
    // site open (tests/e2e/reused-context.ts), so a test's pages open in that process instead of
    // starting one each.
    launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, '--renderer-process-limit=1'] },
    trace: 'off',
    // The site's service worker (public/sw.js) installs in every new context: it fetches the
    // offline page and then stores every page the test opens, in the browser's time. It has its
    // own tests (seo.spec.ts, which allows it); the other specs test the pages without it.
    serviceWorkers: 'block',
  },
});
