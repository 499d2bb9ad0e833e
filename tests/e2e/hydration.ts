import type { Page } from '@playwright/test';

/**
 * Waits until every island of the page has hydrated (Astro drops the `ssr` attribute then).
 * client:visible islands hydrate when seen, so each is scrolled into view and awaited in turn.
 */
export async function hydrated(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (const island of document.querySelectorAll('astro-island[ssr]')) {
      (island.firstElementChild ?? island).scrollIntoView({ block: 'center' });
      const deadline = Date.now() + 10_000;
      while (island.hasAttribute('ssr') && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 25));
      }
    }
    window.scrollTo(0, 0);
  });
  try {
    await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0, null, {
      timeout: 30_000,
    });
  } catch (err) {
    // Name the islands that never hydrated, so a failure says where to look.
    const stuck = await page.evaluate(() =>
      [...document.querySelectorAll('astro-island[ssr]')].map((i) => i.getAttribute('component-url')),
    );
    throw new Error(`Islands still not hydrated after 30 s: ${stuck.join(', ')}`, { cause: err });
  }
}
