import { CLAIMS } from '../../src/lib/claims';
import { expect, test } from './fixtures';
import { hydrated } from './hydration';

test('the built pages state the claims module, not the retired promises', async ({ page }) => {
  await page.goto('/');
  const newsletter = page.locator('#newsletter');
  // The worker's site has fewer than 100 subscribers: no figure at all, never "10,000+".
  await expect(newsletter).toContainText(CLAIMS.newsletter);
  await expect(newsletter).not.toContainText('10,000');
  // The tiles show what is listed, not the spec's advertised audience figures.
  const gaming = page.locator('#categories').getByRole('link', { name: /Gaming/ });
  await expect(gaming).toContainText('listed');
  await expect(gaming).not.toContainText('1.2M+');
  // This deployment's own address: support@ the SITE_URL host, never a reserved example domain.
  await expect(page.locator('footer').getByRole('link', { name: 'support@localhost' })).toHaveAttribute(
    'href',
    'mailto:support@localhost',
  );

  await page.goto('/help');
  await hydrated(page);
  await page.getByRole('tab', { name: 'Pricing & Billing' }).click();
  await expect(page.getByText('money-back')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'How do I pay, and can I get a refund?' })).toBeVisible();

  await page.goto('/submit-server/received?email=owner%40example.com');
  await expect(page.getByRole('status')).toContainText(CLAIMS.outcomeMail);
  await expect(page.getByRole('status')).toContainText('owner@example.com');
});

test('a lazy icon shows the initials until it loads, then its white tile; a failed icon shows the initials', async ({
  page,
}) => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  // Forex Signals Room's icon is held back; Bitcoin Maximalists' fails.
  await page.route('**/icons/servers/forex-signals-room.svg', async (route) => {
    await held;
    await route.continue();
  });
  await page.route('**/icons/servers/bitcoin-maximalists.svg', (route) => route.fulfill({ status: 404 }));

  // The held icon holds the load event back: wait for the document only.
  await page.goto('/servers', { waitUntil: 'domcontentloaded' });
  const icon = (name: string) => page.locator('article, li').filter({ hasText: name }).locator('.icon').first();
  const waiting = icon('Forex Signals Room');
  await waiting.scrollIntoViewIfNeeded();
  await expect(waiting.locator('.icon-initials')).toBeVisible();
  await expect(waiting.locator('img')).not.toHaveAttribute('data-loaded', '');
  expect(await waiting.locator('img').evaluate((img) => getComputedStyle(img).backgroundColor)).toBe(
    'rgba(0, 0, 0, 0)',
  );
  release();
  await expect(waiting.locator('img')).toHaveAttribute('data-loaded', '');
  expect(await waiting.locator('img').evaluate((img) => getComputedStyle(img).backgroundColor)).toBe(
    'rgb(255, 255, 255)',
  );

  const failed = icon('Bitcoin Maximalists');
  await failed.scrollIntoViewIfNeeded();
  await expect(failed.locator('img')).toHaveAttribute('data-failed', '');
  await expect(failed.locator('img')).toBeHidden();
  await expect(failed.locator('.icon-initials')).toBeVisible();
});
