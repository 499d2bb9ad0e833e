// The owner accounts issue's (#17) "must show", in Chromium against the production server and its
// loopback Discord stand-in (invites and OAuth2 alike): an owner signs in with Discord, the listing of
// the guild they own is theirs, they edit it, an operator approves the edit in the console, the
// server page shows it after the rebuild, and the owner reads the listing's numbers. The page fits a
// 320 px phone; the screenshots in docs/screenshots/account-*.png come from this run (its output folder).

import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { createServer } from '../../db/queries/servers';
import { discordServers, serverSnapshots, userInteractions } from '../../db/schema';
import { applyStandInFile } from '../helpers/discord-stand-in';
import { axe } from './axe';
import { expectReadableChart } from './chart-check';
import { signIn } from './console-sign-in';
import { expect } from './fixtures';
import { hydrated } from './hydration';
import { expectOneLine } from './numbers';
import { testWithOwnSite } from './own-site';

const GUILD = '913000000000000777';
const NAME = 'Ledger Lighthouse';
const SLUG = 'ledger-lighthouse';
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

const test = testWithOwnSite('account', async (db) => {
  const listing = await createServer(db, {
    name: NAME,
    description: 'A calm place to talk about self-custody wallets and hardware signing.',
    category: 'Crypto',
    subcategory: 'Bitcoin',
    members: 5400,
    active_users: 610,
    tags: ['wallets'],
    features: ['Weekly security clinic'],
    affiliate_link: 'https://discord.gg/ledgerlight',
    invite_code: 'ledgerlight',
    guild_id: GUILD,
    invite_status: 'ok',
    last_checked_at: daysAgo(0.1),
    last_ok_at: daysAgo(0.1),
  });
  // Numbers: 12 views and 3 join clicks two days ago, 20 views and 4 clicks twenty days ago; two checks.
  const event = (type: 'view' | 'click', at: string) => ({
    interaction_type: type,
    target_type: 'server' as const,
    server_id: listing.id,
    created_at: at,
  });
  await db
    .insert(userInteractions)
    .values([
      ...Array.from({ length: 12 }, () => event('view', daysAgo(2))),
      ...Array.from({ length: 3 }, () => event('click', daysAgo(2))),
      ...Array.from({ length: 20 }, () => event('view', daysAgo(20))),
      ...Array.from({ length: 4 }, () => event('click', daysAgo(20))),
    ]);
  await db.insert(serverSnapshots).values([
    { server_id: listing.id, checked_at: daysAgo(12), outcome: 'ok', member_count: 5100, online_count: 580 },
    { server_id: listing.id, checked_at: daysAgo(1), outcome: 'ok', member_count: 5400, online_count: 610 },
  ]);
  // The listing of the guild `npm run discord:stand-in`'s user owns (scripts/discord-stand-in.json),
  // checked once: 10,000 members, a single point on the owner's chart.
  const demo = await createServer(db, {
    name: 'GuildRank Demo Server',
    description: 'The guild the Discord stand-in signs its user in as the owner of.',
    category: 'Gaming',
    members: 10_000,
    active_users: 1_975,
    affiliate_link: 'https://discord.gg/guildrank-demo',
    invite_code: 'guildrank-demo',
    guild_id: '1180000000000000001',
    invite_status: 'ok',
    last_checked_at: daysAgo(0.5),
    last_ok_at: daysAgo(0.5),
  });
  await db
    .insert(serverSnapshots)
    .values({ server_id: demo.id, checked_at: daysAgo(0.5), outcome: 'ok', member_count: 10_000, online_count: 1_975 });
});

