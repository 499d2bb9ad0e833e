// Issue 28 items 1, 3, 4, 14 and 15 on a site of its own: the sample servers plus a DeFi
// subcategory of more than two pages (free listings, then paid ones nothing can space out), built
// with two prerendered listing pages so a third is rendered on request. The same build has only
// Turnstile's site key (issue #14's build with one key, turnstile.ts): none of these tests sends a
// public form, and a build of its own for that one case would cost a full Astro build.
import type { Page } from '@playwright/test';
import type { Db } from '../../db/client';
import { createServer, type ServerWrite } from '../../db/queries/servers';
import { signIn } from './console-sign-in';
import { expect } from './fixtures';
import { hydrated } from './hydration';
import { testWithOwnSite } from './own-site';
import { expectNoWidgetOnAnyForm, SITE_KEY_ONLY } from './turnstile';

const FREE_DEFI = 60;
const PAID_DEFI = ['Paid Vault One', 'Paid Vault Two', 'Paid Vault Three'];
const ALL_DEFI = FREE_DEFI + PAID_DEFI.length;
const DEFI = '/best-crypto-discord/defi-discord';

const defi = (name: string, over: Partial<ServerWrite>): ServerWrite => ({
  name,
  description: 'A DeFi yield community for the listings spec.',
  category: 'Crypto',
  subcategory: 'DeFi',
  members: 1000,
  affiliate_link: `https://discord.gg/${name.toLowerCase().replace(/\W+/g, '')}`,
  invite_status: 'ok',
  ...over,
});

const test = testWithOwnSite(
  'listings',
  async (db: Db) => {
    for (let i = 0; i < FREE_DEFI; i++) {
      await createServer(db, defi(`Yield Farm ${String(i).padStart(2, '0')}`, { members: 50_000 - i * 100 }));
    }
    // The smallest DeFi servers, paid: one is spaced out, two end the list (issue 28 item 1).
    for (const [i, name] of PAID_DEFI.entries())
      await createServer(db, defi(name, { members: 30 - i, is_premium: true }));
  },
  { PRERENDER_LISTING_PAGES: '2', ...SITE_KEY_ONLY },
);

test('a build with only the Turnstile site key shows no widget on any form and loads no script', async ({ page }) => {
  await expectNoWidgetOnAnyForm(page);
});

/** The names on a listing page's built cards, in order. */
const builtNames = (page: Page) => page.locator('.listing-static article.card .card-name').allTextContents();

/** The number a text states, commas removed. */
const numberIn = (text: string | null, pattern: RegExp) => Number(pattern.exec(text ?? '')?.[1]?.replace(/,/g, ''));

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the hero counts every listed server, as the home list and GET /api/servers do (320 px)', async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width: 320, height: 800 });
    await page.goto('/');
    const hero = numberIn(await page.locator('.hero-stats').textContent(), /([\d,]+) servers? reviewed/);
    const list = numberIn(await page.locator('#servers .count').textContent(), /([\d,]+) servers? found/);
    const api = (await (await request.get('/api/servers?per_page=1')).json()) as { total: number };
    expect(hero).toBeGreaterThan(ALL_DEFI);
    expect(list).toBe(hero);
    expect(api.total).toBe(hero);
    // The DeFi listing's paid servers nothing could space out are in its answer, at the end.
    const defiAnswer = (await (
      await request.get('/api/servers?category=Crypto&subcategory=defi&per_page=100')
    ).json()) as { total: number; servers: { name: string }[] };
    expect(defiAnswer.total).toBe(ALL_DEFI);
    expect(defiAnswer.servers.map((s) => s.name).slice(-2)).toEqual(PAID_DEFI.slice(1));
  });

  for (const width of [390, 1280]) {
    test(`a subcategory pages like a category: every server once over its pages, page 2 built, page 3 on request (${width} px)`, async ({
      page,
      request,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(DEFI);
      await expect(page.getByRole('region', { name: 'DeFi statistics' }).getByText(String(ALL_DEFI))).toBeVisible();
      const names: string[] = [];
      for (let n = 1; n <= 3; n++) {
        if (n > 1) {
          await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Next' }).click();
          await expect(page).toHaveURL(new RegExp(`${DEFI}/page/${n}$`));
          await expect(page.getByRole('heading', { level: 1 })).toContainText(`(page ${n})`);
        }
        names.push(...(await builtNames(page)));
      }
      await expect(page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Next' })).toHaveCount(0);
      expect(names).toHaveLength(ALL_DEFI);
      expect(new Set(names).size).toBe(ALL_DEFI);
      // The paid ones nothing could space out end the last page, as cards.
      expect(names.slice(-2)).toEqual(PAID_DEFI.slice(1));
      // Past the last page: its listing's first page; the sitemap names every page.
      const past = await request.get(`${DEFI}/page/4`, { maxRedirects: 0 });
      expect(past.status()).toBe(301);
      expect(past.headers().location).toBe(DEFI);
      const sitemap = await (await request.get('/sitemap-0.xml')).text();
      expect(sitemap).toContain(`${DEFI}/page/3</loc>`);
      expect(sitemap).not.toContain(`${DEFI}/page/4</loc>`);
    });

    test(`search is a plain GET answered with the matches, within a category page's own category (${width} px)`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      // The home's hero form.
      await page.goto('/');
      await page.getByRole('searchbox', { name: 'Search servers' }).fill('bitcoin');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await expect(page).toHaveURL(/\/search\?search=bitcoin$/);
      await expect(page.locator('.search-results .count')).toHaveText('1 server found for “bitcoin” Clear search');
      await expect(page.locator('article.card .card-name')).toHaveText(['Bitcoin Maximalists']);
      // The advertised deep link answers the same.
      await page.goto('/?search=bitcoin');
      await expect(page).toHaveURL(/\/search\?search=bitcoin$/);
      await expect(page.locator('.search-results .count')).toContainText('1 server found for “bitcoin”');
      await page.getByRole('link', { name: 'Clear search' }).click();
      await expect(page).toHaveURL(/\/#servers$/);

      // A category page's form keeps the visitor in Crypto, and pages through the matches.
      await page.goto('/best-crypto-discord');
      await page.getByRole('searchbox', { name: 'Search Crypto servers' }).fill('yield');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await expect(page).toHaveURL(/\/search\?search=yield&category=crypto$/);
      await expect(page.locator('.search-results .count')).toContainText(`${ALL_DEFI} servers found for “yield”`);
      const first = await page.locator('article.card .card-name').allTextContents();
      expect(first).toHaveLength(24);
      await expect(page.locator('article.card .badge-cat')).toHaveText(Array(24).fill('Crypto'));
      await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Next' }).click();
      const second = await page.locator('article.card .card-name').allTextContents();
      expect(second.filter((n) => first.includes(n))).toEqual([]);
      // A term found only outside Crypto finds nothing here.
      await page.getByRole('searchbox', { name: 'Search Crypto servers' }).fill('apex');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await expect(page.locator('.search-results .count')).toContainText('0 servers found for “apex”');
      await expect(page.getByRole('heading', { name: 'No servers found' })).toBeVisible();
      await page.getByRole('link', { name: 'Clear search' }).click();
      await expect(page).toHaveURL(/\/best-crypto-discord$/);
      // A subcategory page's search stays in the subcategory.
      await page.goto(DEFI);
      await page.getByRole('searchbox', { name: 'Search DeFi servers' }).fill('vault');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await expect(page).toHaveURL(/\/search\?search=vault&category=crypto&subcategory=defi-discord$/);
      await expect(page.locator('.search-results .count')).toContainText('3 servers found for “vault”');
      const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
      expect(fits).toBe(true);
    });
  }
});

