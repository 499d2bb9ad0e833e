import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import type { Db } from '../../db/client';
import { createServer, type ServerWrite } from '../../db/queries/servers';
import { REFRESH_EVERY_MS } from '../../functions/_app/jobs/refresh';
import { SCHEDULE } from '../../src/lib/invite-checks/state';
import { PAID_SPACING } from '../../src/lib/placement';
import { ANOMALY } from '../../src/lib/ranking/anomalies';
import { NICHE_MIN_MEMBERS, RANK_EVERY_MS } from '../../src/lib/ranking/constants';
import { type FigureUnit, formatFigure } from '../../src/lib/ranking/explanation';
import { RANK, type RankParts } from '../../src/lib/ranking/formula';
import { serverSlug } from '../../src/lib/slug';
import { axe } from './axe';
import { signIn } from './console-sign-in';
import { expect } from './fixtures';
import { hydrated } from './hydration';
import { testWithOwnSite } from './own-site';

// Issue #19 in a browser: "How ranking works" prints the ranking code's own constants; a server
// page explains its rank; paid cards are labelled, explained and never more than one in five
// positions; the language filter on the home page and a category page, with the browser's
// language offered but never applied by itself. Screenshots: UPDATE_SCREENSHOTS=1 writes them to
// docs/screenshots/ (ranking-*.png, server-rank-*.png).

const HOUR = 3_600_000;
const checkedAt = new Date(Date.now() - 2 * HOUR).toISOString();

/** The fixture listing whose "Why this rank" the spec reads: its stored parts and score. */
const FIXTURE_PARTS: RankParts = {
  activity: 2.7,
  engagement: 1.1,
  growth: 0.1,
  interest: 0.05,
  freshness: 1,
  trust: 1,
  newness: 1,
  status: 1,
};
const FIXTURE_SCORE = 3.5937;

const gaming = (name: string, over: Partial<ServerWrite>): ServerWrite => ({
  name,
  description: 'A gaming community the ranking spec places, filters and explains.',
  category: 'Gaming',
  members: 1000,
  affiliate_link: `https://discord.gg/${name.toLowerCase().replace(/\W+/g, '')}`,
  invite_status: 'ok',
  last_ok_at: checkedAt,
  last_checked_at: checkedAt,
  ...over,
});

const test = testWithOwnSite('ranking', async (db: Db) => {
  // Three sponsored servers bigger than everything else: by members alone they would take the top three places.
  for (const [i, name] of ['Sponsor Alpha', 'Sponsor Beta', 'Sponsor Gamma'].entries()) {
    await createServer(db, gaming(name, { members: 900_000 - i * 100_000, is_sponsored: true, language: 'en' }));
  }
  await createServer(
    db,
    gaming('Placement Dated Guild', {
      members: 850_000,
      is_premium: true,
      placement_started_at: '2026-03-01T00:00:00.000Z',
      placement_ends_at: '2026-05-31T00:00:00.000Z',
    }),
  );
  for (let i = 0; i < 8; i++) {
    await createServer(
      db,
      gaming(`Organic ${i < 4 ? 'Français' : 'English'} ${i}`, {
        members: 90_000 - i * 1000,
        language: i < 4 ? 'fr' : 'en',
        region: i < 4 ? 'FR' : 'GB',
      }),
    );
  }
  await createServer(
    db,
    gaming('Rank Fixture Guild', {
      members: 5_000,
      active_users: 500,
      rank_score: FIXTURE_SCORE,
      rank_explain: FIXTURE_PARTS as unknown as Record<string, number>,
      // What the recompute stores beside a score (category_place): second, behind Rank Runner Up.
      category_place: 2,
      language: 'fr',
    }),
  );
  await createServer(
    db,
    gaming('Rank Runner Up', { members: 4_000, rank_score: 5, category_place: 1, language: 'en' }),
  );
});

/** Whether every window of PAID_SPACING cards holds at most one paid card. */
async function expectSpaced(cards: Locator) {
  const flags = await cards.evaluateAll((els) => els.map((el) => el.hasAttribute('data-paid')));
  expect(flags.length).toBeGreaterThan(PAID_SPACING);
  expect(flags.filter(Boolean).length).toBeGreaterThan(1);
  // The trailing paid cards nothing could space out may stand together; the rest hold the rule.
  let tail = flags.length;
  while (tail > 0 && flags[tail - 1]) tail--;
  for (let i = 0; i < flags.length; i++) {
    const window = flags.slice(i, i + PAID_SPACING);
    if (window.filter(Boolean).length <= 1) continue;
    const second = i + window.indexOf(true, window.indexOf(true) + 1);
    expect(
      second,
      `cards ${i + 1}..${i + PAID_SPACING}: two paid cards before the trailing ones`,
    ).toBeGreaterThanOrEqual(tail);
  }
}

