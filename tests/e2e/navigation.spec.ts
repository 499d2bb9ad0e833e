import { expect, test } from './fixtures';
import { hydrated } from './hydration';
import { PUBLIC_PAGE_TYPES } from './pages';

// Issue #13 items 3, 4 and 10, and the Nu Html Checker's two markup errors: a listing search
// replaces the grid, the mobile menu closes when a link is followed, the hero box shows the
// search a link opened, and the markup has no style element in the body nor a required select
// that starts with a chosen option.

for (const [what, path, label, term, match, other] of [
  ['category', '/best-gaming-discord', 'Gaming', 'apex', 'Apex Legends Hub', 'Indie Game Devs'],
  ['subcategory', '/best-crypto-discord/bitcoin-discord', 'Bitcoin', 'maximalists', 'Bitcoin Maximalists', null],
  ['all servers', '/servers', 'Discord', 'indie', 'Indie Game Devs', 'Dividend Investors Club'],
] as const) {
  test(`a ${what} page search shows its matches instead of the listing, once each, and Clear brings the listing back`, async ({
    page,
  }) => {
    await page.goto(path);
    await hydrated(page);
    // The cards a visitor sees (the Top 3 podium above the listing links servers too: not cards).
    const cardOf = (name: string) =>
      page.locator('article.card:visible', { has: page.getByRole('link', { name, exact: true }) });
    await expect(cardOf(match)).toHaveCount(1);
    const box = page.getByRole('searchbox', { name: `Search ${label} servers` });
    await box.fill(term);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByText(`1 server found for “${term}”`)).toBeVisible();
    // The match once (the search's card), the rest of the listing and its pages out of the way.
    await expect(cardOf(match)).toHaveCount(1);
    await expect(page.locator('article.card:visible')).toHaveCount(1);
    if (other) await expect(cardOf(other)).toHaveCount(0);
    await expect(page.getByRole('navigation', { name: 'Pages' })).toBeHidden();

    await page.getByRole('button', { name: 'Clear search' }).click();
    await expect(page.getByText(/found for/)).toHaveCount(0);
    await expect(box).toHaveValue('');
    await expect(box).toBeFocused();
    await expect(cardOf(match)).toHaveCount(1);
    if (other) await expect(cardOf(other)).toHaveCount(1);
  });
}

test('a listing search with no match says so and leaves no listing behind it', async ({ page }) => {
  await page.goto('/best-gaming-discord');
  await hydrated(page);
  await page.getByRole('searchbox', { name: 'Search Gaming servers' }).fill('zzqqxx');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText('0 servers found for “zzqqxx”')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No servers found' })).toBeVisible();
  await expect(page.locator('article.card:visible')).toHaveCount(0);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the menu closes when an in-page link is followed (Categories), and after any link', async ({ page }) => {
    await page.goto('/');
    await hydrated(page);
    const toggle = page.getByRole('button', { name: 'Menu' });
    const nav = page.getByRole('navigation', { name: 'Main' });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await nav.getByRole('link', { name: 'Categories' }).click();
    await expect(page).toHaveURL(/\/#categories$/);
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(nav.getByRole('link', { name: 'Submit Server' })).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Browse by Category' })).toBeInViewport();

    // Back to a page left with the menu open (the back/forward cache keeps pages as they were).
    await toggle.click();
    await nav.getByRole('link', { name: 'Help' }).click();
    await expect(page).toHaveURL(/\/help$/);
    await page.goBack();
    await expect(page.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
  });
});

test('a /?search= link opens the search page with the term in its box, and Clear search leads back to the home list', async ({
  page,
}) => {
  await page.goto('/?search=bitcoin');
  await expect(page).toHaveURL(/\/search\?search=bitcoin$/);
  await hydrated(page);
  await expect(page.getByRole('searchbox', { name: 'Search Discord servers' })).toHaveValue('bitcoin');
  await page.getByRole('link', { name: 'Clear search' }).click();
  await expect(page).toHaveURL(/\/#servers$/);
  await expect(page.getByRole('searchbox', { name: 'Search servers' })).toHaveValue('');
});

test('the full listing and the search page show the servers the home list filtered: Premium Only and size kept', async ({
  page,
}) => {
  // The home's "View All" leads here with every filter in the URL (fullListingHref): the listing
  // page's controls read them back and its list is the filtered one, not the whole listing.
  await page.goto('/servers?premium=true&min_members=10000&max_members=99999');
  await hydrated(page);
  await expect(page.getByRole('button', { name: 'Premium Only' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByLabel('Size')).toHaveValue('large');
  const results = page.locator('.search-results');
  await expect(results.locator('.count')).toContainText('premium only, 10K to 100K members');
  await expect(results.getByRole('link', { name: 'Bitcoin Maximalists', exact: true })).toBeVisible();
  for (const other of ['Apex Legends Hub', 'Indie Game Devs']) {
    await expect(results.getByRole('link', { name: other, exact: true })).toHaveCount(0);
  }
  // While searching, the search page keeps them (also for a shared home URL, redirected there).
  await page.goto('/?search=and&premium=true&min_members=10000&max_members=99999');
  await expect(page).toHaveURL(/\/search\?search=and&premium=true&min_members=10000&max_members=99999$/);
  await expect(page.getByText(/found for “and”: premium only, 10K to 100K members/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Bitcoin Maximalists', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Apex Legends Hub', exact: true })).toHaveCount(0);
  await page.getByRole('link', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL(/\/search\?search=and$/);
  await expect(page.getByRole('link', { name: 'Apex Legends Hub', exact: true })).toBeVisible();
});

test('a search page past the last page of matches shows the last one, never "N found" above "No server matches"', async ({
  page,
}) => {
  await page.goto('/search?search=bitcoin&page=40');
  await expect(page.getByText(/\d+ servers? found for “bitcoin”/)).toBeVisible();
  await expect(page.locator('article.card').first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No servers found' })).toHaveCount(0);
  // The last page of the matches (one, here): no page 40 and no Previous into more empty pages.
  await expect(page).not.toHaveTitle(/page 40/);
  await expect(page.getByRole('link', { name: 'Previous' })).toHaveCount(0);
  // A term nothing matches says so, once.
  await page.goto('/search?search=zzqqxxnomatch&page=3');
  await expect(page.getByText('0 servers found for “zzqqxxnomatch”')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No servers found' })).toBeVisible();
});

test('no page puts a style element in its body or starts a required select with a chosen option', async ({ page }) => {
  for (const path of [
    ...PUBLIC_PAGE_TYPES,
    '/best-gaming-discord',
    '/best-crypto-discord/bitcoin-discord',
    '/offline',
    '/admin',
  ]) {
    // As served, before any script runs.
    const html = await (await page.request.get(path)).text();
    const body = html.slice(html.indexOf('<body'));
    expect(body, `${path}: style element in body`).not.toMatch(/<style[\s>]/);
    for (const select of body.match(/<select\b[^>]*\srequired[^>]*>\s*<option\b[^>]*>/g) ?? []) {
      expect(select, `${path}: a required select's first option must have an empty value`).toMatch(
        /<option\b[^>]*\svalue=""/,
      );
    }
  }
});
