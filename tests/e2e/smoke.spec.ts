import { expect, test } from './fixtures';

test('the home page lists the seeded servers from the database', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Apex Legends Hub' }).first()).toBeVisible();
  // The Education sample is stored but never listed.
  await expect(page.getByText('Study Together')).toHaveCount(0);
});