test('the category chip and a listing page search are kept in the URL and come back on reload (390 px)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await hydrated(page);
  // On a phone the filter bar is folded into one "Filters" control: open it first.
  await page.locator('summary', { hasText: 'Filters' }).click();
  const chips = page.getByRole('group', { name: 'Category' });
  await chips.getByRole('button', { name: 'Crypto', exact: true }).click();
  await expect(page).toHaveURL(/[?&]category=crypto(&|$)/);
  await page.getByRole('button', { name: 'Premium Only' }).click();
  await expect(page).toHaveURL(/[?&]premium=true(&|$)/);
  const count = page.locator('#servers .count');
  await expect(count).not.toHaveText(/Loading/);
  const filtered = await count.textContent();
  await page.reload();
  await hydrated(page);
  // The folded bar says how many filters the URL set; open it to see them.
  const fold = page.locator('summary', { hasText: 'Filters' });
  await expect(fold).toContainText('2 set');
  await fold.click();
  await expect(chips.getByRole('button', { name: 'Crypto', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: 'Premium Only' })).toHaveAttribute('aria-pressed', 'true');
  await expect(count).toHaveText(filtered!);
  await expect(page.locator('#servers article.card .badge-cat').first()).toHaveText('Crypto');

  // A category page's search goes into its URL; that URL answers the same matches when reloaded
  // or shared (the server gives it the search page of that category).
  await page.goto('/best-crypto-discord');
  await hydrated(page);
  await page.getByRole('searchbox', { name: 'Search Crypto servers' }).fill('vault');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText('3 servers found for “vault”')).toBeVisible();
  await expect(page).toHaveURL(/\/best-crypto-discord\?search=vault$/);
  await page.reload();
  await expect(page.locator('.search-results .count').first()).toContainText('3 servers found for “vault”');
  await expect(page.locator('article.card:visible .badge-cat')).toHaveText(['Crypto', 'Crypto', 'Crypto']);
});

test('with JavaScript a sorted subcategory shows more on request, every server once (1280 px)', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${DEFI}?sort=newest`);
  await hydrated(page);
  const cards = page.locator('.search-results article.card');
  await expect(cards).toHaveCount(24);
  await page.getByRole('button', { name: 'Show more servers' }).click();
  await expect(cards).toHaveCount(48);
  await page.getByRole('button', { name: 'Show more servers' }).click();
  await expect(cards).toHaveCount(ALL_DEFI);
  await expect(page.getByRole('button', { name: 'Show more servers' })).toHaveCount(0);
  expect(new Set(await cards.locator('.card-name').allTextContents()).size).toBe(ALL_DEFI);
});

test('the console says the Education sample is not listed, as the site answers 404 for it, and offers only listed categories', async ({
  page,
  site,
  request,
}) => {
  expect((await request.get('/server/study-together')).status()).toBe(404);
  await signIn(page, site.db);
  await page.goto('/admin#servers');
  const search = page.getByRole('form', { name: 'Search' });
  await search.getByRole('searchbox').fill('Study Together');
  await search.getByRole('button', { name: 'Search', exact: true }).click();
  const row = page.getByRole('row', { name: /Study Together/ });
  await expect(row).toContainText('Not listed: Education is not a category the site shows');
  // No link to a page the site does not have.
  await expect(row.getByRole('link', { name: 'Study Together' })).toHaveCount(0);
  await row.getByRole('button', { name: /^Edit/ }).click();
  const category = page.getByRole('combobox', { name: 'Category' });
  await expect(category.locator('option:not([disabled])')).toHaveText([
    'Gaming',
    'Crypto',
    'Trading',
    'Sports Betting',
    'Investing',
  ]);
  await expect(category.locator('option[disabled]')).toHaveText('Education (not listed: choose a category)');
});
