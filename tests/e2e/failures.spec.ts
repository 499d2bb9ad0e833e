import { expect, test } from './fixtures';
import { hydrated } from './hydration';

test('the home listing shows Error loading servers when the API fails', async ({ page }) => {
  await page.route('**/api/servers?**', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"internal"}}' }),
  );
  await page.goto('/');
  await hydrated(page);
  const list = page.locator('#servers');
  await list.getByRole('button', { name: 'Crypto', exact: true }).click();
  await expect(list.getByRole('alert')).toContainText('Error loading servers');
  await expect(list.getByRole('alert')).toContainText('Please try refreshing the page');
  // No stale "N servers found" above the error.
  await expect(list.locator('.count')).toBeEmpty();
  await page.unroute('**/api/servers?**');
  await list.getByRole('button', { name: 'Try again' }).click();
  await expect(list.getByRole('link', { name: 'Bitcoin Maximalists', exact: true })).toBeVisible();
});

test('a failing newsletter API shows Failed to subscribe. Please try again.', async ({ page }) => {
  await page.route('**/api/newsletter', (route) => route.fulfill({ status: 500, body: '' }));
  await page.goto('/#newsletter');
  await hydrated(page);
  const box = page.locator('#newsletter');
  await box.getByLabel('Email address').fill('someone@example.com');
  await box.getByRole('button', { name: 'Subscribe' }).click();
  await expect(box.getByRole('alert')).toHaveText('Failed to subscribe. Please try again.');
});

test('a failing submissions API shows the catalogue message in the Submission Error box', async ({ page }) => {
  await page.route('**/api/submissions', (route) => route.fulfill({ status: 503, body: '' }));
  await page.goto('/submit-server');
  await hydrated(page);
  await page.getByLabel('Server name').fill('Any Server');
  await page.getByLabel('Contact email').fill('owner@example.com');
  await page.getByLabel(/I accept the/).check();
  // Browser validation would stop an incomplete form; the JS path sends it and shows the answer.
  await page.locator('form[action="/api/submissions"]').evaluate((f) => f.setAttribute('novalidate', ''));
  await page.getByRole('button', { name: 'Submit Server for Review' }).click();
  const box = page.getByRole('alert').filter({ hasText: 'Submission Error' });
  await expect(box).toContainText('Failed to submit server. Please try again.');
  await expect(page.getByRole('button', { name: 'Submit Server for Review' })).toBeEnabled();
});

test('a category page search lists matching servers from the API', async ({ page }) => {
  await page.goto('/best-gaming-discord');
  await hydrated(page);
  await page.getByRole('searchbox', { name: 'Search Gaming servers' }).fill('indie');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText('1 server found for “indie”')).toBeVisible();
});
