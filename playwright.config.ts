import { defineConfig } from '@playwright/test';
import { rawProcessEnv, setProcessEnv } from './functions/_app/env';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/helpers/chromium';

// Each worker starts its own server (own database, own port, own build): see tests/e2e/fixtures.ts.
// Two workers on this 2-core machine: a browser test spends most of its time waiting on the page,
// the server or a build, so a second spec file runs in that time (BENCHMARKS.md, npm test wall time).
// The servers the specs start are the production server as `npm start` runs it: React's production
// build (functions/_app/node.ts sets the same).
setProcessEnv({ NODE_ENV: rawProcessEnv().NODE_ENV ?? 'production' });

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  // One build of the sample servers, copied by every site that has nothing of its own (fixtures.ts).
  globalSetup: './tests/e2e/global-setup.ts',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: '.tmp/playwright.json' }]],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    trace: 'off',
  },
});
