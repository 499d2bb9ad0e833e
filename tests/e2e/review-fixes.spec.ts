// Issue #13, data and routing: what a visitor's browser sees of the fixes (moved addresses, the
// not-found screens' metadata, the submit form's subcategory with and without JavaScript).
import { eq } from 'drizzle-orm';
import { serverSubmissions } from '../../db/schema';
import { expect, test } from './fixtures';
import { hydrated } from './hydration';

test('a server address in another form lands on the server page, and a trailing slash on the page', async ({
  page,
}) => {
  for (const [path, landed] of [
    ['/server/Apex-Legends-Hub', '/server/apex-legends-hub'],
    ['/server/apex-legends', '/server/apex-legends-hub'],
    ['/best-gaming-discord/', '/best-gaming-discord'],
    ['/best-gaming-discord/page/9', '/best-gaming-discord'],
  ]) {
    const res = await page.goto(path!);
    expect(res?.status(), path).toBe(200);
    expect(new URL(page.url()).pathname, path).toBe(landed);
  }
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Gaming');
});

test('not-found screens answer 404, noindex, and declare no canonical address', async ({ page }) => {
  for (const [path, heading] of [
    ['/server/no-such-guild-anywhere', 'Server not found'],
    ['/best-anime-discord', 'Category Not Found'],
    ['/best-gaming-discord/fps-discord', 'Subcategory Not Found'],
    ['/nothing-here', 'Page Not Found'],
  ]) {
    const res = await page.goto(path!);
    expect(res?.status(), path).toBe(404);
    await expect(page.getByRole('heading', { level: 1 }), path).toHaveText(heading!);
    await expect(page.locator('meta[name="robots"]'), path).toHaveAttribute('content', /noindex/);
    await expect(page.locator('link[rel="canonical"]'), path).toHaveCount(0);
    await expect(page.locator('meta[property="og:url"]'), path).toHaveCount(0);
  }
});

test('the submit form offers the chosen category’s subcategories, none for Gaming', async ({ page }) => {
  await page.goto('/submit-server');
  await hydrated(page);
  const subcategory = page.getByRole('combobox', { name: /^Subcategory/ });
  await expect(subcategory).toHaveCount(0);
  await page.getByRole('combobox', { name: /^Category/ }).selectOption('Trading');
  await expect(subcategory.locator('option')).toHaveText([
    'None',
    'Forex Trading',
    'Stock Trading',
    'Crypto Trading',
    'Options Trading',
    'Futures Trading',
  ]);
  await subcategory.selectOption('Crypto Trading');
  // Another category does not have it: the choice is cleared.
  await page.getByRole('combobox', { name: /^Category/ }).selectOption('Investing');
  await expect(subcategory).toHaveValue('');
});

test('without JavaScript the subcategory is one grouped select, and the plain POST stores it', async ({
  browser,
  site,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: site.baseURL });
  const page = await context.newPage();
  const email = `nojs-sub-${Date.now()}@example.com`;
  await page.goto('/submit-server');
  const subcategory = page.getByRole('combobox', { name: /^Subcategory/ });
  await expect(subcategory.locator('optgroup')).toHaveCount(4);
  await page.getByLabel('Server name').fill('Plain Pips');
  await page.getByRole('combobox', { name: /^Category/ }).selectOption('Trading');
  await subcategory.selectOption('Forex Trading');
  await page.getByLabel('Description').fill('Forex session notes, posted with scripts switched off.');
  await page.getByLabel('Invite link').fill('https://discord.gg/plainpips');
  await page.getByLabel('Icon URL').fill('https://example.com/pips.png');
  await page.getByLabel('Your name').fill('No Script');
  await page.getByLabel('Contact email').fill(email);
  await page.getByLabel(/I accept the/).check();
  await page.getByRole('button', { name: 'Submit Server for Review' }).click();
  await expect(page).toHaveURL(/\/submit-server\/received\?email=/);
  const rows = await site.db.select().from(serverSubmissions).where(eq(serverSubmissions.contact_email, email));
  expect(rows.map((r) => [r.category, r.subcategory])).toEqual([['Trading', 'Forex Trading']]);
  await context.close();
});
