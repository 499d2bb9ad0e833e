// A visitor whose browser runs no script, on a phone: the no-JavaScript tests of several specs.
import type { Browser, BrowserContext, Page } from '@playwright/test';

/** A new context with JavaScript off and a phone's viewport, on the test's site, and its first page. */
export async function withoutJavaScript(
  browser: Browser,
  baseURL: string,
  width = 390,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL, viewport: { width, height: 844 } });
  return { context, page: await context.newPage() };
}
