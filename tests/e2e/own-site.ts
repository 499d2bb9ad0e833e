import { test as base } from '@playwright/test';
import type { Db } from '../../db/client';
import { type SiteServer, startSite } from './fixtures';

/**
 * A `test` whose worker gets a site of its own (startSite), for a spec that needs its own rows
 * before the build (`prepare`, after the sample servers), its own rate-limit budget (the
 * writes of the other specs count against the shared site's) or its own build variables (`buildEnv`).
 * Without rows, build variables or app settings of its own, the site is a copy of the run's
 * template (tests/e2e/global-setup.ts): its own database and builds, no build of its own.
 */
export function testWithOwnSite(
  name: string,
  prepare?: (db: Db) => Promise<void>,
  buildEnv?: Record<string, string>,
  /** The app's own settings on top of startSite's (a function: read when the worker's site starts). */
  appEnv?: () => Promise<Record<string, string>>,
) {
  return base.extend<{ site: SiteServer }, { ownSite: SiteServer }>({
    ownSite: [
      // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature
      async ({}, use) => {
        const { site, stop } = await startSite(name, prepare, buildEnv, await appEnv?.());
        await use(site);
        await stop();
      },
      { scope: 'worker', timeout: 180_000 },
    ],
    site: async ({ ownSite }, use) => use(ownSite),
    baseURL: async ({ ownSite }, use) => use(ownSite.baseURL),
  });
}
