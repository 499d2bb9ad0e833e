import type { Db } from '../../db/client';
import { type SiteServer, startSite } from './fixtures';
import { test as base, closeContextsOf } from './reused-context';

/** How long a spec's own site may take to start: a spec with rows or settings of its own builds it. */
const START_TIMEOUT_MS = 180_000;

/**
 * A `test` whose spec file gets a site of its own (startSite), for a spec that needs its own rows
 * before the build (`prepare`, after the sample servers), its own rate-limit budget (the
 * writes of the other specs count against the shared site's) or its own build variables (`buildEnv`).
 * Without rows, build variables or app settings of its own, the site is a copy of the run's
 * template (tests/e2e/global-setup.ts): its own database and builds, no build of its own.
 *
 * The site lives from the file's first test to its last (hooks of the file), not as a worker
 * fixture: a worker fixture of its own would give every such spec a worker process of its own,
 * and starting one (Node, the app's modules, a browser) costs several seconds of CPU. The specs
 * that use this `test` share their workers instead.
 */
export function testWithOwnSite(
  name: string,
  prepare?: (db: Db) => Promise<void>,
  buildEnv?: Record<string, string>,
  /** The app's own settings on top of startSite's (a function: read when the file's site starts). */
  appEnv?: () => Promise<Record<string, string>>,
) {
  let running: { site: SiteServer; stop: () => Promise<void> } | null = null;
  base.beforeAll(async () => {
    base.setTimeout(START_TIMEOUT_MS);
    running = await startSite(name, prepare, buildEnv, await appEnv?.());
  });
  base.afterAll(async ({ reusedContexts }) => {
    await closeContextsOf(reusedContexts, running?.site.baseURL);
    await running?.stop();
    running = null;
  });
  const current = (): SiteServer => {
    if (!running) throw new Error(`${name}: the spec's own site is not running`);
    return running.site;
  };
  const test = base.extend<{ site: SiteServer }>({
    // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature
    site: async ({}, use) => use(current()),
    // Playwright's context options read `baseURL` in the file's hooks too, before the site runs.
    // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature
    baseURL: async ({}, use) => use(running?.site.baseURL),
  });
  // The file's own hooks (beforeAll of a describe) read the site here: `site` is a test fixture.
  // `ownBaseURL` is undefined until the site runs (what a context made in a hook is given).
  return Object.assign(test, { ownSite: current, ownBaseURL: () => running?.site.baseURL });
}
