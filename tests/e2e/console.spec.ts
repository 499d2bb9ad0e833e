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
