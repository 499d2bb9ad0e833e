import { CATEGORIES, categoryPath, SUBCATEGORIES, subcategoryPath } from '../../src/lib/categories';
import { expect, test } from './fixtures';

const LISTED_SAMPLES = [
  ['apex-legends-hub', 'Apex Legends Hub'],
  ['bitcoin-maximalists', 'Bitcoin Maximalists'],
  ['forex-signals-room', 'Forex Signals Room'],
  ['nfl-betting-edge', 'NFL Betting Edge'],
  ['dividend-investors-club', 'Dividend Investors Club'],
  ['indie-game-devs', 'Indie Game Devs'],
] as const;

/** The first <h1> of an HTML document, tags stripped. */
const h1 = (html: string) =>
  /<h1[^>]*>([\s\S]*?)<\/h1>/
    .exec(html)?.[1]
    ?.replace(/<[^>]+>/g, '')
    .trim();

test('every category page answers 200 with its title and its servers', async ({ request }) => {
  for (const c of CATEGORIES) {
    const res = await request.get(categoryPath(c.slug));
    expect(res.status(), c.slug).toBe(200);
    const html = await res.text();
    expect(h1(html)).toBe(c.title);
  }
  const gaming = await (await request.get('/best-gaming-discord')).text();
  expect(gaming).toContain('Apex Legends Hub');
  expect(gaming).toContain('Indie Game Devs');
  expect(gaming).not.toContain('Bitcoin Maximalists');
});

test('all 21 subcategory pages answer 200 with their titles', async ({ request }) => {
  expect(SUBCATEGORIES).toHaveLength(21);
  for (const s of SUBCATEGORIES) {
    const res = await request.get(subcategoryPath(s));
    expect(res.status(), subcategoryPath(s)).toBe(200);
    expect(h1(await res.text())).toBe(s.title);
  }
  const nfl = await (await request.get('/best-sports-betting-discord/nfl-betting-discord')).text();
  expect(nfl).toContain('NFL Betting Edge');
});

test('every active listed server has a static page; the unlisted Education one does not', async ({ request }) => {
  for (const [slug, name] of LISTED_SAMPLES) {
    const res = await request.get(`/server/${slug}`);
    expect(res.status(), slug).toBe(200);
    expect(h1(await res.text())).toBe(name);
  }
  expect((await request.get('/server/study-together')).status()).toBe(404);
});

test('the static pages answer 200 with their headings', async ({ request }) => {
  const pages: [string, string][] = [
    ['/', 'Find the Best Discord Servers'],
    ['/servers', 'All Discord Servers'],
    ['/submit-server', 'Submit Your Server'],
    ['/submit-server/received', 'Submission Received!'],
    ['/help', 'Help Center'],
    ['/contact', 'Contact Us'],
    ['/saved', 'Saved Servers'],
    ['/offline', 'You are offline'],
  ];
  for (const [path, heading] of pages) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    expect(h1(await res.text()), path).toBe(heading);
  }
});

test('an unknown category answers 404 with Category Not Found listing the five real categories', async ({ page }) => {
  const res = await page.goto('/best-anime-discord');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Category Not Found');
  for (const c of CATEGORIES) {
    await expect(page.getByRole('main').getByRole('link', { name: c.name, exact: true })).toHaveAttribute(
      'href',
      categoryPath(c.slug),
    );
  }
  await expect(page.getByText(/anime|technology|fitness|nsfw/i)).toHaveCount(0);
});

test('an unknown subcategory answers 404 with Subcategory Not Found', async ({ page }) => {
  const res = await page.goto('/best-gaming-discord/chess-discord');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Subcategory Not Found');
});

test('an unknown server answers 404 naming the slug, with a home link', async ({ page }) => {
  const res = await page.goto('/server/no-such-server');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Server not found');
  await expect(page.getByText('Server not found for slug: no-such-server')).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
});

test('an unknown path answers 404 with the not-found page, marked noindex', async ({ page }) => {
  const res = await page.goto('/definitely/not/here');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page Not Found');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
});
