import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { createServer, type ServerWrite } from '../../db/queries/servers';
import { discordServers, serverFlags, serverSnapshots } from '../../db/schema';
import { subcategoriesOf, subcategoryPath } from '../../src/lib/categories';
import { axe } from './axe';
import { expect } from './fixtures';
import { testWithOwnSite } from './own-site';

// Issue #15, what visitors see: the server page's checked facts (online now, members, checked N
// ago, the listing's age), the 30-day member history as a static SVG that reads as text too, the
// notices in place of Join for each invite state, Discord's icons, and the niche notices on
// category, subcategory and server pages, all on a 320 px phone without sideways scroll.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// Rows are written relative to when the spec starts; the build follows within minutes.
const start = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();
const checkedAt = iso(start - 3 * HOUR);
const GUILD_ID = '81384788765712384';

const base: Omit<ServerWrite, 'name' | 'category'> = {
  description: 'A community the freshness spec checks.',
  subcategory: null,
  members: 1234,
  active_users: 321,
  tags: ['freshness'],
  affiliate_link: 'https://discord.gg/freshness',
  image_url: null,
};

async function seed(db: Db, name: string, category: string, extra: Partial<ServerWrite>, createdAt?: string) {
  const s = await createServer(db, { ...base, name, category, ...extra });
  if (createdAt) await db.update(discordServers).set({ created_at: createdAt }).where(eq(discordServers.id, s.id));
  return s;
}

const test = testWithOwnSite('server-freshness', async (db) => {
  const fresh = await seed(
    db,
    'Freshness Checked Guild',
    'Gaming',
    {
      invite_status: 'ok',
      guild_id: GUILD_ID,
      guild_icon: 'abc123',
      last_checked_at: checkedAt,
      last_ok_at: checkedAt,
    },
    iso(start - 40 * DAY),
  );
  // One check a day for 30 days, growing by 10 members a day, and an older one the chart leaves out.
  await db.insert(serverSnapshots).values([
    { server_id: fresh.id, checked_at: iso(start - 45 * DAY), outcome: 'ok', member_count: 1, online_count: 1 },
    ...Array.from({ length: 30 }, (_, i) => ({
      server_id: fresh.id,
      checked_at: iso(start - (29 - i) * DAY - 3 * HOUR),
      outcome: 'ok' as const,
      member_count: 944 + i * 10,
      online_count: 300 + i,
    })),
  ]);
  const failed = { last_checked_at: checkedAt, last_ok_at: iso(start - 2 * DAY) };
  await seed(db, 'Freshness Suspect Crypto', 'Crypto', {
    invite_status: 'suspect',
    subcategory: subcategoriesOf('crypto')[0]!.name,
    ...failed,
  });
  await seed(db, 'Freshness Dead Trading', 'Trading', { invite_status: 'dead', ...failed });
  await seed(db, 'Freshness Paused Betting', 'Sports Betting', {
    invite_status: 'paused',
    last_checked_at: checkedAt,
    last_ok_at: checkedAt,
  });
  await seed(db, 'Freshness Expiring Investing', 'Investing', {
    invite_status: 'expiring',
    last_checked_at: checkedAt,
    last_ok_at: checkedAt,
  });
  await seed(db, 'Freshness Unchecked Guild', 'Gaming', { invite_status: 'unchecked' });
  // Anomaly flags: only one a moderator confirmed shows on the page; an open one does not.
  const flagged = await seed(db, 'Freshness Flagged Guild', 'Gaming', {
    invite_status: 'ok',
    last_checked_at: checkedAt,
    last_ok_at: checkedAt,
  });
  await db.insert(serverFlags).values([
    {
      server_id: flagged.id,
      rule: 'spike_no_presence',
      detail: 'members +34% in 24 h; online +0.6%',
      verdict: 'confirmed',
      reviewed_by: 'moderator@example.com',
    },
    { server_id: flagged.id, rule: 'low_presence', detail: 'online 1% against a niche median of 12%' },
  ]);
});

