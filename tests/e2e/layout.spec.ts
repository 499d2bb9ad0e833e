import type { Page } from '@playwright/test';
import { createContactMessage } from '../../db/queries/contact';
import { subscribeEmail } from '../../db/queries/newsletter';
import { createOperator } from '../../db/queries/operators';
import { createReport } from '../../db/queries/reports';
import { createServer } from '../../db/queries/servers';
import { insertSubmission } from '../../db/queries/submissions';
import { expect } from './fixtures';
import { hydrated } from './hydration';
import { testWithOwnSite } from './own-site';

// Issue #13 item 1: every page type fits a phone (320, 360 and 390 px wide) with no sideways
// scroll. This spec builds its own site: the sample servers plus enough Gaming ones for a second
// page, and rows with long unbroken words (names, tags, a subcategory, an email) where a narrow
// column would otherwise be pushed wider than the screen.

const WIDTHS = [320, 360, 390] as const;
const PASSWORD = 'layout-spec-password-1';
const ADMIN = 'layout-admin@example.com';
const LONG_WORD = 'Supercalifragilisticexpialidociousgamers';
const LONG_SLUG = 'supercalifragilisticexpialidociousgamers-united';

const test = testWithOwnSite('layout', async (db) => {
  // 30 more Gaming servers: the category and /servers get a page 2.
  for (let i = 1; i <= 30; i++) {
    await createServer(db, {
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
    });
  }
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
  await createOperator(db, { email: ADMIN, password: PASSWORD, role: 'admin' });
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
  await createReport(db, { server_id: bitcoin.id, reason: 'other', details: `${LONG_WORD} ${LONG_WORD}` });
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
  ['embedded card', '/embed/apex-legends-hub', 200],
  ['embedded card with long words', `/embed/${LONG_SLUG}`, 200],
];

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 740 } });

    test('every public page type fits the screen with no sideways scroll', async ({ page }) => {
      test.setTimeout(120_000);
      // The saved page lists what localStorage holds: one long-named server in it.
      await page.addInitScript((name) => {
        localStorage.setItem(
          'savedServers',
          JSON.stringify([{ id: 999, name, category: 'Gaming', image_url: null, slug: 'x', savedAt: Date.now() }]),
        );
      }, `${LONG_WORD} United`);
      for (const [what, path, status] of PAGES) {
        const res = await page.goto(path);
        expect(res?.status(), what).toBe(status);
        await hydrated(page);
        await expectFits(page, what);
      }
    });

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

    test('the console fits: sign-in and every screen signed in', async ({ page }) => {
      test.setTimeout(120_000);
      await signIn(page);
      const nav = page.getByRole('navigation', { name: 'Console' });
      for (const screen of [
        'Dashboard',
        'Submissions',
        'Servers',
        'Reports',
        'Freshness',
        'Content',
        'Newsletter',
        'Contact inbox',
        'Audit log',
      ]) {
        await nav.getByRole('link', { name: screen }).click();
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await page.waitForLoadState('networkidle');
        await expectFits(page, `console ${screen}`);
      }
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
