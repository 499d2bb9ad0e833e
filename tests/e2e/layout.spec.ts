import type { Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { createContactMessage } from '../../db/queries/contact';
import { insertInteractions } from '../../db/queries/interactions';
import { signUpEmail, subscribeEmail } from '../../db/queries/newsletter';
import { createOperator } from '../../db/queries/operators';
import { createReport } from '../../db/queries/reports';
import { createServer } from '../../db/queries/servers';
import { insertSubmission } from '../../db/queries/submissions';
import {
  discordServers,
  mailOutbox,
  ownerUsers,
  reviewFlags,
  reviewReplies,
  reviews,
  serverReports,
} from '../../db/schema';
import { paidOrder } from '../helpers/placements';
import { expectReadableChart } from './chart-check';
import { expect } from './fixtures';
import { hydrated } from './hydration';
import { brokenWords, expectNumbersWhole, expectOneLine } from './numbers';
import { testWithOwnSite } from './own-site';
import { PUBLIC_PAGE_TYPES } from './pages';
import { withoutJavaScript } from './plain-browser';

// Issue #13 item 1: every page type fits a phone (320, 360 and 390 px wide) with no sideways
// scroll. This spec builds its own site: the sample servers plus enough Gaming ones for a second
// page, and rows with long unbroken words (names, tags, a subcategory, an email) where a narrow
// column would otherwise be pushed wider than the screen.

const WIDTHS = [320, 360, 390] as const;
const PASSWORD = 'layout-spec-password-1';
const ADMIN = 'layout-admin@example.com';
const LONG_WORD = 'Supercalifragilisticexpialidociousgamers';
const LONG_SLUG = 'supercalifragilisticexpialidociousgamers-united';
const PODIUM: [string, number][] = [
  ['Podium Probe Macro Desk International', 412_300],
  ['Podium Probe Swing Traders Collective', 318_000],
  ['Podium Probe Futures And Options Floor', 249_500],
];
const PENDING = 'waiting-to-confirm@example.com';

/** The Crypto listing the report is about (written in prepare, reported once the site runs). */
let bitcoinId = 0;

const test = testWithOwnSite('layout', async (db) => {
  // 30 more Gaming servers: the category and /servers get a page 2.
  let longListing: { id: number } | undefined;
  for (let i = 1; i <= 30; i++) {
    const created = await createServer(db, {
      name: i === 1 ? `${LONG_WORD} United` : `Layout Probe Guild ${i}`,
      description:
        i === 1
          ? `${LONG_WORD} ${LONG_WORD.toLowerCase()}: https://example.com/${LONG_WORD}/${LONG_WORD}/rules`
          : 'A community that exists so the listing has a second page on a phone.',
      category: 'Gaming',
      subcategory: i === 1 ? `${LONG_WORD} Leagues` : null,
      members: 100 + i,
      active_users: 10,
      tags: i === 1 ? [LONG_WORD, 'pvp', `${LONG_WORD}-tournaments`] : ['pvp'],
      features: i === 1 ? [`${LONG_WORD} weekly cups`, 'Ranked ladders'] : [],
      pros: i === 1 ? [`${LONG_WORD} coaching`] : [],
      cons: i === 1 ? ['Busy on weekends'] : [],
      affiliate_link: 'https://discord.gg/layoutprobe',
      image_url: null,
      // A working check: "Why this rank" states its date, which must not break at its hyphens.
      last_ok_at: i === 1 ? new Date().toISOString() : null,
    });
    if (i === 1) longListing = created;
  }
  // Member reviews (#31) with long words on the long-word listing's page (average, distribution, a
  // reply), one of them flagged for the console's Reviews screen.
  const reviewers = await db
    .insert(ownerUsers)
    .values([1, 2, 3].map((n) => ({ discord_user_id: `8035111022467891${n}`, username: `${LONG_WORD}${n}` })))
    .returning();
  const written = await db
    .insert(reviews)
    .values(
      reviewers.map((r, n) => ({
        server_id: longListing!.id,
        account_id: r.id,
        rating: 3 + n,
        body: `${LONG_WORD} ${LONG_WORD}: https://example.com/${LONG_WORD}/${LONG_WORD}/rules`,
        display_name: `${LONG_WORD}${LONG_WORD}`.slice(0, 80),
        member_since: '2024-03-01T00:00:00.000Z',
        edited_at: n === 0 ? '2025-01-02T00:00:00.000Z' : null,
      })),
    )
    .returning();
  await db
    .insert(reviewReplies)
    .values({ review_id: written[0]!.id, account_id: reviewers[1]!.id, body: `${LONG_WORD} thanks` });
  await db
    .insert(reviewFlags)
    .values({ review_id: written[0]!.id, account_id: reviewers[2]!.id, reason: 'spam', details: LONG_WORD });
  // What the batch of a review change keeps (rating and count): the listing's cards show the average.
  await db.update(discordServers).set({ rating: 4, review_count: 3 }).where(eq(discordServers.id, longListing!.id));
  const bitcoin = await createServer(db, {
    name: `${LONG_WORD} Bitcoin Desk`,
    description: 'Long words in the subcategory listing too.',
    category: 'Crypto',
    subcategory: 'Bitcoin',
    members: 50,
    active_users: 5,
    tags: [LONG_WORD],
    affiliate_link: 'https://discord.gg/layoutbtc',
  });
  // Three large organic servers: the /servers podium holds "#3" and "249.5K" beside long names.
  const podium = [];
  for (const [name, members] of PODIUM) {
    const server = await createServer(db, {
      name,
      description: 'A large community on the podium of every server.',
      category: 'Trading',
      members,
      active_users: Math.round(members / 10),
      affiliate_link: 'https://discord.gg/podiumprobe',
    });
    podium.push(server);
  }
  // One day of analytics worth 10,000 (the console chart's single point and its widest Y label).
  const third = podium[2];
  await insertInteractions(db, {
    interaction_type: 'conversion',
    target_type: 'server',
    target_id: String(third!.id),
    server_id: third!.id,
    conversion_value: 10_000,
  });
  await createOperator(db, { email: ADMIN, password: PASSWORD, role: 'admin' });
  // The console-only rows (contact messages) and the rows the build reads only for its counts
  // (submissions and reports: the moderation log; subscribers: the subscriber count) are written
  // once the site runs (below), as they arrive in production: no page shows their texts, and
  // written here they would cost this spec a build of its own instead of a publish of its listings.
  bitcoinId = bitcoin.id;
});

/** Rows the console's screens read on request, written when the site has started (see above). */
test.beforeAll(async () => {
  const { db } = test.ownSite();
  // A subscriber who has not confirmed yet (signed up two minutes ago: a resend is a new mail).
  await signUpEmail(
    db,
    PENDING,
    { mail: { subject: 'Confirm', text: 'Confirm', html: '<p>Confirm</p>' } },
    Date.now() - 120_000,
  );
  // Rows for every console table.
  await insertSubmission(db, {
    server_name: `${LONG_WORD} Submission`,
    server_description: `${LONG_WORD} ${LONG_WORD} waiting for review.`,
    category: 'Gaming',
    subcategory: null,
    invite_link: 'https://discord.gg/layoutsub',
    server_image: 'https://example.com/icon.png',
    contact_email: `${LONG_WORD.toLowerCase()}@example.com`,
    features: null,
    member_count: 10,
    active_users: 1,
    submitter_name: LONG_WORD,
    is_owner: true,
  });
  await createContactMessage(db, {
    name: LONG_WORD,
    email: `${LONG_WORD.toLowerCase()}@example.com`,
    subject: 'general',
    message: `${LONG_WORD} ${LONG_WORD} https://example.com/${LONG_WORD}`,
    priority: 'normal',
  });
  await subscribeEmail(db, `${LONG_WORD.toLowerCase()}@example.com`);
  await createReport(db, { server_id: bitcoinId, reason: 'other', details: `${LONG_WORD} ${LONG_WORD}` });
});

/** The page's width against the window's, and what sticks out past the right edge when it is too wide. */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const sticking = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > width + 0.5)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`);
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: width, sticking };
  });
}

async function expectFits(page: Page, what: string) {
  const o = await overflow(page);
  expect(o.scrollWidth, `${what}: ${o.sticking.join(', ')}`).toBeLessThanOrEqual(o.innerWidth);
}

/** Every public page type, with the status it answers. */
const PAGES: [string, string, number][] = [
  ['home', '/', 200],
  ['all servers', '/servers', 200],
  ['all servers, page 2', '/servers/page/2', 200],
  ['category', '/best-gaming-discord', 200],
  ['category, page 2', '/best-gaming-discord/page/2', 200],
  ['subcategory', '/best-crypto-discord/bitcoin-discord', 200],
  ['server', '/server/apex-legends-hub', 200],
  ['server with long words', `/server/${LONG_SLUG}`, 200],
  ['submit', '/submit-server', 200],
  ['submit received', '/submit-server/received?email=someone%40example.com', 200],
  ['message sent', '/contact/sent', 200],
  ['newsletter subscribed', '/newsletter/subscribed', 200],
  ['help', '/help', 200],
  ['contact', '/contact', 200],
  ['saved', '/saved', 200],
  ['offline', '/offline', 200],
  ['category not found', '/best-nothing-here-discord', 404],
  ['subcategory not found', '/best-gaming-discord/no-such-subcategory-here', 404],
  ['server not found', '/server/qqqq-zzzz-xxxx-no-such-server', 404],
  ['404', '/no/such/page/at/all', 404],
  ['console sign-in', '/admin', 200],
  ['developers', '/developers', 200],
  ['developers guide', '/developers/guide', 200],
  ['listing requirements', '/requirements', 200],
  ['moderation log', '/moderation', 200],
  ['appeal', '/appeal?token=a-long-signed-appeal-token-from-the-mail', 200],
  ['appeal sent', '/appeal/sent', 200],
  ['embedded card', '/embed/apex-legends-hub', 200],
  ['embedded card with long words', `/embed/${LONG_SLUG}`, 200],
];

/** Resizes the window and waits two frames: what reacts to the resize (the carousel) has laid out again. */
async function resize(page: Page, width: number, height: number) {
  await page.setViewportSize({ width, height });
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/** Checks the page as loaded at each phone width in turn (resized, not reloaded: one load per page). */
async function expectFitsEvery(page: Page, what: string) {
  for (const width of WIDTHS) {
    await resize(page, width, 740);
    await expectFits(page, `${what} at ${width} px`);
  }
}

test.describe('on phones', () => {
  // Each page is loaded at the narrowest width, then checked at every width.
  test.use({ viewport: { width: WIDTHS[0], height: 740 } });

  test(`every public page type fits the screen with no sideways scroll at ${WIDTHS.join(', ')} px`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    // The saved page lists what localStorage holds: one long-named server in it.
    await page.addInitScript((name) => {
      localStorage.setItem(
        'savedServers',
        JSON.stringify([{ id: 999, name, category: 'Gaming', image_url: null, slug: 'x', savedAt: Date.now() }]),
      );
    }, `${LONG_WORD} United`);
    for (const [what, path, status] of PAGES) {
      await page.setViewportSize({ width: WIDTHS[0], height: 740 });
      const res = await page.goto(path);
      expect(res?.status(), what).toBe(status);
      await hydrated(page);
      await expectFitsEvery(page, what);
    }
  });

  test('the console fits: sign-in and every screen signed in', async ({ page }) => {
    test.setTimeout(120_000);
    await signIn(page);
    const nav = page.getByRole('navigation', { name: 'Console' });
    for (const screen of [
      'Dashboard',
      'Submissions',
      'Servers',
      'Reports',
      'Reviews',
      'Freshness',
      'Content',
      'Newsletter',
      'Contact inbox',
      'Appeals',
      'Audit log',
    ]) {
      await page.setViewportSize({ width: WIDTHS[0], height: 740 });
      await nav.getByRole('link', { name: screen }).click();
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.waitForLoadState('networkidle');
      await expectFitsEvery(page, `console ${screen}`);
    }
  });
});

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 740 } });

    test('the open mobile menu, a listing search and a refused form fit too', async ({ page }) => {
      await page.goto('/best-gaming-discord');
      await hydrated(page);
      await page.getByRole('button', { name: 'Menu' }).click();
      await expectFits(page, 'open menu');
      await page.getByRole('searchbox', { name: 'Search Gaming servers' }).fill(LONG_WORD);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await expect(page.getByText(/found for/)).toBeVisible();
      await expectFits(page, 'listing search');
      await page.goto('/submit-server');
      await hydrated(page);
      await page.locator('form[action="/api/submissions"]').evaluate((f) => f.setAttribute('novalidate', ''));
      await page.getByLabel('Server name').fill(LONG_WORD);
      await page.getByLabel('Contact email').fill('nope');
      await page.getByLabel(/I accept the/).check();
      await page.getByRole('button', { name: 'Submit Server for Review' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'Submission Error' })).toBeVisible();
      await expectFits(page, 'refused submit form');
    });
  });
}

/** Signs the layout site's admin in through the console's form. */
async function signIn(page: Page) {
  await page.goto('/admin');
  await page.getByLabel('Email').fill(ADMIN);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}

test('the console header is as tall as its content on a short screen, not a tall empty band', async ({ page }) => {
  await signIn(page);
  for (const [width, height] of [
    [390, 600],
    [1280, 600],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto('/admin#reports');
    await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
    const header = await page.evaluate(() => {
      const el = document.querySelector('.console-header')!;
      const box = el.getBoundingClientRect();
      // The lowest bottom edge of what the header holds, against the header's own bottom edge.
      const content = Math.max(...[...el.children].map((c) => c.getBoundingClientRect().bottom));
      return { height: box.height, spare: box.bottom - content };
    });
    // Its padding is 0.6rem: anything much more is empty band.
    expect(header.spare, `${width}x${height}`).toBeLessThanOrEqual(16);
    expect(header.height, `${width}x${height}`).toBeLessThanOrEqual(width < 600 ? 160 : 80);
  }
});

test('the console tables keep every cell of a row on one line, action buttons included', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page);
  for (const [hash, heading] of [
    ['#servers', 'Servers'],
    ['#content', 'Content'],
  ] as const) {
    await page.goto(`/admin${hash}`);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Edit / }).first()).toBeVisible();
    // Every cell of a row reaches the row's bottom edge (its border line): none has its own height.
    const misaligned = await page.evaluate(() =>
      [...document.querySelectorAll('tbody tr')].flatMap((row) => {
        const bottom = row.getBoundingClientRect().bottom;
        return [...row.children]
          .filter((cell) => Math.abs(cell.getBoundingClientRect().bottom - bottom) > 0.5)
          .map((cell) => `${row.firstElementChild?.textContent?.slice(0, 24)} / ${cell.textContent?.slice(0, 24)}`);
      }),
    );
    expect(misaligned, heading).toEqual([]);
  }
});

// Issue #28: what a visitor and an operator saw break at phone and desktop widths.
const ALL_WIDTHS = [320, 360, 390, 1024, 1280, 1440] as const;

test('no number wraps inside itself or sticks out of its box, on listing and server pages from 320 to 1440 px', async ({
  page,
}) => {
  test.setTimeout(240_000);
  // Each page loaded once at the narrowest width, then resized through the others.
  for (const path of ['/', '/servers', '/best-gaming-discord', '/server/apex-legends-hub', `/server/${LONG_SLUG}`]) {
    await page.setViewportSize({ width: ALL_WIDTHS[0], height: 900 });
    await page.goto(path);
    await hydrated(page);
    for (const width of ALL_WIDTHS) {
      await resize(page, width, 900);
      await expectNumbersWhole(page, `${path} at ${width} px`);
    }
  }
});

test("a date never breaks at its hyphens on a 320 px phone: the moderation log's update, a listing's last working check with and without JavaScript", async ({
  page,
  browser,
  site,
}) => {
  await page.setViewportSize({ width: 320, height: 900 });
  for (const path of ['/moderation', `/server/${LONG_SLUG}`]) {
    await page.goto(path);
    await hydrated(page);
    await expectNumbersWhole(page, `${path} at 320 px`);
  }
  await expect(page.locator('time[data-since]')).toHaveText(
    /^(?:just now|\d+\s\w+ ago) \(\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\)$/,
  );
  const { context, page: plain } = await withoutJavaScript(browser, site.baseURL, 320);
  for (const path of ['/moderation', `/server/${LONG_SLUG}`]) {
    await plain.goto(path);
    await expectNumbersWhole(plain, `${path} at 320 px without JavaScript`);
  }
  await expect(plain.locator('time[data-since]')).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
  await context.close();
});

test('no word of the fixed pages breaks inside itself at 320 and 1280 px (the pricing table, its labels)', async ({
  page,
}) => {
  for (const path of ['/pricing', '/ranking', '/help', '/requirements', '/moderation', '/developers']) {
    await page.setViewportSize({ width: 320, height: 900 });
    await page.goto(path);
    for (const width of [320, 1280]) {
      await resize(page, width, 900);
      expect(await brokenWords(page), `${path} at ${width} px`).toEqual([]);
    }
  }
  // The plans are there to be read: a phone gets each plan as a block, its label whole.
  await page.setViewportSize({ width: 320, height: 900 });
  await page.goto('/pricing');
  await expect(page.locator('.pricing-table tbody tr').first()).toBeVisible();
});

test('the join box keeps each count on one row at 1024, 1280 and 1440 px, and comes right after the header on a phone', async ({
  page,
}) => {
  for (const width of [1024, 1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/server/apex-legends-hub');
    const join = page.locator('.join-box');
    await expect(join.locator('.stat dd').first()).toHaveText('184,300');
    const rows = await join.locator('.stat').evaluateAll((stats) =>
      stats.map((s) => {
        const box = s.parentElement!.getBoundingClientRect();
        const [dt, dd] = [s.querySelector('dt')!, s.querySelector('dd')!].map((e) => e.getBoundingClientRect());
        return {
          text: s.textContent,
          fullWidth: Math.abs(s.getBoundingClientRect().width - box.width) <= 1,
          // Label and value side by side on one row.
          oneRow: Math.abs(dt!.top + dt!.height / 2 - (dd!.top + dd!.height / 2)) <= 6 && dt!.right <= dd!.left,
        };
      }),
    );
    expect(
      rows.filter((r) => !r.fullWidth || !r.oneRow),
      `${width} px`,
    ).toEqual([]);
    // The box sits beside About, in the right-hand column.
    const about = await page.locator('#about-title').boundingBox();
    const box = await join.boundingBox();
    expect(box!.x, `${width} px`).toBeGreaterThan(about!.x + 200);
  }
  for (const width of [320, 390]) {
    await page.setViewportSize({ width, height: 740 });
    await page.goto('/server/apex-legends-hub');
    const join = await page.locator('.join-box').boundingBox();
    const top = await page.locator('.detail-top').boundingBox();
    const about = await page.locator('#about-title').boundingBox();
    expect(join!.y, `${width} px: Join before About`).toBeLessThan(about!.y);
    // Only the breadcrumb line and the grid's gap between the header and the box.
    expect(join!.y - (top!.y + top!.height), `${width} px`).toBeLessThan(48);
    await expect(page.locator('.join-box [data-checked]')).toBeVisible();
  }
});

test('the /servers podium at 1280 px keeps "#3" and "249.5K" whole beside long names', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/servers');
  const podium = page.getByRole('list', { name: 'Top 3 servers' });
  await expect(podium.getByRole('listitem')).toHaveText([/^#1.*412\.3K$/, /^#2.*318(\.0)?K$/, /^#3.*249\.5K$/]);
  await expectNumbersWhole(page, 'podium at 1280 px', '.podium');
  await expectOneLine(page, '.podium .place, .podium .muted', 'podium ranks and counts');
});

test('"Join Premium" and "View Details" never wrap in the phone carousel at 320 px', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 740 });
  await page.goto('/');
  await hydrated(page);
  const carousel = page.getByRole('region', { name: 'Premium picks carousel' });
  await expect(carousel.getByRole('link', { name: /Join Premium/ }).first()).toBeVisible();
  await expectOneLine(page, '.carousel .card-actions > *', 'carousel buttons at 320 px');
  await expectFits(page, 'home at 320 px');
});

test('the home filters fold into one Filters control on a phone, saying how many are set, with and without JavaScript', async ({
  page,
  browser,
  site,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await hydrated(page);
  const list = page.locator('#servers');
  const filters = list.locator('summary', { hasText: 'Filters' });
  await expect(filters).toHaveText('Filters');
  await expect(list.getByRole('button', { name: 'Premium Only' })).toBeHidden();
  // The first result within a screen's height of the control, not a screen of filters later.
  const fold = await filters.boundingBox();
  const firstCard = await list.locator('.grid .card').first().boundingBox();
  expect(firstCard!.y - fold!.y).toBeLessThan(200);
  await filters.click();
  await list.getByRole('button', { name: 'Premium Only' }).click();
  await list.getByRole('button', { name: 'Checked in the last 24 hours' }).click();
  await expect(filters).toHaveText('Filters (2 set)');
  await expectFits(page, 'open filters at 390 px');
  // A wide screen shows the bar itself, no fold.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(filters).toBeHidden();
  await expect(list.getByRole('button', { name: 'Premium Only' })).toBeVisible();

  const { context, page: plain } = await withoutJavaScript(browser, site.baseURL);
  await plain.goto('/');
  // Without JavaScript the filters could not filter: neither the fold nor its chips are offered,
  // and the listing itself is there.
  await expect(plain.locator('#servers summary', { hasText: 'Filters' })).toBeHidden();
  await expect(plain.getByRole('button', { name: 'Premium Only' })).toBeHidden();
  await expect(plain.locator('#servers .grid .card').first()).toBeVisible();
  await context.close();
});

test('a listing page folds its filters and order the same way at 320 px: two rows, each control reachable by keyboard', async ({
  page,
  browser,
  site,
}) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto('/best-trading-discord');
  const toolbar = page.locator('.toolbar');
  const fold = toolbar.locator('summary', { hasText: 'Filters' });
  await expect(fold).toHaveText('Filters');
  await expect(toolbar.getByRole('button', { name: 'Premium Only' })).toBeHidden();
  // The search and the fold: two rows, not a screen of controls before the first server.
  expect((await toolbar.boundingBox())!.height).toBeLessThan(130);
  await expectFits(page, 'listing toolbar at 320 px');
  // From the search button the keyboard reaches the fold, opens it and goes through every control.
  await toolbar.getByRole('button', { name: 'Search', exact: true }).focus();
  await page.keyboard.press('Tab');
  await expect(fold).toBeFocused();
  await page.keyboard.press('Enter');
  await hydrated(page);
  await expect(toolbar.getByLabel('Sort servers')).toBeEnabled();
  for (const control of [
    toolbar.getByRole('button', { name: 'Premium Only' }),
    toolbar.getByRole('button', { name: 'Checked in the last 24 hours' }),
    toolbar.getByLabel('Size'),
    toolbar.getByLabel('Online now'),
    toolbar.getByLabel('Sort servers'),
    toolbar.getByLabel('Language'),
  ]) {
    await page.keyboard.press('Tab');
    await expect(control).toBeFocused();
  }
  await toolbar.getByRole('button', { name: 'Checked in the last 24 hours' }).press('Space');
  await expect(fold).toHaveText('Filters (1 set)');
  await expectFits(page, 'open listing filters at 320 px');
  // A wide screen shows the controls in the toolbar's row, no fold.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(fold).toBeHidden();
  await expect(toolbar.getByRole('button', { name: 'Premium Only' })).toBeVisible();

  // Without JavaScript neither the fold nor (on a wide screen) the controls are offered.
  const { context, page: plain } = await withoutJavaScript(browser, site.baseURL, 1280);
  await plain.goto('/best-trading-discord');
  await expect(plain.locator('.toolbar .filters-fold')).toBeHidden();
  await expect(plain.getByLabel('Sort servers')).toBeHidden();
  await expect(plain.locator('.listing-static .grid article').first()).toBeVisible();
  await context.close();
});

test('without JavaScript no public page shows a button that does nothing', async ({ browser, site }) => {
  const { context, page } = await withoutJavaScript(browser, site.baseURL);
  for (const path of [...PUBLIC_PAGE_TYPES, '/pricing', '/ranking', '/requirements']) {
    await page.goto(path);
    // A button works without a script when it submits its form or opens its dialog (Invoker
    // Commands); the help center's questions show their answers already (a11y.spec.ts).
    const idle = await page.$$eval('button, [role="button"], [role="tab"]', (controls) =>
      controls
        .filter((c) => c.getClientRects().length > 0 && getComputedStyle(c).visibility !== 'hidden')
        .filter((c) => !(c instanceof HTMLButtonElement && c.form && c.type === 'submit'))
        .filter((c) => !c.hasAttribute('commandfor') && !c.hasAttribute('popovertarget'))
        .filter((c) => !c.classList.contains('faq-q'))
        .map((c) => (c.getAttribute('aria-label') ?? c.textContent ?? '').trim()),
    );
    expect(idle, path).toEqual([]);
  }
  // The carousel's slides scroll by themselves instead.
  await page.goto('/');
  const viewport = page.locator('.carousel-viewport');
  await expect(viewport).toBeVisible();
  expect(await viewport.evaluate((v) => [getComputedStyle(v).overflowX, getComputedStyle(v).touchAction])).toEqual([
    'auto',
    'auto',
  ]);
  await context.close();
});

test('without JavaScript Save and Share are hidden and Report sends a plain form', async ({ browser, site }) => {
  const { context, page } = await withoutJavaScript(browser, site.baseURL);
  await page.goto('/server/apex-legends-hub');
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Share', exact: true })).toBeHidden();
  await page.getByRole('button', { name: 'Report', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Report Apex Legends Hub' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Broken invite link').check();
  await dialog.getByLabel(/Details/).fill('Sent with scripts off.');
  await dialog.getByRole('button', { name: 'Submit Report' }).click();
  await expect(page).toHaveURL(/\/server\/apex-legends-hub#report-sent$/);
  await expect(page.getByText('Thanks, your report was sent')).toBeVisible();
  const reports = await site.db.select().from(serverReports).where(eq(serverReports.details, 'Sent with scripts off.'));
  expect(reports.map((r) => r.reason)).toEqual(['broken_link']);
  await context.close();
});

test('with JavaScript Save and Share show, and the report dialog keeps its radios whole beside two-line labels at 390 px', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/server/bitcoin-maximalists');
  await hydrated(page);
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Share', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Report', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Report Bitcoin Maximalists' });
  await expect(dialog).toBeVisible();
  const radios = await dialog.locator('label.check').evaluateAll((labels) =>
    labels.map((label) => {
      const input = label.querySelector('input')!.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(label.querySelector('span')!);
      const lines = [...range.getClientRects()].filter((r) => r.width > 0);
      const first = lines[0]!;
      return {
        label: label.textContent,
        size: `${Math.round(input.width)}x${Math.round(input.height)}`,
        lines: new Set(lines.map((r) => Math.round(r.top))).size,
        // The radio's middle beside the middle of the label's first line.
        offset: Math.abs(input.top + input.height / 2 - (first.top + first.height / 2)),
      };
    }),
  );
  expect(
    radios.some((r) => r.lines >= 2),
    'some label takes two lines at 390 px',
  ).toBe(true);
  expect(radios.filter((r) => r.size !== '20x20' || r.offset > 4)).toEqual([]);
});

test('the submit form shows the Discord preview beside the invite field and keeps its inputs in line at 1280 px', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/submit-server');
  await hydrated(page);
  const invite = page.getByLabel('Invite link');
  const icon = page.getByLabel('Icon URL');
  const [a, b] = [await invite.boundingBox(), await icon.boundingBox()];
  expect(Math.abs(a!.x - b!.x)).toBeLessThanOrEqual(1);
  expect(Math.abs(a!.width - b!.width)).toBeLessThanOrEqual(1);
  // Fields side by side keep their inputs on one line whatever their hints say.
  for (const [left, right] of [
    ['Your name', 'Contact email'],
    ['Server name', 'Category'],
  ] as const) {
    const [l, r] = [await page.getByLabel(left).boundingBox(), await page.getByLabel(right).boundingBox()];
    expect(Math.abs(l!.y - r!.y), `${left} / ${right}`).toBeLessThanOrEqual(1);
  }
  await invite.fill('https://discord.gg/layoutpreview');
  const preview = page.locator('[data-invite-preview="ok"]');
  await expect(preview).toContainText('members');
  // Both boxes read at the same moment, with the preview shown.
  const [p, field] = [await preview.locator('.invite-guild').boundingBox(), await invite.boundingBox()];
  expect(p!.x).toBeGreaterThanOrEqual(field!.x + field!.width);
  expect(p!.y).toBeLessThan(field!.y + field!.height);
  expect(p!.y + p!.height).toBeGreaterThan(field!.y);
  // A phone: the preview under the invite field.
  await page.setViewportSize({ width: 390, height: 844 });
  const [a2, p2] = [await invite.boundingBox(), await preview.boundingBox()];
  expect(p2!.y).toBeGreaterThanOrEqual(a2!.y + a2!.height);
});

test('the console saves a sample server, says beside Save why a save is refused and moves focus to the first bad field', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page);
  await page.goto('/admin#servers');
  await page.getByLabel('Search servers').fill('Apex');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.getByRole('button', { name: 'Edit Apex Legends Hub' }).click();
  const form = page.getByRole('form', { name: 'Edit Apex Legends Hub' });
  const icon = form.getByLabel('Icon URL (https)');
  await expect(icon).toHaveValue('/icons/servers/apex-legends-hub.svg');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Saved “Apex Legends Hub”.')).toBeVisible();
  await expect(form).toBeHidden();

  await page.getByRole('button', { name: 'Edit Apex Legends Hub' }).click();
  await icon.fill('http://insecure.example/icon.png');
  await form.getByRole('button', { name: 'Save changes' }).click();
  const beside = form.locator('.actions').getByRole('alert');
  await expect(beside).toHaveText(/^Not saved: Icon URL must be a full https:\/\/ address/);
  await expect(icon).toBeFocused();
  // Two bad fields: the first one in the form gets the focus, and the line counts the other.
  // Its label reads "Name" and then its message once refused.
  const name = form.getByRole('textbox', { name: /^Name/ });
  await name.fill('');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(beside).toContainText('(and 1 more field marked above)');
  await expect(name).toBeFocused();
});

test('the console says beside Category and Save why a listing with a running Sponsored term keeps its category', async ({
  page,
  site,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const listing = await createServer(site.db, {
    name: 'Slot Keeper Desk',
    description: 'A Trading listing whose Sponsored term holds a Trading slot.',
    category: 'Trading',
    members: 900,
    active_users: 90,
    pros: [],
    cons: [],
    tags: [],
    features: [],
    affiliate_link: 'https://discord.gg/slotkeeper',
  });
  const now = Date.now();
  await paidOrder(site.db, listing, {
    paid_at: new Date(now).toISOString(),
    starts_at: new Date(now).toISOString(),
    ends_at: new Date(now + 7 * 86_400_000).toISOString(),
  });
  await signIn(page);
  await page.goto('/admin#servers');
  await page.getByLabel('Search servers').fill('Slot Keeper');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.getByRole('button', { name: 'Edit Slot Keeper Desk' }).click();
  const form = page.getByRole('form', { name: 'Edit Slot Keeper Desk' });
  const category = form.getByRole('combobox', { name: /^Category/ });
  await category.selectOption('Gaming');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(form.locator('.actions').getByRole('alert')).toHaveText(
    /^Not saved: This listing has a Sponsored term bought in Trading, running or booked until .+ Refund the order under Orders first, or change the category after /,
  );
  await expect(category).toHaveAttribute('aria-invalid', 'true');
  await expect(category).toBeFocused();
  await expect(category.locator('xpath=..').locator('.field-error')).toContainText('bought in Trading');
});

test('the console analytics chart shows 10,000 whole, dates under the plot and a single day inside it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page);
  await page.goto('/admin#servers');
  const [name] = PODIUM[2]!;
  await page.getByLabel('Search servers').fill(name);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.getByRole('button', { name: `Analytics of ${name}` }).click();
  const chart = page.getByRole('figure', { name: new RegExp(name) });
  await expect(chart.getByRole('table')).toContainText('10,000');
  await expectReadableChart(chart, '#16a34a', 'console analytics');
});

test('the console Newsletter screen resends a pending subscriber the confirmation instead of confirming it', async ({
  page,
  site,
}) => {
  await signIn(page);
  await page.goto('/admin#newsletter');
  await page.getByLabel('Search email').fill(PENDING);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('button', { name: `Reactivate ${PENDING}` })).toHaveCount(0);
  await page.getByRole('button', { name: `Resend confirmation ${PENDING}` }).click();
  await expect(page.getByText(`Confirmation sent again to ${PENDING}.`)).toBeVisible();
  const mails = await site.db.select().from(mailOutbox).where(eq(mailOutbox.to_address, PENDING));
  expect(mails.map((m) => m.kind)).toEqual(['newsletter_confirm', 'newsletter_confirm']);
  await expect(page.getByRole('row', { name: new RegExp(PENDING) })).toContainText('pending');
});
