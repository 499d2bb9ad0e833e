import type { Page } from '@playwright/test';
import { expect, test as shared } from './fixtures';
import { hydrated } from './hydration';
import { testWithOwnSite } from './own-site';
import { FORMS, SCRIPT, SECRET, SITE_KEY } from './turnstile';

// Issue #14: Turnstile on every public form when the build has both keys, and nowhere when it
// has one. The keys are build variables; the app itself runs without them, so its posts are not
// sent to Cloudflare and the tokens here are a stand-in's. The build with only the site key is
// listings.spec.ts' (turnstile.ts): the case costs no build of its own.

/**
 * Cloudflare's script stood in for (the machine has no way out): it renders every widget as the
 * real one does, a hidden `cf-turnstile-response` field with a token, and counts the resets.
 */
const STAND_IN = `(() => {
  let n = 0;
  const fill = (el) => {
    let input = el.querySelector('input');
    if (!input) { input = document.createElement('input'); input.type = 'hidden'; input.name = 'cf-turnstile-response'; el.append(input); }
    input.value = 'stand-in-token-' + ++n;
  };
  window.turnstileResets = 0;
  window.turnstile = { render: (el) => { fill(el); return String(n); }, reset: (el) => { window.turnstileResets++; fill(el); } };
  document.querySelectorAll('.cf-turnstile').forEach(fill);
})();`;

/** Serves the stand-in for Cloudflare's script, and records every page error (a hydration mismatch is one). */
async function standIn(page: Page): Promise<string[]> {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await page.route('https://challenges.cloudflare.com/**', (route) =>
    route.fulfill({ contentType: 'text/javascript', body: STAND_IN }),
  );
  return errors;
}

/** The token a form's JSON post carries, once `send` has sent it. */
async function sentToken(page: Page, action: string, send: () => Promise<void>): Promise<unknown> {
  const request = page.waitForRequest((r) => r.url().endsWith(action) && r.method() === 'POST');
  await send();
  const sent = await request;
  expect(sent.headers()['content-type']).toContain('application/json');
  return (sent.postDataJSON() as Record<string, unknown>)['cf-turnstile-response'];
}

const bothKeysSite = testWithOwnSite('turnstile-on', undefined, {
  TURNSTILE_SITE_KEY: SITE_KEY,
  TURNSTILE_SECRET: SECRET,
});

/**
 * The build's own `test`, run among the shared site's specs (its site in place of the worker's, as
 * xss.spec.ts does): Playwright queues the files of one set of worker fixtures together, in name
 * order, the shared site's first. Among the specs with sites of their own this file, a full build
 * for three short tests, came last and ran alone for its build while the other worker idled.
 */
const withBothKeys = shared.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature
  site: async ({}, use) => use(bothKeysSite.ownSite()),
  // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature
  baseURL: async ({}, use) => use(bothKeysSite.ownBaseURL()),
});

withBothKeys.describe('a build with both Turnstile keys', () => {
  withBothKeys(
    'every public form shows the widget, and its page loads Cloudflare script once, async',
    async ({ page }) => {
      const errors = await standIn(page);
      for (const { path, action } of FORMS) {
        await page.goto(path);
        await expect(page.locator(`form[action="${action}"] .cf-turnstile[data-sitekey="${SITE_KEY}"]`)).toHaveCount(1);
        await expect(page.locator('.cf-turnstile')).toHaveCount(1);
        const script = page.locator(`script[src="${SCRIPT}"]`);
        await expect(script).toHaveCount(1);
        await expect(script).toHaveAttribute('async', '');
        await expect(script).toHaveAttribute('defer', '');
      }
      expect(errors).toEqual([]);
    },
  );

  withBothKeys(
    'the contact and submit islands send the widget token with their JSON and then reset it',
    async ({ page }) => {
      const errors = await standIn(page);
      await page.goto('/contact');
      await hydrated(page);
      await page.getByLabel('Name').fill('Turnstile');
      await page.getByLabel('Email').fill(`turnstile-${Date.now()}@example.com`);
      await page.getByLabel('Message').fill('Sent with the widget token.');
      const contactToken = await sentToken(page, '/api/contact', () =>
        page.getByRole('button', { name: 'Send Message' }).click(),
      );
      expect(contactToken).toMatch(/^stand-in-token-\d+$/);
      await expect(page.getByRole('heading', { name: 'Message Sent!' })).toBeVisible();
      await expect.poll(() => page.evaluate(() => (window as { turnstileResets?: number }).turnstileResets)).toBe(1);

      await page.goto('/submit-server');
      await hydrated(page);
      await page.getByLabel('Server name').fill('Turnstile Guild');
      await page.getByLabel('Description').fill('A server sent with the widget token.');
      await page.getByLabel('Invite link').fill('https://discord.gg/turnstile');
      await page.getByLabel('Icon URL').fill('https://example.com/turnstile.png');
      await page.getByLabel('Your name').fill('Turnstile');
      await page.getByLabel('Contact email').fill(`turnstile-${Date.now()}@example.com`);
      await page.getByLabel(/I accept the/).check();
      const submitToken = await sentToken(page, '/api/submissions', () =>
        page.getByRole('button', { name: 'Submit Server for Review' }).click(),
      );
      expect(submitToken).toMatch(/^stand-in-token-\d+$/);
      await expect(page.getByRole('heading', { name: 'Submission Received!' })).toBeVisible();
      expect(errors).toEqual([]);
    },
  );

  withBothKeys('the newsletter box and the report dialog send the widget token with their JSON', async ({ page }) => {
    const errors = await standIn(page);
    await page.goto('/');
    await hydrated(page);
    const box = page.locator('#newsletter');
    await box.getByLabel('Email address').fill(`turnstile-${Date.now()}@example.com`);
    const newsletterToken = await sentToken(page, '/api/newsletter', () =>
      box.getByRole('button', { name: 'Subscribe' }).click(),
    );
    expect(newsletterToken).toMatch(/^stand-in-token-\d+$/);
    await expect(box.getByText('Thanks for subscribing!')).toBeVisible();

    await page.goto('/server/indie-game-devs');
    await page.getByRole('button', { name: 'Report' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('radio', { name: 'Misleading information' }).check();
    const reportToken = await sentToken(page, '/api/reports', () =>
      dialog.getByRole('button', { name: 'Submit Report' }).click(),
    );
    expect(reportToken).toMatch(/^stand-in-token-\d+$/);
    await expect(page.getByRole('heading', { name: 'Reported' })).toBeVisible();
    expect(errors).toEqual([]);
  });
});