/** The page's width against the window's, naming what sticks out. */
async function expectFits(page: Page) {
  const o = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    sticking: [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`),
  }));
  expect(o.scrollWidth, o.sticking.join(', ')).toBeLessThanOrEqual(o.innerWidth);
}

test('an owner signs in with Discord, edits the listing, an operator approves, the page changes, and the owner reads the numbers', async ({
  page,
  site,
  request,
}, testInfo) => {
  // A whole journey (sign-in, edit, the console's approval, its publish, the numbers at three widths).
  test.setTimeout(120_000);
  site.discord.oauth.user = { id: '412000000000000001', username: 'lighthouse_keeper', global_name: 'Keeper' };
  site.discord.oauth.guilds = [
    { id: GUILD, name: NAME, owner: true, permissions: '0' },
    // A guild they are only in: no listing of it becomes theirs.
    { id: '913000000000000778', name: 'Elsewhere', owner: false, permissions: String(0x400) },
  ];

  // Signed out: the page offers Discord's sign-in (a plain link, no JavaScript needed).
  await page.goto('/account');
  await hydrated(page);
  const signInLink = page.getByRole('link', { name: 'Sign in with Discord' });
  await expect(signInLink).toBeVisible();
  const signedOut = await axe(page).withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa']).analyze();
  expect(signedOut.violations.map((v) => v.id)).toEqual([]);
  await expect(signInLink).toHaveAttribute('href', '/api/account/sign-in');
  await signInLink.click();

  // Back from Discord (the stand-in authorizes at once): the listing of the guild they own is theirs.
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByText('Signed in with Discord as')).toContainText('Keeper');
  const listing = page.getByRole('article', { name: NAME });
  await expect(listing).toBeVisible();
  await expect(listing.locator('.state')).toHaveText('Live');
  await expect(listing).toContainText('you own this server on Discord');
  const authorize = site.discord.oauth.authorizations.at(-1)!;
  expect(authorize.get('code_challenge_method')).toBe('S256');
  expect(authorize.get('scope')).toBe('identify guilds');

  // The numbers: 7, 30 and 90 days, as a table, with the charts and their tables.
  const numbers = listing.getByRole('table', { name: `Views, join clicks and conversion of ${NAME}` });
  await expect(numbers.getByRole('row', { name: /^7 days/ })).toHaveText(/7\u00a0days\s*12\s*3\s*25\.0\u00a0%/);
  await expect(numbers.getByRole('row', { name: /^30 days/ })).toHaveText(/30\u00a0days\s*32\s*7\s*21\.9\u00a0%/);
  await expect(numbers.getByRole('row', { name: /^90 days/ })).toHaveText(/90\u00a0days\s*32\s*7\s*21\.9\u00a0%/);
  await expect(listing.getByRole('figure', { name: /Members/ })).toBeVisible();
  await expect(listing.locator('.chart-canvas canvas').first()).toBeVisible();
  const members = listing.getByRole('figure', { name: /Members/ });
  // Two points: the chart's data table is open beneath it.
  await expect(members.getByRole('table')).toContainText('5,100');
  await expect(members.getByRole('table')).toContainText('5,400');
  // The badge and the card for the owner's own site (#33): previewed, with the code to copy.
  await listing.getByText('Badge and card for your site').click();
  const badge = listing.getByRole('img', { name: `The GuildRank badge of ${NAME}` });
  await expect(badge).toBeVisible();
  expect(await badge.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(listing.getByLabel('Badge, Markdown (a README)')).toHaveValue(
    `[![GuildRank](${site.baseURL}/badge/${SLUG}.svg)](${site.baseURL}/server/${SLUG})`,
  );
  await expect(listing.getByLabel('Card, HTML')).toHaveValue(
    new RegExp(`^<iframe src="${site.baseURL}/embed/${SLUG}"`),
  );

  await page.screenshot({ path: testInfo.outputPath('account-desktop.png'), fullPage: true });
  // Signed in, with the numbers and charts on the page: no axe violation.
  const scan = await axe(page)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  expect(scan.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // An edit: description, tags, the subcategory and a link, sent for review.
  await listing.getByText('Edit the listing').click();
  const edit = listing.getByRole('form', { name: `Edit ${NAME}` });
  const description = 'Self-custody, hardware wallets and multisig: weekly clinics with patient helpers.';
  await edit.getByLabel('Description').fill(description);
  await edit.getByLabel('Tags').fill('wallets, multisig');
  await edit.getByLabel('Subcategory').selectOption('DeFi');
  // A link to an address inside someone's network is refused on the spot, by the shared schema.
  await edit.getByLabel('Link 1 label').fill('Wallet guide');
  await edit.getByLabel('Link 1 address').fill('https://127.0.0.1/wallets');
  await edit.getByRole('button', { name: 'Send for review' }).click();
  await expect(edit.getByText('Link 1: Link URL must be on a public website')).toBeVisible();
  await edit.getByLabel('Link 1 address').fill('https://www.example.org/wallets');
  await edit.getByRole('button', { name: 'Send for review' }).click();
  await expect(edit.getByRole('status')).toHaveText(/Sent for review/);
  await expect(listing).toContainText('An edit of the description, tags, subcategory, links is waiting for review.');
  const [before] = await site.db.select().from(discordServers).where(eq(discordServers.guild_id, GUILD));
  expect(before!.description).not.toBe(description);

  // The phone: nothing wider than 320 px.
  await page.setViewportSize({ width: 320, height: 740 });
  await page.reload();
  await hydrated(page);
  await expect(page.getByRole('article', { name: NAME })).toBeVisible();
  await expect(page.getByRole('table', { name: /Views, join clicks/ })).toBeVisible();
  await expectFits(page);
  // The numbers table fits its card whole (no scrolling inside it, "Conversion" not cut), each
  // period on one line; the listing is one card, not a card inside a second one.
  const table = page.getByRole('table', { name: /Views, join clicks/ });
  const box = await table.evaluate((t) => {
    const wrap = t.parentElement!;
    const card = t.closest('.account-listing');
    return {
      scrollWidth: wrap.scrollWidth,
      clientWidth: wrap.clientWidth,
      oneCard: card !== null && card.parentElement?.closest('.account-listing') === null,
    };
  });
  expect(box.scrollWidth).toBeLessThanOrEqual(box.clientWidth);
  expect(box.oneCard).toBe(true);
  await expectOneLine(page, '.account-table tbody th', 'each period of the numbers table');
  await page.screenshot({ path: testInfo.outputPath('account-phone-320.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // The console: the edit beside the submissions, as a diff; approved.
  await signIn(page, site.db);
  await page.goto('/admin#submissions');
  const edits = page.getByRole('region', { name: 'Owner edits' });
  await edits
    .getByRole('row', { name: new RegExp(NAME) })
    .getByRole('button', { name: /Review edit/ })
    .click();
  const diff = edits.getByRole('table', { name: 'Changes asked for' });
  await expect(diff.getByRole('row', { name: /description/ })).toContainText(description);
  await expect(diff.getByRole('row', { name: /tags/ })).toContainText('multisig');
  await expect(diff.getByRole('row', { name: /links/ })).toContainText('Wallet guide: https://www.example.org/wallets');
  await page.screenshot({ path: testInfo.outputPath('account-review-console.png'), fullPage: true });
  await edits.getByRole('button', { name: 'Approve edit' }).click();
  await expect(page.getByText(`Approved the edit of “${NAME}”`)).toBeVisible();

  // Live after the rebuild.
  await expect
    .poll(async () => (await (await request.get(`/server/${SLUG}`)).text()).includes(description), {
      timeout: 120_000,
      intervals: [500],
    })
    .toBe(true);
  await page.goto(`/server/${SLUG}`);
  await expect(page.getByText(description)).toBeVisible();
  // The owner's link beside the join link: its host shown, marked as the owner's (nofollow ugc).
  const links = page.locator('.server-links');
  const link = links.getByRole('link', { name: 'Wallet guide' });
  await expect(link).toHaveAttribute('href', 'https://www.example.org/wallets');
  await expect(link).toHaveAttribute('rel', 'nofollow ugc noopener noreferrer');
  await expect(links.getByRole('listitem')).toHaveText(/Wallet guide\s*example\.org/);

  // The owner's page: no edit waiting any more; the listing shows the new subcategory.
  await page.goto('/account');
  const after = page.getByRole('article', { name: NAME });
  await expect(after).toContainText('Crypto · DeFi');
  await expect(after).not.toContainText('waiting for review');

  // Sign out: a plain form post; the page offers sign-in again.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByText('You are signed out.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in with Discord' })).toBeVisible();
});

test('the stand-in file signs its user in with its guilds: My listings shows the demo listing, its one-check chart readable', async ({
  page,
  site,
}) => {
  // What `npm run discord:stand-in` reads, applied to this site's stand-in.
  applyStandInFile(site.discord, JSON.parse(readFileSync('scripts/discord-stand-in.json', 'utf8')));
  expect(site.discord.oauth.guilds.filter((g) => g.owner).map((g) => g.name)).toEqual(['GuildRank Demo Server']);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/account');
  await page.getByRole('link', { name: 'Sign in with Discord' }).click();
  await expect(page).toHaveURL(/\/account$/);
  const listing = page.getByRole('article', { name: 'GuildRank Demo Server' });
  await expect(listing).toContainText('you own this server on Discord');
  const members = listing.getByRole('figure', { name: /Members/ });
  await expect(members.getByRole('table')).toContainText('10,000');
  await expectReadableChart(members, '#4f46e5', 'owner member chart');
});

test('the mail settings checkbox sits beside its words on a 320 px phone and on a desktop, and its choice is saved', async ({
  page,
  site,
}) => {
  site.discord.oauth.user = { id: '412000000000000003', username: 'mail_settings_owner' };
  site.discord.oauth.guilds = [];
  await page.setViewportSize({ width: 320, height: 800 });
  await page.goto('/account');
  await page.getByRole('link', { name: 'Sign in with Discord' }).click();
  await expect(page).toHaveURL(/\/account$/);
  const settings = page.getByRole('region', { name: 'Mail settings' });
  const box = settings.getByRole('checkbox', { name: 'Mail me when a new review of a listing I own shows' });
  await expect(box).toBeChecked();
  const words = settings.getByText('Mail me when a new review of a listing I own shows');
  for (const width of [320, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    // A checkbox's own size, on the first line of its words, to their left.
    await expect(async () => {
      const b = (await box.boundingBox())!;
      const w = (await words.boundingBox())!;
      expect(b.width, `checkbox width at ${width} px`).toBeLessThanOrEqual(24);
      expect(b.x + b.width, `checkbox left of its words at ${width} px`).toBeLessThanOrEqual(w.x);
      expect(Math.abs(b.y - w.y), `checkbox on the words' first line at ${width} px`).toBeLessThan(12);
    }).toPass({ timeout: 5_000 });
  }
  await box.uncheck();
  await settings.getByRole('button', { name: 'Save mail settings' }).click();
  await expect(settings.getByRole('status')).toHaveText('Saved.');
  await page.reload();
  await expect(
    page.getByRole('region', { name: 'Mail settings' }).getByRole('checkbox', { name: /Mail me when a new review/ }),
  ).not.toBeChecked();
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the sign-in is a plain link that completes the whole Discord round trip', async ({ page, site, context }) => {
    site.discord.oauth.user = { id: '412000000000000002', username: 'no_script_owner' };
    site.discord.oauth.guilds = [];
    await page.goto('/account');
    await page.getByRole('link', { name: 'Sign in with Discord' }).click();
    await expect(page).toHaveURL(/\/account$/);
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'gr_owner');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    await expect(page.getByText('Managing a listing needs JavaScript; signing in does not.')).toBeVisible();
  });
});
