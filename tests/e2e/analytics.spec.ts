import type { BrowserContext, Page } from '@playwright/test';
import { asc } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { createOperator } from '../../db/queries/operators';
import { userInteractions } from '../../db/schema';
import { expect } from './fixtures';
import { hydrated } from './hydration';
import { testWithOwnSite } from './own-site';

/**
 * A site of its own for this file: the dashboard figures are totals over the whole database, so
 * rows written by other specs on the shared worker site must not be there.
 */
const test = testWithOwnSite('analytics');

const unique = (prefix: string) => `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

/** Each stored row as `type target value`, oldest first. */
async function rows(db: Db) {
  const all = await db.select().from(userInteractions).orderBy(asc(userInteractions.id));
  return all.map((r) => ({
    line: `${r.interaction_type} ${r.target_type} ${r.conversion_value ?? 0}`,
    session: r.session_id,
  }));
}

/** Waits until exactly `n` rows are stored (beacons arrive on their own time), then returns them. */
async function settled(db: Db, n: number) {
  await expect.poll(async () => (await rows(db)).length, { timeout: 10_000 }).toBe(n);
  return rows(db);
}

/** The outbound invites: no network here, so each join lands on a stand-in page. */
async function standInInvites(context: BrowserContext) {
  await context.route('https://discord.gg/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Invite</title>' }),
  );
}

/** The tab's analytics session id, once the page has made it. */
const sessionOf = (page: Page) =>
  page.waitForFunction(() => sessionStorage.getItem('gr_session_id')).then((h) => h.jsonValue() as Promise<string>);

/**
 * Joins the open server page's premium server through /go (a new tab) and closes that tab once it
 * asked for the invite: /go answered with Discord's invite URL, whatever the tab makes of it then.
 */
async function joinPremium(page: Page) {
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.context().waitForEvent('request', (request) => request.url() === 'https://discord.gg/apexhub'),
    page.getByRole('link', { name: /Join Premium Server/ }).click(),
  ]);
  await popup.close();
}

/** Subscribes a fresh address through the home page's newsletter box. */
async function subscribe(page: Page) {
  await page.goto('/#newsletter');
  await hydrated(page);
  const box = page.locator('#newsletter');
  await box.getByLabel('Email address').fill(`${unique('reader')}@example.com`);
  await box.getByRole('button', { name: 'Subscribe' }).click();
  await expect(box.getByText('Thanks for subscribing!')).toBeVisible();
}

test.beforeEach(async ({ site }) => {
  // Every test counts from an empty table on this file's own site.
  await site.db.delete(userInteractions);
});

test('every tracked action in Chromium stores exactly one row of its own kind and conversion value', async ({
  page,
  context,
  site,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await standInInvites(context);

  // Apex Legends Hub is premium and sponsored: its join is worth 5.
  await page.goto('/server/apex-legends-hub');
  await hydrated(page);
  const session = await sessionOf(page);
  expect((await settled(site.db, 1)).map((r) => r.line)).toEqual(['view server 0']);

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await settled(site.db, 2);
  await page.getByRole('button', { name: 'Saved', exact: true }).click();
  await settled(site.db, 3);
  await page.getByRole('button', { name: 'Share' }).click();
  await expect(page.getByRole('button', { name: 'Link copied!' })).toBeVisible();
  await settled(site.db, 4);

  await page.getByRole('button', { name: 'Report' }).click();
  const dialog = page.getByRole('dialog', { name: 'Report Apex Legends Hub' });
  await dialog.getByRole('radio', { name: 'Spam or scam' }).check();
  await dialog.getByRole('button', { name: 'Submit Report' }).click();
  await expect(page.getByRole('heading', { name: 'Reported' })).toBeVisible();
  await settled(site.db, 5);

  await joinPremium(page);
  await settled(site.db, 6);

  await subscribe(page);
  await settled(site.db, 7);

  // The premium call to action on the help page leads to the contact form, Premium subject picked.
  await page.goto('/help');
  await page.getByRole('link', { name: 'Ask about Premium' }).click();
  await expect(page).toHaveURL(/\/contact\?subject=premium$/);
  await hydrated(page);
  await settled(site.db, 8);
  await expect(page.getByLabel('Subject')).toHaveValue('premium');
  await page.getByLabel('Name').fill('Ada');
  await page.getByLabel('Email').fill(`${unique('owner')}@example.com`);
  await page.getByLabel('Message').fill('We would like Premium for our trading server next month.');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByRole('heading', { name: 'Message Sent!' })).toBeVisible();

  const stored = await settled(site.db, 9);
  expect(stored.map((r) => r.line)).toEqual([
    'view server 0',
    'save server 0',
    'unsave server 0',
    'share server 0',
    'report server 0',
    'click server 5',
    'signup newsletter 2',
    'click premium_cta 10',
    'conversion premium_cta 0',
  ]);
  // The page's own events, the report, the join and the call to action all carry the tab's session.
  expect(stored.slice(0, 6).map((r) => r.session)).toEqual(Array(6).fill(session));
  expect(stored[7]?.session).toBe(session);
});

test('after one scripted visit the dashboard shows 1 click worth 5, 1 signup worth 2 and worth 7 in all', async ({
  page,
  context,
  site,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await standInInvites(context);

  // The visit: view, save, share, join a premium server, subscribe.
  await page.goto('/server/apex-legends-hub');
  await hydrated(page);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('button', { name: 'Share' }).click();
  await expect(page.getByRole('button', { name: 'Link copied!' })).toBeVisible();
  await joinPremium(page);
  await subscribe(page);
  await settled(site.db, 5);

  const email = `${unique('admin')}@example.com`;
  await createOperator(site.db, { email, password: 'a long operator password', role: 'admin' });
  await page.goto('/admin');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a long operator password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();

  const row = (name: RegExp) => page.getByRole('row', { name });
  await expect(row(/^Clicks/).getByRole('cell')).toHaveText(['1', '5.00']);
  await expect(row(/^Signups/).getByRole('cell')).toHaveText(['1', '2.00']);
  await expect(row(/^Views/).getByRole('cell')).toHaveText(['1', '0.00']);
  await expect(row(/^Saves/).getByRole('cell')).toHaveText(['1', '0.00']);
  await expect(row(/^Shares/).getByRole('cell')).toHaveText(['1', '0.00']);
  await expect(row(/^Conversions/).getByRole('cell')).toHaveText(['0', '0.00']);
  await expect(page.locator('.stat').filter({ hasText: 'Worth of actions' }).locator('.stat-value')).toHaveText('7.00');
});
