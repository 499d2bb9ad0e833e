import { expect, type Page } from '@playwright/test';

// Issue #14's builds: Turnstile on every public form when the build has both keys, nowhere when it
// has one. turnstile.spec.ts builds with both; the site-key-only case is checked on listings.spec.ts'
// site, built with only the site key among its own build settings (a build of its own would cost a
// full Astro build for one test; nothing there sends a public form).

/** Cloudflare's always-passing test site key, and its secret. */
export const SITE_KEY = '1x00000000000000000000AA';
export const SECRET = '1x0000000000000000000000000000000AA';
export const SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js';

/** A build's Turnstile keys as build variables: only the site key, the secret empty. */
export const SITE_KEY_ONLY = { TURNSTILE_SITE_KEY: SITE_KEY, TURNSTILE_SECRET: '' };

/** Every public form: the page it is on and its action. */
export const FORMS = [
  { path: '/submit-server', action: '/api/submissions' },
  { path: '/contact', action: '/api/contact' },
  { path: '/', action: '/api/newsletter' },
  { path: '/server/indie-game-devs', action: '/api/reports' },
] as const;

/** A site built with only the site key: every public form is there, with no widget and no script asked for. */
export async function expectNoWidgetOnAnyForm(page: Page): Promise<void> {
  const asked: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith('https://challenges.cloudflare.com/')) asked.push(r.url());
  });
  for (const { path, action } of FORMS) {
    await page.goto(path);
    await expect(page.locator(`form[action="${action}"]`)).toHaveCount(1);
    await expect(page.locator('.cf-turnstile')).toHaveCount(0);
    await expect(page.locator('script[src*="challenges.cloudflare.com"]')).toHaveCount(0);
  }
  expect(asked).toEqual([]);
}