/** The page is no wider than the window (no sideways scroll). */
async function expectFits(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

/** A screenshot in the test's output, copied to docs/screenshots/ when asked to. */
async function screenshot(target: Page | Locator, name: string, outputPath: (n: string) => string) {
  const path = outputPath(name);
  await target.screenshot({ path, ...('goto' in target ? { fullPage: true } : {}) });
  if (process.env.UPDATE_SCREENSHOTS) copyFileSync(path, join('docs', 'screenshots', name));
}

const CONSTANTS: Record<string, number> = {
  ...Object.fromEntries(Object.entries(RANK).map(([k, v]) => [`RANK.${k}`, v])),
  ...Object.fromEntries(Object.entries(ANOMALY).map(([k, v]) => [`ANOMALY.${k}`, v])),
  'SCHEDULE.okMs': SCHEDULE.okMs,
  'SCHEDULE.okJitter': SCHEDULE.okJitter,
  'SCHEDULE.pausedMs': SCHEDULE.pausedMs,
  NICHE_MIN_MEMBERS,
  RANK_EVERY_MS,
  REFRESH_EVERY_MS,
  PAID_SPACING,
};

test('How ranking works prints the ranking code’s constants, every one of them', async ({ page }, testInfo) => {
  await page.goto('/ranking');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('How ranking works');
  const figures = await page.locator('data[data-constant]').evaluateAll((els) =>
    els.map((el) => ({
      name: el.getAttribute('data-constant') ?? '',
      value: el.getAttribute('value') ?? '',
      unit: el.getAttribute('data-unit') ?? '',
      text: el.textContent ?? '',
    })),
  );
  for (const f of figures) {
    expect(Object.hasOwn(CONSTANTS, f.name), `${f.name} is a constant of the code`).toBe(true);
    expect(Number(f.value), f.name).toBe(CONSTANTS[f.name]);
    expect(f.text, f.name).toBe(formatFigure(CONSTANTS[f.name]!, f.unit as FigureUnit));
  }
  // Every weight and cap of the score and every anomaly threshold is on the page.
  const shown = new Set(figures.map((f) => f.name));
  for (const name of Object.keys(CONSTANTS)) expect(shown, name).toContain(name);
  // What never counts, and where the page is linked from.
  for (const never of ['Payment.', 'Votes.', 'Bumps.'])
    await expect(page.getByText(never, { exact: true })).toBeVisible();
  await expect(page.locator('footer').getByRole('link', { name: 'How ranking works' })).toHaveAttribute(
    'href',
    '/ranking',
  );
  // In the sitemap: the index's files, read through.
  const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
  const files = locs(await (await page.request.get('/sitemap-index.xml')).text());
  const urls = (await Promise.all(files.map(async (f) => locs(await (await page.request.get(f)).text())))).flat();
  expect(urls).toContain('/ranking');

  await page.setViewportSize({ width: 1280, height: 900 });
  await screenshot(page, 'ranking-desktop.png', (n) => testInfo.outputPath(n));
  await page.setViewportSize({ width: 320, height: 800 });
  await expectFits(page);
  await screenshot(page, 'ranking-320.png', (n) => testInfo.outputPath(n));
});

test('a server page explains its rank in its category and the parts of its score', async ({ page }, testInfo) => {
  await page.goto('/server/rank-fixture-guild');
  const why = page.locator('[data-rank-why]');
  await expect(why.getByRole('heading', { name: 'Why this rank' })).toBeVisible();
  // Rank Runner Up scores higher; the sample Gaming servers and the fixtures above score 0 (not ranked).
  await expect(why.locator('.rank-place')).toHaveText('#2 in Gaming by score (Most Active).');
  await expect(why.locator('li')).toHaveText([
    'About 500 people online at the median check of the last 7 days (activity 2.7, on a log scale).',
    'Online share above the niche median (×1.1).',
    'Growth capped: members grew more than +10 % in 30 days; it counts as +10 % (×1.1).',
    'Join clicks per view over 7 days (one per visitor and day): ×1.1.',
    'Invite found working within 36 hours of the last recompute: full freshness (×1).',
    'No open reports or anomaly flags (×1).',
    `Score ${FIXTURE_SCORE}: the product of the parts above.`,
  ]);
  // The check's absolute time, and how long ago in the visitor's clock.
  const time = why.locator('time[data-since]');
  await expect(time).toHaveAttribute('datetime', checkedAt);
  await expect(time).toHaveText(`2 hours ago (${checkedAt.slice(0, 10)} ${checkedAt.slice(11, 16)} UTC)`);
  await expect(why.getByRole('link', { name: 'How ranking works' })).toHaveAttribute('href', '/ranking');

  await page.setViewportSize({ width: 1280, height: 900 });
  await why.scrollIntoViewIfNeeded();
  await screenshot(why, 'server-rank-desktop.png', (n) => testInfo.outputPath(n));
  await page.setViewportSize({ width: 320, height: 800 });
  await expectFits(page);
  await screenshot(why, 'server-rank-320.png', (n) => testInfo.outputPath(n));
});

test('paid cards carry their label and placement note and take at most one in five positions', async ({
  page,
}, testInfo) => {
  await page.goto('/best-gaming-discord');
  const cards = page.locator('.listing-static .grid article');
  await expectSpaced(cards);
  // The head of the category (the Sponsored plans): the sponsored servers lead, in members order,
  // spaced by four organic cards, with no rank number; the premium one is never moved up.
  const first = cards.nth(0);
  await expect(first).toContainText('Sponsor Alpha');
  await expect(first.locator('.badge-sponsored')).toHaveText('Sponsored');
  await expect(first.getByRole('img', { name: /^Rank/ })).toHaveCount(0);
  await expect(cards.nth(1).getByRole('img', { name: 'Rank 1' })).toBeVisible();
  await expect(cards.nth(PAID_SPACING)).toContainText('Sponsor Beta');
  await expect(cards.nth(PAID_SPACING).locator('.badge-sponsored')).toHaveText('Sponsored');
  await expect(cards.nth(PAID_SPACING + 1).getByRole('img', { name: 'Rank 5' })).toBeVisible();
  await expect(cards.nth(2 * PAID_SPACING)).toContainText('Sponsor Gamma');
  // A distinct background, not only a label.
  const background = (card: Locator) => card.evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(await background(first)).not.toBe(await background(cards.nth(1)));

  // "About this placement" opens from the keyboard and says who paid, for how long, and what it does not change.
  const note = first.locator('details.placement');
  await note.locator('summary').focus();
  await page.keyboard.press('Enter');
  await expect(note).toHaveAttribute('open', '');
  await expect(note).toContainText('Sponsored placement paid for by the owner of Sponsor Alpha.');
  await expect(note).not.toContainText('not recorded');
  await expect(note).toContainText('It does not change the organic rank');
  const dated = cards.filter({ hasText: 'Placement Dated Guild' }).locator('details.placement');
  await dated.locator('summary').click();
  await expect(dated).toContainText(
    'Premium placement paid for by the owner of Placement Dated Guild, until 31\u00a0May\u00a02026.',
  );
  // Every paid card says so in words.
  for (const card of await cards.filter({ has: page.locator('details.placement') }).all()) {
    await expect(card.locator('.badge-sponsored, .badge-premium').first()).toBeVisible();
  }

  // The two paid servers no unpaid one was left to space out (the fourth sponsored one, then the
  // premium one): cards at the end of the list, never left out.
  const count = await cards.count();
  await expect(cards.nth(count - 1)).toContainText('Placement Dated Guild');
  await expect(cards.nth(count - 2)).toContainText('Apex Legends Hub');
  await expect(cards.nth(count - 2).locator('.badge-sponsored')).toHaveText('Sponsored');
  await expect(page.getByRole('complementary', { name: /More paid placements/ })).toHaveCount(0);

  // On a 320 px phone the open note fits; a screenshot of the disclosed card.
  await page.setViewportSize({ width: 320, height: 800 });
  await expectFits(page);
  await screenshot(first, 'ranking-sponsored-card-320.png', (n) => testInfo.outputPath(n));

  // The home list and a sorted listing (the API's answer) keep the same rule.
  await page.goto('/');
  await hydrated(page);
  await expectSpaced(page.locator('#servers .grid article'));
  await page.goto('/best-gaming-discord?sort=active');
  await hydrated(page);
  const sorted = page.locator('.search-results .grid article');
  await expect(sorted.first()).toBeVisible();
  await expectSpaced(sorted);
  // The sort control links the ranking page.
  await expect(page.getByRole('link', { name: 'How ranking works' }).first()).toHaveAttribute('href', '/ranking');
});

test('the home page filters by language, and offers the browser’s language without applying it', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ baseURL: baseURL!, locale: 'fr-FR' });
  const page = await context.newPage();
  await page.goto('/');
  await hydrated(page);
  const list = page.locator('#servers');
  // Offered, not applied: the list still holds servers in other languages.
  const offer = list.getByRole('button', { name: 'Show French servers' });
  await expect(offer).toBeVisible();
  await expect(list.getByLabel('Language')).toHaveValue('');
  await expect(list.locator('.grid article').filter({ hasText: 'Sponsor Alpha' })).toHaveCount(1);

  await offer.click();
  await expect(list.getByLabel('Language')).toHaveValue('fr');
  await expect(page).toHaveURL(/language=fr/);
  await expect(list.getByText('5 servers found')).toBeVisible();
  const cards = list.locator('.grid article');
  await expect(cards).toHaveCount(5);
  for (const card of await cards.all()) await expect(card.locator('.badge-lang')).toContainText('French');
  await expect(offer).toHaveCount(0);

  await list.getByLabel('Language').selectOption({ label: 'Any language' });
  await expect(list.locator('.grid article').filter({ hasText: 'Sponsor Alpha' })).toHaveCount(1);
  await context.close();
});

