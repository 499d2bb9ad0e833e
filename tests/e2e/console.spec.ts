import { expect, test } from './fixtures';
import { hydrated } from './hydration';

const PAGES = [
  '/',
  '/best-crypto-discord',
  '/server/apex-legends-hub',
  '/submit-server',
  '/help',
  '/contact',
  '/saved',
];

test('pages load under the Content-Security-Policy without console errors', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  for (const path of PAGES) {
    const res = await page.goto(path);
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    await hydrated(page);
  }
  expect(errors).toEqual([]);
});

test('the console bundle holds no server code: its typed client imports the app as a type only', async ({ page }) => {
  const scripts: string[] = [];
  page.on('response', async (res) => {
    if (res.request().resourceType() === 'script') scripts.push(await res.text());
  });
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.length).toBeGreaterThan(0);
  // Strings of the app factory (its 405 answer), drizzle's tables, the libSQL client and the password hashing.
  for (const marker of ['method_not_allowed', 'SQLiteTable', 'LibsqlError', 'PBKDF2']) {
    expect(scripts.filter((s) => s.includes(marker)).length, marker).toBe(0);
  }
});
