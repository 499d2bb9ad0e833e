import type { Page } from '@playwright/test';

/**
 * Waits until every island of the page has hydrated (Astro drops the `ssr` attribute then).
 * client:visible islands hydrate when seen, so each is scrolled into view and awaited in turn; a
 * client:interaction island (the public forms) is focused into, as a visitor starting on it would.
 */
export async function hydrated(page: Page): Promise<void> {
  const done = await page.evaluate(async () => {
    for (const island of document.querySelectorAll('astro-island[ssr]')) {
      (island.firstElementChild ?? island).scrollIntoView({ block: 'center' });
      if (island.getAttribute('client') === 'interaction') island.dispatchEvent(new FocusEvent('focusin'));
      const deadline = Date.now() + 10_000;
      while (island.hasAttribute('ssr') && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 25));
      }
    }
    window.scrollTo(0, 0);
    return !document.querySelector('astro-island[ssr]');
  });
  // Every island hydrated (the usual case): the page is already back at the top.
  if (done) return;
  try {
    // An island still waiting (its script slow on a loaded machine) is brought into view again, so
    // a client:visible one is not left off-screen by the scroll back to the top.
    await page.waitForFunction(
      () => {
        const stuck = document.querySelector('astro-island[ssr]');
        if (!stuck) return true;
        (stuck.firstElementChild ?? stuck).scrollIntoView({ block: 'center' });
        return false;
      },
      null,
      { timeout: 30_000, polling: 250 },
    );
    await page.evaluate(() => window.scrollTo(0, 0));
  } catch (err) {
    // Name the islands that never hydrated, so a failure says where to look.
    const stuck = await page.evaluate(() =>
      [...document.querySelectorAll('astro-island[ssr]')].map((i) => i.getAttribute('component-url')),
    );
    throw new Error(`Islands still not hydrated after 30 s: ${stuck.join(', ')}`, { cause: err });
  }
}

/** Islands not hydrated yet: Astro removes `ssr` from each as it hydrates. */
export const unhydrated = (page: Page, scope = '') => page.locator(`${scope} astro-island[ssr]`.trim()).count();

/**
 * Every script of the page is held from now on, as on a slow phone whose scripts are still on the
 * way: what the visitor does meanwhile lands before any island's code. The answer lets them
 * through (those waiting and every later one). A gate, not a delay: a delay of seconds a script
 * cost each test several times that (a module waits for the modules it imports, each late in turn)
 * and still raced the typing on a busy machine.
 */
export async function holdScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/*.js', async (route) => {
    await gate;
    await route.continue().catch(() => {});
  });
  return release;
}
