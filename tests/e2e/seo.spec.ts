import { expect, test } from './fixtures';

/** Every JSON-LD object of the current page, flattened. */
async function jsonLd(page: import('@playwright/test').Page): Promise<{ '@type': string; [k: string]: unknown }[]> {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  return blocks.flatMap((b) => JSON.parse(b));
}

test('the home page carries title, canonical, social cards, theme colour and structured data', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle(/GuildRank/);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', 'http://localhost:4321/');
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#6366f1');
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', /GuildRank/);
  await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary_large_image');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'index, follow');
  const ld = await jsonLd(page);
  const types = ld.map((o) => o['@type']);
  expect(types).toEqual(expect.arrayContaining(['Organization', 'WebSite', 'ItemList']));
  const site = ld.find((o) => o['@type'] === 'WebSite') as unknown as {
    potentialAction: { target: { urlTemplate: string } };
  };
  expect(site.potentialAction.target.urlTemplate).toBe('http://localhost:4321/search?search={search_term_string}');
  const list = ld.find((o) => o['@type'] === 'ItemList') as unknown as { itemListElement: unknown[] };
  expect(list.itemListElement.length).toBeGreaterThan(0);
  expect(list.itemListElement.length).toBeLessThanOrEqual(10);
});

test('page titles get the GuildRank suffix once', async ({ page }) => {
  await page.goto('/help');
  await expect(page).toHaveTitle('Help Center | GuildRank');
});

test('category, subcategory and server pages carry a BreadcrumbList', async ({ page }) => {
  for (const path of ['/best-crypto-discord', '/best-crypto-discord/bitcoin-discord', '/server/bitcoin-maximalists']) {
    await page.goto(path);
    const types = (await jsonLd(page)).map((o) => o['@type']);
    expect(types, path).toContain('BreadcrumbList');
  }
});

test('robots.txt, the sitemap and the manifest are served; personal pages stay out of the sitemap', async ({
  request,
}) => {
  const robots = await (await request.get('/robots.txt')).text();
  expect(robots).toContain('Sitemap: http://localhost:4321/sitemap-index.xml');
  const index = await request.get('/sitemap-index.xml');
  expect(index.status()).toBe(200);
  const sitemap = await (await request.get('/sitemap-0.xml')).text();
  expect(sitemap).toContain('/best-gaming-discord');
  expect(sitemap).not.toMatch(/not-found|\/saved|\/offline/);
  // Server pages come from the database, 50,000 ids per file (#18).
  expect(await (await request.get('/sitemap-servers-0.xml')).text()).toContain('/server/apex-legends-hub');
  const manifest = await (await request.get('/manifest.webmanifest')).json();
  expect(manifest.theme_color).toBe('#6366f1');
});

test.describe('with the service worker', () => {
  // The config blocks it for every other spec (playwright.config.ts).
  test.use({ serviceWorkers: 'allow' });

  test('the service worker registers on load and serves the offline page when the network is gone', async ({
    page,
    context,
  }) => {
    await page.goto('/');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await expect
      .poll(() =>
        page.evaluate(() =>
          caches
            .open('gr-pages-v1')
            .then((c) => c.match('/offline'))
            .then(Boolean),
        ),
      )
      .toBe(true);
    await context.setOffline(true);
    await page.goto('/help').catch(() => {});
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are offline');
    await context.setOffline(false);
  });
});

test('server pages share their category image, and it is served', async ({ page, request }) => {
  await page.goto('/server/nfl-betting-edge');
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute(
    'content',
    'http://localhost:4321/og/sports-betting.jpg',
  );
  const image = await request.get('/og/sports-betting.jpg');
  expect(image.status()).toBe(200);
  expect(image.headers()['content-type']).toBe('image/jpeg');
});
