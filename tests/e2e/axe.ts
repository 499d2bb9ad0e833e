import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * An axe run on the page that reports its violations in full and nothing else in detail: every
 * rule still runs on every node, but the passes, the incomplete and the inapplicable results are
 * not collected node by node (axe's `resultTypes`), seconds of the browser's CPU per scan.
 * The specs assert on `violations` only.
 */
export function axe(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).options({ resultTypes: ['violations'] });
}
