import type { Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { createServer, type ServerWrite } from '../../db/queries/servers';
import { discordServers } from '../../db/schema';
import { countOf, formatMembers } from '../../src/lib/format';
import { expect } from './fixtures';
import { holdScripts, hydrated, unhydrated } from './hydration';
import { testWithOwnSite } from './own-site';

// Issue #15, the listing: the home filter bar's sorts and the filters nobody else offers (size,
// online share, checked in the last 24 hours) against the build's own server, a listing page's
// sort, and the build leaving dead and wrong_guild invites off every listing, Premium Picks, the
// category counts and the sitemap (a dead one keeps its page, noindex; a wrong_guild one has none).

const HOUR = 3_600_000;
const start = Date.now();
const ago = (ms: number) => new Date(start - ms).toISOString();

/** The Investing servers this spec adds beside the sample set's one (Dividend Investors Club, 23.7K). */
const ROWS: (Partial<ServerWrite> & { name: string; created?: string })[] = [
  {
    name: 'Stale Giant Capital',
    members: 500_000,
    active_users: 5_000,
    rank_score: 0.1,
    growth_30d: 0,
    invite_status: 'ok',
    last_ok_at: ago(72 * HOUR),
    created: '2020-02-01T00:00:00.000Z',
  },
  {
    name: 'Lively Middle Investors',
    members: 20_000,
    active_users: 6_000,
    rank_score: 0.95,
    growth_30d: 0.05,
    invite_status: 'ok',
    last_ok_at: ago(2 * HOUR),
    created: '2024-03-01T00:00:00.000Z',
  },
  {
    name: 'Rising Star Stocks',
    members: 3_000,
    active_users: 700,
    rank_score: 0.5,
    growth_30d: 0.4,
    invite_status: 'ok',
    last_ok_at: ago(1 * HOUR),
    created: ago(24 * HOUR),
  },
  // Bigger and curated first: were they listed, they would lead every list and Premium Picks.
  {
    name: 'Dead Invite Guild',
    members: 900_000,
    active_users: 90_000,
    rank_score: 1,
    growth_30d: 1,
    invite_status: 'dead',
    last_ok_at: ago(72 * HOUR),
    is_premium: true,
    is_sponsored: true,
    sort_order: 1000,
  },
  {
    name: 'Wrong Guild Lounge',
    members: 800_000,
    active_users: 80_000,
    rank_score: 1,
    growth_30d: 1,
    invite_status: 'wrong_guild',
    last_ok_at: ago(1 * HOUR),
    is_premium: true,
    is_sponsored: true,
    sort_order: 1000,
  },
];
const HIDDEN = ['Dead Invite Guild', 'Wrong Guild Lounge'];

const test = testWithOwnSite('listing-freshness', async (db: Db) => {
  for (const { created, ...row } of ROWS) {
    const s = await createServer(db, {
      description: 'An investing community the listing spec sorts and filters.',
      category: 'Investing',
      subcategory: 'Stocks',
      tags: ['listing-spec'],
      affiliate_link: 'https://discord.gg/listingspec',
      ...row,
    });
    if (created) await db.update(discordServers).set({ created_at: created }).where(eq(discordServers.id, s.id));
  }
});

/** The server names of a grid, in order. */
/** The Investing rows as every listing is built: most members first. */
const INVESTING_BY_MEMBERS = [
  'Stale Giant Capital',
  'Dividend Investors Club',
  'Lively Middle Investors',
  'Rising Star Stocks',
];

const namesIn = (scope: import('@playwright/test').Locator) => scope.locator('.grid .card-name').allTextContents();

test('the home filter bar sorts and filters by size, online share and a check in the last 24 hours', async ({
  page,
}) => {
  await page.goto('/');
  await hydrated(page);
  const list = page.locator('#servers');
  await list.getByRole('button', { name: 'Investing', exact: true }).click();
  await expect(list.getByText(`${countOf(4, 'server')} found`)).toBeVisible();
  expect(await namesIn(list)).toEqual(INVESTING_BY_MEMBERS);

  await list.getByLabel('Size').selectOption({ label: '10K to 100K members' });
  await expect(list.getByText(`${countOf(2, 'server')} found`)).toBeVisible();
  expect(await namesIn(list)).toEqual(['Dividend Investors Club', 'Lively Middle Investors']);
  await list.getByLabel('Size').selectOption({ label: 'Any size' });

  await list.getByLabel('Online now').selectOption({ label: '20\u00a0%+ of members' });
  await expect(list.getByText(`${countOf(2, 'server')} found`)).toBeVisible();
  expect(await namesIn(list)).toEqual(['Lively Middle Investors', 'Rising Star Stocks']);
  await list.getByLabel('Online now').selectOption({ label: 'Any share' });

  const checked = list.getByRole('button', { name: 'Checked in the last 24 hours' });
  await checked.click();
  await expect(checked).toHaveAttribute('aria-pressed', 'true');
  await expect(list.getByText(`${countOf(2, 'server')} found`)).toBeVisible();
  expect(await namesIn(list)).toEqual(['Lively Middle Investors', 'Rising Star Stocks']);

  await list.getByLabel('Sort by').selectOption({ label: 'Newest' });
  await expect(list.locator('.grid article').first()).toContainText('Rising Star Stocks');
  expect(await namesIn(list)).toEqual(['Rising Star Stocks', 'Lively Middle Investors']);
  await list.getByLabel('Sort by').selectOption({ label: 'Most Active' });
  await expect(list.locator('.grid article').first()).toContainText('Lively Middle Investors');

  // The URL shares the list: a reload shows the same filters and order.
  await expect(page).toHaveURL(/checked_24h=true/);
  await expect(page).toHaveURL(/sort=active/);
  await list.getByLabel('Sort by').selectOption({ label: 'Growing' });
  await expect(page).toHaveURL(/sort=growing/);
  await page.reload();
  await hydrated(page);
  await expect(list.getByLabel('Sort by')).toHaveValue('growing');
  await expect(list.getByRole('button', { name: 'Checked in the last 24 hours' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(list.getByText(`${countOf(2, 'server')} found`)).toBeVisible();
  expect(await namesIn(list)).toEqual(['Rising Star Stocks', 'Lively Middle Investors']);
  for (const name of HIDDEN) await expect(page.getByText(name)).toHaveCount(0);
});

/**
 * Fails every load of the cards' code (ServerCard's chunk) until `release`; `asked` lists the
 * loads the page tried.
 */
async function blockCardCode(page: Page) {
  const cardCode = /\/_astro\/ServerCard\.[^/]*\.js$/;
  const asked: string[] = [];
  page.on('request', (r) => {
    if (cardCode.test(r.url())) asked.push(r.url());
  });
  await page.route(cardCode, (route) => route.abort());
  return { asked, release: () => page.unroute(cardCode) };
}

test('a listing page loads its cards with its first answer, and says so when they cannot load', async ({ page }) => {
  const { asked, release } = await blockCardCode(page);
  await page.goto('/best-investing-discord');
  await hydrated(page);
  // The built listing needs no card code.
  expect(asked).toEqual([]);
  await page.getByLabel('Sort servers').selectOption({ label: 'Growing' });
  const results = page.locator('.search-results');
  await expect(results.getByRole('alert')).toContainText('Error loading servers');
  await expect(page.locator('.listing-static')).toBeHidden();
  await release();
  await page.getByLabel('Sort servers').selectOption({ label: 'Newest' });
  await expect(results.getByText(`${countOf(4, 'server')}, Newest first`)).toBeVisible();
  await expect(results.locator('.grid article')).toHaveCount(4);
});

test('the home loads its cards with its first answer, and says so when they cannot load', async ({ page }) => {
  const { asked, release } = await blockCardCode(page);
  await page.goto('/');
  await hydrated(page);
  // The built list and Premium Picks are static cards: no card code.
  expect(asked).toEqual([]);
  const list = page.locator('#servers');
  await expect(list.locator('.listing-static .grid article')).toHaveCount(9);
  await list.getByRole('button', { name: 'Investing', exact: true }).click();
  await expect(list.getByRole('alert')).toContainText('The servers could not be shown.');
  await expect(list.locator('.count')).toBeEmpty();
  await expect(list.locator('.grid article')).toHaveCount(0);
  await release();
  // A reload brings the card code back, in the state the URL keeps.
  const reloaded = page.waitForEvent('load');
  await list.getByRole('button', { name: 'Reload the page' }).click();
  await reloaded;
  await expect(page).toHaveURL(/\/\?category=investing$/);
  await hydrated(page);
  await expect(list.getByText(`${countOf(4, 'server')} found`)).toBeVisible();
  expect(await namesIn(list)).toEqual(INVESTING_BY_MEMBERS);
  // Back to every category: the built cards again, ranked as built.
  await list.getByRole('button', { name: 'All', exact: true }).click();
  await expect(list.locator('.listing-static .grid article')).toHaveCount(9);
  await expect(list.locator('.listing-static .grid article').first().locator('.rank-gold')).toHaveCount(1);
});

test('a listing page sorts through the API in place of the built grid, kept in the URL', async ({ page }) => {
  await page.goto('/best-investing-discord');
  await hydrated(page);
  const built = page.locator('.listing-static');
  expect(await namesIn(built)).toEqual(INVESTING_BY_MEMBERS);
  await page.getByLabel('Sort servers').selectOption({ label: 'Growing' });
  const results = page.locator('.search-results');
  await expect(results.getByText(`${countOf(4, 'server')}, Growing first`)).toBeVisible();
  await expect(built).toBeHidden();
  // Growth first, then members break the tie of the two that did not grow.
  expect(await namesIn(results)).toEqual([
    'Rising Star Stocks',
    'Lively Middle Investors',
    'Stale Giant Capital',
    'Dividend Investors Club',
  ]);
  await expect(page).toHaveURL(/\?sort=growing$/);
  // A page opened with a query hydrates at once, untouched (client:interaction), and shows its order.
  await page.reload();
  await expect(page.getByLabel('Sort servers')).toHaveValue('growing');
  await expect(results.locator('.grid article').first()).toContainText('Rising Star Stocks');
  await page.getByLabel('Sort servers').selectOption({ label: 'Most Members' });
  await expect(built).toBeVisible();
  await expect(page).toHaveURL(/\/best-investing-discord$/);
});

test('a listing page loads React once the visitor points at or touches its toolbar, not with the page', async ({
  page,
}) => {
  const react: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') react.push(new URL(r.url()).pathname);
  });
  await page.goto('/best-investing-discord', { waitUntil: 'networkidle' });
  const renderer = await page.locator('astro-island').getAttribute('renderer-url');
  expect(react, 'React before any interaction').not.toContain(renderer);
  expect(await unhydrated(page)).toBe(1);
  // The sort menu waits, disabled, for the script: a pointer over it starts the island.
  await expect(page.getByLabel('Sort servers')).toBeDisabled();
  await page.getByLabel('Sort servers').hover({ force: true });
  await expect(page.getByLabel('Sort servers')).toBeEnabled();
  expect(react).toContain(renderer);
});

test.describe('on a touch screen', () => {
  test.use({ hasTouch: true, viewport: { width: 390, height: 844 } });
  test('a tap on the folded Filters starts the listing page’s island, and a filter tapped while its code loads is applied', async ({
    page,
  }) => {
    await page.goto('/best-investing-discord', { waitUntil: 'networkidle' });
    expect(await unhydrated(page)).toBe(1);
    // The island's own code is held until both taps are made: they land before any handler (a
    // gate, not a delay: a delay of a second per script cost this test six).
    const component = await page.locator('astro-island').getAttribute('component-url');
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    await page.route(`**${component}`, async (route) => {
      await gate;
      await route.continue().catch(() => {});
    });
    // On a phone the filters and the order fold into one Filters control (a plain <details>).
    await page.locator('.toolbar summary', { hasText: 'Filters' }).tap();
    // Premium Only is the one filter offered before the script (its tap is replayed once it has run).
    await page.getByRole('button', { name: 'Premium Only' }).tap();
    expect(await unhydrated(page), 'tapped before the island hydrated').toBe(1);
    open();
    await expect(page.getByRole('button', { name: 'Premium Only' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page).toHaveURL(/[?&]premium=true(&|$)/);
    await expect(page.locator('.toolbar summary', { hasText: 'Filters' })).toHaveText('Filters (1 set)');
    await page.getByLabel('Sort servers').selectOption({ label: 'Newest' });
    await expect(page.locator('.search-results .count')).toContainText('premium only, Newest first');
  });

  test('a category chip tapped on the home while its code is on the way is applied once it has come', async ({
    page,
  }) => {
    await page.goto('/', { waitUntil: 'networkidle' });
    const list = page.locator('#servers');
    await list.scrollIntoViewIfNeeded();
    // The island's code is held until the tap is made: it lands before any handler.
    const release = await holdScripts(page);
    expect(await unhydrated(page, '#servers')).toBe(1);
    // On a phone the filters fold into one Filters control (a plain <details>): open it, then tap.
    await list.locator('summary', { hasText: 'Filters' }).tap();
    await list.getByRole('button', { name: 'Investing', exact: true }).tap();
    expect(await unhydrated(page, '#servers'), 'tapped before the island hydrated').toBe(1);
    release();
    await expect(list.getByText(`${countOf(4, 'server')} found`)).toBeVisible();
    expect(await namesIn(list)).toEqual(INVESTING_BY_MEMBERS);
    await expect(list.getByRole('button', { name: 'Investing', exact: true })).toHaveAttribute('aria-pressed', 'true');
  });
});

test('the build leaves dead and wrong_guild invites off listings, Premium Picks, counts and the sitemap', async ({
  page,
  request,
}) => {
  for (const path of ['/', '/servers', '/best-investing-discord', '/best-investing-discord/stocks-discord']) {
    const html = await (await request.get(path)).text();
    for (const name of HIDDEN) expect(html, `${path}: ${name}`).not.toContain(name);
    if (path !== '/') expect(html, path).toContain('Rising Star Stocks');
  }
  // The Investing tile counts the listed servers only.
  await page.goto('/');
  await expect(page.locator('.tile', { hasText: 'Investing' })).toContainText(
    `4 listed · ${formatMembers(500_000 + 23_700 + 20_000 + 3_000)} members`,
  );
  // Premium Picks: the sample set's premium and sponsored servers, never the hidden ones.
  await expect(page.locator('.section-premium')).not.toContainText('Dead Invite Guild');

  // A dead listing keeps its page, out of search results; a wrong_guild one has none.
  const dead = await request.get('/server/dead-invite-guild');
  expect(dead.status()).toBe(200);
  expect(await dead.text()).toMatch(/<meta name="robots" content="noindex/);
  expect((await request.get('/server/wrong-guild-lounge')).status()).toBe(404);
  expect((await request.get('/server/rising-star-stocks')).status()).toBe(200);

  // Server pages are in the server sitemap files (from the database, #18).
  const sitemap = await (await request.get('/sitemap-servers-0.xml')).text();
  expect(sitemap).toContain('/server/rising-star-stocks');
  expect(sitemap).not.toContain('/server/dead-invite-guild');
  expect(sitemap).not.toContain('/server/wrong-guild-lounge');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the home and a listing offer no filter or order they cannot apply, and the page says so', async ({
    page,
    request,
  }) => {
    await page.goto('/');
    const list = page.locator('#servers');
    // None of the home's filters can work without a script (its list is the island's): the fold
    // and every control in it are left out, the built order's list is shown.
    await expect(list.locator('.filters-fold')).toBeHidden();
    for (const name of ['All', 'Gaming', 'Premium Only', 'Checked in the last 24 hours']) {
      await expect(list.getByRole('button', { name, exact: true })).toBeHidden();
    }
    await expect(list.getByLabel('Sort by')).toBeHidden();
    expect(await namesIn(list)).not.toEqual([]);
    // A listing's neither (its sort menu was shown disabled on Most Members); its search stays.
    await page.goto('/best-investing-discord');
    await expect(page.locator('.toolbar .filters-fold')).toBeHidden();
    await expect(page.getByLabel('Sort servers')).toBeHidden();
    await expect(page.getByRole('button', { name: 'Premium Only' })).toBeHidden();
    await expect(page.getByRole('searchbox')).toBeVisible();
    expect(await namesIn(page.locator('.listing-static'))).toContain('Rising Star Stocks');
    // Chromium with scripts turned off by the test still parses <noscript> as a browser with
    // scripts would, so the note is read from the HTML a browser without JavaScript shows.
    expect(await (await request.get('/')).text()).toContain(
      '<noscript><p class="filter-note">The filters and sorting need JavaScript',
    );
    expect(await (await request.get('/best-investing-discord')).text()).toContain(
      '<noscript><p class="filter-note">The filters and sorting need JavaScript',
    );
  });
});