test('a server page shows the anomalies a moderator confirmed, and none still in the queue', async ({ page }) => {
  await page.goto('/server/freshness-flagged-guild');
  const note = page.getByRole('note', { name: 'Moderator findings' });
  await expect(note).toContainText('Member jump without online growth: members +34% in 24 h; online +0.6%');
  await expect(note).not.toContainText('online 1% against');
  await page.goto('/server/freshness-checked-guild');
  await expect(page.getByRole('note', { name: 'Moderator findings' })).toHaveCount(0);
});

const JOIN = /^Join (Premium )?Server/;
const STOPPED = 'This invite stopped working; we are checking again.';

test('a checked server page shows Discord’s counts, when they were checked, its age and its member history', async ({
  page,
}) => {
  await page.goto('/server/freshness-checked-guild');
  const facts = page.locator('.join-box');
  await expect(facts.locator('.stat', { hasText: 'Members' }).locator('dd')).toHaveText('1,234');
  await expect(facts.locator('.stat', { hasText: 'Online now' }).locator('dd')).toHaveText('321');
  await expect(facts.locator('.stat', { hasText: 'Listed' }).locator('dd time')).toHaveText('1 month ago');
  const checked = facts.locator('[data-checked]');
  await expect(checked).toContainText('approximate, from Discord');
  await expect(checked.locator('time')).toHaveAttribute('datetime', checkedAt);
  await expect(checked.locator('time')).toHaveText('3 hours ago');

  // The chart: an image with a title and a description, drawn with no script, and its points as a table.
  const chart = facts.getByRole('img', { name: /Member history of Freshness Checked Guild/ });
  await expect(chart).toBeVisible();
  await expect(chart.locator('path.history-line')).toHaveAttribute('d', /^M[\d.]+ [\d.]+( L[\d.]+ [\d.]+){29}$/);
  await expect(chart.locator('desc')).toHaveText(/944 members on .*, 1,234 on .*; lowest 944, highest 1,234\./);
  const rows = facts.locator('.visually-hidden table tbody tr');
  await expect(rows).toHaveCount(30);
  await expect(rows.last().locator('td')).toHaveText([checkedAt.slice(0, 10), '1,234', '329']);

  // Discord's icon, and the Join button of a working invite.
  await expect(page.locator('.detail-head img.icon-img')).toHaveAttribute(
    'src',
    `https://cdn.discordapp.com/icons/${GUILD_ID}/abc123.png?size=128`,
  );
  await expect(facts.getByRole('link', { name: JOIN })).toBeVisible();
  await expect(page.locator('[data-invite-notice]')).toHaveCount(0);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'index, follow');
});

test('the page rewrites "checked N ago" with the visitor’s clock', async ({ page }) => {
  await page.clock.setFixedTime(new Date(Date.parse(checkedAt) + 5 * DAY + HOUR));
  await page.goto('/server/freshness-checked-guild');
  await expect(page.locator('[data-checked] time')).toHaveText('5 days ago');
});

test('a listing never checked says so and draws no history', async ({ page }) => {
  await page.goto('/server/freshness-unchecked-guild');
  await expect(page.locator('[data-checked]')).toContainText('not yet checked');
  await expect(page.locator('.history svg')).toHaveCount(0);
  await expect(page.locator('.history')).toContainText('No history yet');
  await expect(page.getByRole('link', { name: JOIN })).toBeVisible();
});

test('a suspect invite’s Join gives way to the notice, on its page and on its card', async ({ page }) => {
  await page.goto('/server/freshness-suspect-crypto');
  await expect(page.locator('[data-invite-notice]')).toHaveText(STOPPED);
  await expect(page.getByRole('link', { name: JOIN })).toHaveCount(0);
  await expect(page.locator('[data-checked]')).toContainText('the invite last worked 2 days ago');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'index, follow');
  // The crypto notice beside it, and the niche's reasons in the report dialog.
  await expect(page.locator('.niche-notice')).toContainText('Not financial advice');
  await page.getByRole('button', { name: 'Report' }).click();
  const dialog = page.getByRole('dialog');
  for (const reason of [
    'Scam or pump-and-dump',
    'Impersonates staff, a project or an exchange',
    'Paid signals or picks without disclosure',
    'Misleading information',
  ]) {
    await expect(dialog.getByRole('radio', { name: reason })).toBeVisible();
  }
  await expect(dialog.getByRole('radio', { name: 'Underage gambling' })).toHaveCount(0);

  await page.goto('/best-crypto-discord');
  const card = page.locator('article.card', { hasText: 'Freshness Suspect Crypto' });
  await expect(card.locator('.card-invite-notice')).toHaveText(STOPPED);
  await expect(card.getByRole('link', { name: /^Join/ })).toHaveCount(0);
});