test('a category page filters by language through the API, kept in the URL', async ({ page }) => {
  await page.goto('/best-gaming-discord');
  await hydrated(page);
  await page.getByLabel('Language').selectOption('en');
  const results = page.locator('.search-results');
  await expect(results.getByText('9 servers in English')).toBeVisible();
  await expect(page.locator('.listing-static')).toBeHidden();
  for (const card of await results.locator('.grid article').all()) {
    await expect(card.locator('.badge-lang')).toContainText('English');
  }
  await expectSpaced(results.locator('.grid article'));
  await expect(page).toHaveURL(/\?language=en$/);
  await page.reload();
  await hydrated(page);
  await expect(page.getByLabel('Language')).toHaveValue('en');
  await expect(results.getByText('9 servers in English')).toBeVisible();

  // The region menu offers the regions the category's servers name, and combines with the language.
  await page.getByLabel('Language').selectOption('');
  const region = page.getByLabel('Region');
  expect(await region.locator('option').allTextContents()).toEqual([
    'Any region',
    'France',
    'Germany',
    'United Kingdom',
  ]);
  await region.selectOption({ label: 'France' });
  await expect(results.getByText('4 servers from France')).toBeVisible();
  for (const card of await results.locator('.grid article').all())
    await expect(card.locator('.badge-lang')).toContainText('French · FR');
  await expect(page).toHaveURL(/\?region=FR$/);
  await page.getByLabel('Language').selectOption('en');
  await expect(results.getByText('No Gaming server in English from France is listed yet.')).toBeVisible();
});

