import { type BrowserContext, type BrowserContextOptions, test as base, type Page } from '@playwright/test';

/**
 * Playwright's `test` with one browser context per worker and set of context options, emptied
 * after every test, and a page of the site kept open in it, instead of a new context for each test.
 *
 * A new context costs Chromium a renderer process, and a process's first page pays for the
 * process's start and parses and compiles the site's scripts with nothing warm. The page kept open
 * (the site's robots.txt: a document of the site's origin that runs no script) keeps one renderer
 * process of the site alive, and with `--renderer-process-limit=1` (playwright.config.ts) the
 * test's pages open in it. Measured on this 2-core machine (2026-11-27, the template site, 20 page
 * loads, Chromium's CPU across all its processes, idle): a context per load 17.6-17.8 s, one
 * context and a new page per load 18.5 s, the same with a page kept open and the limit 11.1 s.
 *
 * What a test leaves in the context goes before the next one starts: its pages are closed, and its
 * cookies, storage (local, session, IndexedDB, Cache API, service workers) of the site's origin,
 * routes, permissions and offline mode are cleared. What stays is the HTTP cache (a returning
 * visitor's). A test that wants its own context makes one (`browser.newContext()`), as before.
 */
export const test = base.extend<object, { reusedContexts: Map<string, BrowserContext> }>({
  reusedContexts: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature
    async ({}, use) => {
      const contexts = new Map<string, BrowserContext>();
      await use(contexts);
      await Promise.all([...contexts.values()].map((c) => c.close().catch(() => {})));
    },
    { scope: 'worker' },
  ],
  context: async (
    {
      browser,
      reusedContexts,
      baseURL,
      javaScriptEnabled,
      viewport,
      serviceWorkers,
      colorScheme,
      locale,
      timezoneId,
      isMobile,
      hasTouch,
      deviceScaleFactor,
      userAgent,
      extraHTTPHeaders,
      geolocation,
      contextOptions,
      storageState,
      offline,
      permissions,
    },
    use,
  ) => {
    // Every context option a spec may set (test.use), so none is silently dropped. They are named
    // twice: Playwright reads a fixture's dependencies from its parameter's destructuring, which
    // may not end in a rest element.
    const options: BrowserContextOptions = Object.fromEntries(
      Object.entries({
        ...contextOptions,
        baseURL,
        javaScriptEnabled,
        viewport,
        serviceWorkers,
        colorScheme,
        locale,
        timezoneId,
        isMobile,
        hasTouch,
        deviceScaleFactor,
        userAgent,
        extraHTTPHeaders,
        geolocation,
      }).filter(([, v]) => v !== undefined),
    );
    // State the emptying would take out (a stored session, offline mode, granted permissions): such a
    // test gets a context of its own, as Playwright gives every test.
    if (storageState !== undefined || offline || (permissions?.length ?? 0) > 0) {
      const own = await browser.newContext({
        ...options,
        ...(storageState !== undefined && { storageState }),
        ...(permissions && { permissions }),
        offline,
      });
      await use(own);
      await own.close();
      return;
    }
    const key = JSON.stringify(options);
    let context = reusedContexts.get(key);
    if (!context) {
      const made = await browser.newContext(options);
      // Closed by a test (or a crash): the next test gets a new one.
      made.on('close', () => {
        if (reusedContexts.get(key) === made) reusedContexts.delete(key);
      });
      watchClock(made);
      if (baseURL) await keepOpen(made, baseURL);
      reusedContexts.set(key, made);
      context = made;
    }
    await use(context);
    if (!reusedContexts.has(key)) return;
    // A fake clock (page.clock is the context's) cannot be taken out: that context goes.
    if (clocked.has(context)) {
      reusedContexts.delete(key);
      await context.close();
      return;
    }
    const keeper = keepers.get(context);
    await Promise.all(context.pages().map((p) => (p === keeper ? undefined : p.close())));
    await context.clearCookies();
    await context.clearPermissions();
    await context.unrouteAll({ behavior: 'ignoreErrors' });
    await context.setOffline(false);
  },
  page: async ({ context, baseURL }, use) => {
    const page = await context.newPage();
    await use(page);
    // The origin's storage goes through the page the context keeps open (or the test's own, or a
    // new one); the context's fixture closes the test's pages and clears the rest.
    if (!baseURL || clocked.has(context) || !keepers.has(context) || !context.browser()?.isConnected()) return;
    const keeper = keepers.get(context);
    const open = keeper && !keeper.isClosed() ? keeper : !page.isClosed() ? page : await context.newPage();
    await clearOrigin(context, open, baseURL);
  },
});

/** The page each reused context keeps open on its site. */
const keepers = new WeakMap<BrowserContext, Page>();

/** Opens the page that keeps a renderer process of the site alive between tests. */
async function keepOpen(context: BrowserContext, baseURL: string): Promise<void> {
  const keeper = await context.newPage();
  await keeper.goto(new URL('/robots.txt', baseURL).href);
  keepers.set(context, keeper);
}

/** The contexts a test gave a fake clock. */
const clocked = new WeakSet<BrowserContext>();

/** Marks `context` when a test installs or moves its clock (page.clock is context.clock). */
function watchClock(context: BrowserContext): void {
  const clock = context.clock as unknown as Record<string, (...args: unknown[]) => Promise<void>>;
  for (const name of ['install', 'setFixedTime', 'setSystemTime', 'pauseAt', 'fastForward', 'runFor', 'resume']) {
    const original = clock[name]!.bind(clock);
    clock[name] = (...args: unknown[]) => {
      clocked.add(context);
      return original(...args);
    };
  }
}

/**
 * Closes the reused contexts of a site that is about to stop (an own site at the end of its
 * spec file), so no browser connection outlives its server.
 */
export async function closeContextsOf(contexts: Map<string, BrowserContext>, baseURL: string | undefined) {
  if (!baseURL) return;
  for (const [key, context] of [...contexts]) {
    if ((JSON.parse(key) as { baseURL?: string }).baseURL !== baseURL) continue;
    contexts.delete(key);
    await context.close().catch(() => {});
  }
}

/** The origin's cookies and storage (local, session, IndexedDB, Cache API, service workers), cleared. */
async function clearOrigin(context: BrowserContext, page: Page, baseURL: string): Promise<void> {
  const session = await context.newCDPSession(page);
  await session.send('Storage.clearDataForOrigin', { origin: new URL(baseURL).origin, storageTypes: 'all' });
  await session.detach();
}