test('a dead invite’s page keeps the notice and asks not to be indexed', async ({ page }) => {
  await page.goto('/server/freshness-dead-trading');
  await expect(page.locator('[data-invite-notice]')).toHaveText(STOPPED);
  await expect(page.getByRole('link', { name: JOIN })).toHaveCount(0);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, follow');
});

test('paused invites replace Join; an expiring one keeps it and says so', async ({ page }) => {
  await page.goto('/server/freshness-paused-betting');
  await expect(page.locator('[data-invite-notice]')).toHaveText("The server's admins have paused invites.");
  await expect(page.getByRole('link', { name: JOIN })).toHaveCount(0);
  await expect(page.locator('input[name="reason"][value="underage_gambling"]')).toHaveCount(1);

  await page.goto('/server/freshness-expiring-investing');
  await expect(page.locator('[data-invite-notice]')).toContainText('expires');
  await expect(page.getByRole('link', { name: JOIN })).toBeVisible();
});

test('niche pages carry their notices: not financial advice with the scam patterns, gambling age and help', async ({
  page,
}) => {
  const finance = ['/best-crypto-discord', subcategoryPath(subcategoriesOf('crypto')[0]!), '/best-trading-discord'];
  for (const path of [...finance, '/best-investing-discord', '/server/freshness-expiring-investing']) {
    await page.goto(path);
    const notice = page.locator('.niche-notice');
    await expect(notice, path).toContainText('Not financial advice');
    for (const pattern of ['pump-and-dump', 'paid signals', 'impersonated staff', 'DMs asking for keys']) {
      await expect(notice, path).toContainText(pattern);
    }
  }
  for (const path of ['/best-sports-betting-discord', '/server/freshness-paused-betting']) {
    await page.goto(path);
    const notice = page.locator('.niche-notice');
    await expect(notice, path).toContainText('18+');
    await expect(notice, path).toContainText('21+ in most US states');
    await expect(notice.getByRole('link', { name: /^1.800.GAMBLER.\(US\)$/ })).toHaveAttribute(
      'href',
      'tel:+18004262537',
    );
    await expect(notice.getByRole('link', { name: 'BeGambleAware (UK)' })).toBeVisible();
  }
  for (const path of ['/best-gaming-discord', '/server/freshness-checked-guild']) {
    await page.goto(path);
    await expect(page.locator('.niche-notice'), path).toHaveCount(0);
  }
  // A gaming listing's report dialog keeps the general reasons only.
  await expect(page.locator('input[name="reason"]')).toHaveCount(6);
});

test('every state fits a 320 px phone without sideways scroll', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  for (const path of [
    '/server/freshness-checked-guild',
    '/server/freshness-suspect-crypto',
    '/server/freshness-dead-trading',
    '/server/freshness-paused-betting',
    '/server/freshness-expiring-investing',
    '/server/freshness-flagged-guild',
    '/best-crypto-discord',
    '/best-sports-betting-discord',
  ]) {
    await page.goto(path);
    const o = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
    expect(o.scroll, path).toBeLessThanOrEqual(o.inner);
  }
});

// One test per page: an axe run is seconds of the browser's CPU on a loaded machine.
for (const path of [
  '/server/freshness-checked-guild',
  '/server/freshness-suspect-crypto',
  '/server/freshness-paused-betting',
  '/server/freshness-unchecked-guild',
  '/server/freshness-flagged-guild',
  '/best-sports-betting-discord',
]) {
  test(`axe finds no WCAG 2.2 AA violation in the facts, the chart and the notices of ${path}`, async ({ page }) => {
    // Discord's CDN is not this test's to reach: the icon falls back to its initials.
    await page.route('https://cdn.discordapp.com/**', (route) => route.abort());
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    const results = await axe(page)
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze();
    expect(
      results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      path,
    ).toEqual([]);
  });
}