for (const path of ['/ranking', '/server/rank-fixture-guild', '/best-gaming-discord']) {
  test(`axe finds no WCAG 2.2 AA violation on ${path}, placement notes open`, async ({ page }) => {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    for (const note of await page.locator('details.placement').all())
      await note.evaluate((d) => d.setAttribute('open', ''));
    const results = await axe(page)
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
}

// Last: its approval rebuilds this spec's site (an Investing listing, away from the Gaming fixtures).
test('an owner gives a language and region, the reviewer corrects the language, and the card shows it', async ({
  page,
  site,
  request,
}) => {
  const name = `Lingua Investors ${Math.random().toString(36).slice(2, 8)}`;
  await page.goto('/submit-server');
  await hydrated(page);
  await page.getByLabel('Server name').fill(name);
  await page.getByRole('combobox', { name: 'Category *' }).selectOption('Investing');
  await page.getByLabel('Primary language').selectOption({ label: 'Spanish (Español)' });
  await page.getByLabel('Region').selectOption({ label: 'Mexico' });
  await page.getByLabel('Description').fill('Long-term investors comparing dividend portfolios every week.');
  await page.getByLabel('Invite link').fill('https://discord.gg/linguainvest');
  await page.getByLabel('Icon URL').fill('https://example.com/lingua.png');
  await page.getByLabel('Your name').fill('Ana');
  await page.getByLabel('Contact email').fill('ana@example.com');
  await page.getByLabel(/I accept the/).check();
  await page.getByRole('button', { name: 'Submit Server for Review' }).click();
  await expect(page.getByRole('heading', { name: 'Submission Received!' })).toBeVisible();

  await signIn(page, site.db);
  await page.goto('/admin#submissions');
  await page
    .getByRole('row', { name: new RegExp(name) })
    .getByRole('button', { name: /Review/ })
    .click();
  const detail = page.locator('article.detail');
  await expect(detail).toContainText('Español (Spanish) · Mexico');
  await detail.getByLabel('Language (stored on the listing at approval)').selectOption({ label: 'Portuguese' });
  await page.getByRole('button', { name: 'Approve and publish' }).click();
  await expect(page.getByText(`Approved “${name}”`)).toBeVisible();

  const slug = serverSlug(name);
  await expect
    .poll(async () => (await request.get('/best-investing-discord')).text(), { timeout: 120_000, intervals: [500] })
    .toContain(`/server/${slug}`);
  await page.goto('/best-investing-discord');
  const card = page.locator('.listing-static .grid article').filter({ hasText: name });
  await expect(card.locator('.badge-lang')).toHaveText('Language: Portuguese · MX');
});
