// Paid placement's (#30) "must show" in Chromium against the production server, the loopback
// Discord stand-in (owner sign-in) and the loopback Stripe stand-in: an owner signs in, buys a
// Sponsored week for their listing, pays on the stand-in's checkout page, and after the rebuild sees
// it labelled Sponsored in Premium Picks and at the head of its category; asks for a refund, and
// after the next rebuild the label is gone.
import type { Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { createServer } from '../../db/queries/servers';
import { orders } from '../../db/schema';
import { categoryPath } from '../../src/lib/categories';
import { STAND_IN_KEYS, type StripeStandIn, startStripeStandIn } from '../helpers/stripe-stand-in';
import { expect } from './fixtures';
import { hydrated } from './hydration';
import { testWithOwnSite } from './own-site';

const GUILD = '914000000000000555';
const NAME = 'Harbor Signals';
let stripe: StripeStandIn | undefined;

const test = testWithOwnSite(
  'purchase',
  async (db) => {
    await createServer(db, {
      name: NAME,
      description: 'Macro notes and calm trade journaling for swing traders.',
      category: 'Trading',
      members: 990_000,
      active_users: 5000,
      affiliate_link: 'https://discord.gg/harborsignals',
      invite_code: 'harborsignals',
      guild_id: GUILD,
      invite_status: 'ok',
      last_checked_at: new Date().toISOString(),
      last_ok_at: new Date().toISOString(),
    });
  },
  undefined,
  async () => {
    stripe = await startStripeStandIn();
    return {
      STRIPE_SECRET_KEY: STAND_IN_KEYS.secretKey,
      STRIPE_WEBHOOK_SECRET: STAND_IN_KEYS.webhookSecret,
      STRIPE_API_BASE: stripe.url,
    };
  },
);

test.afterAll(async () => {
  await stripe?.close();
});

/** Whether the built home page's Premium Picks, and the category page's first card, show the listing as Sponsored. */
async function labelled(page: Page): Promise<{ picks: boolean; head: boolean }> {
  await page.goto('/');
  const picks = page.locator('section', { has: page.getByRole('heading', { name: 'Premium Picks' }) });
  const pick = picks.locator('article', { hasText: NAME });
  const inPicks = (await pick.count()) > 0 && (await pick.locator('.badge-sponsored').count()) > 0;
  await page.goto(categoryPath('trading'));
  const first = page.locator('article.card').first();
  const head =
    (await first.textContent())?.includes(NAME) === true && (await first.locator('.badge-sponsored').count()) > 0;
  return { picks: inPicks, head };
}

test('an owner buys a Sponsored week, pays on Stripe, sees it labelled, refunds, and the label is gone', async ({
  page,
  site,
}) => {
  test.setTimeout(300_000);
  stripe!.webhookUrl = `${site.baseURL}/api/webhooks/stripe`;
  site.discord.oauth.user = { id: '412000000000000055', username: 'harbor_owner', global_name: 'Harbor' };
  site.discord.oauth.guilds = [{ id: GUILD, name: NAME, owner: true, permissions: '0' }];

  await page.goto('/pricing');
  await expect(page.getByRole('row', { name: /Sponsored week/ })).toContainText('$49.00');
  await expect(page.getByRole('link', { name: 'Promote your listing' })).toBeVisible();

  await page.goto('/account');
  await hydrated(page);
  await page.getByRole('link', { name: 'Sign in with Discord' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await page.getByText(`Promote ${NAME}`).click();
  // Each plan is a row of its own with its radio at its start: the radios once ran inline, each
  // after the words of the plan above it, so the one beside "Sponsored week" was Premium month's.
  const plans = page.getByRole('group', { name: 'Pick a plan' });
  await expect(plans.getByRole('radio')).toHaveCount(3);
  const rows = await plans.evaluate((fieldset) => {
    const left = fieldset.getBoundingClientRect().left;
    return [...fieldset.querySelectorAll('label')].map((label) => {
      const radio = label.querySelector('input')!.getBoundingClientRect();
      const box = label.getBoundingClientRect();
      return { indent: Math.round(radio.left - left), inside: radio.top >= box.top && radio.bottom <= box.bottom };
    });
  });
  for (const row of rows) {
    expect(row.indent).toBeLessThan(24);
    expect(row.inside).toBe(true);
  }
  await page.getByRole('radio', { name: /Sponsored week/ }).check();
  await page.getByRole('button', { name: 'Pay with Stripe' }).click();

  // Stripe's (the stand-in's) checkout page, then back to the site.
  await expect(page.getByRole('heading', { name: 'Stripe stand-in checkout' })).toBeVisible();
  await expect(page.getByText('Total: 49.00 USD')).toBeVisible();
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page).toHaveURL(/\/account\/paid/);
  await expect(page.getByRole('heading', { name: /payment received/ })).toBeVisible();
  await expect
    .poll(async () => (await site.db.select().from(orders)).map((o) => o.state), { timeout: 30_000 })
    .toEqual(['paid']);

  // The rebuild the webhook asked for: Sponsored in Premium Picks and first in its category.
  await page.goto('/server/harbor-signals');
  await expect(page.locator('.badge-sponsored').first()).toBeVisible();
  await expect.poll(() => labelled(page), { timeout: 180_000, intervals: [2000] }).toEqual({ picks: true, head: true });
  const card = page.locator('article.card').first();
  await card.getByText('About this placement').click();
  await expect(card).toContainText(`Sponsored placement paid for by the owner of ${NAME}, until`);

  // While it runs the listing cannot be removed (its order would go with it): the owner is told
  // why beside the Remove button, and the listing stays.
  await page.goto('/account');
  await hydrated(page);
  const listing = page.getByRole('article', { name: NAME });
  page.once('dialog', (d) => void d.accept());
  await listing.getByRole('button', { name: 'Remove this listing' }).click();
  await expect(listing.getByRole('alert')).toContainText('ask for a refund under Placements first');
  await expect(listing.getByRole('button', { name: 'Remove this listing' })).toBeEnabled();
  expect((await site.db.select().from(orders)).map((o) => o.state)).toEqual(['paid']);

  // A refund in one click (and an optional reason): the placement ends at once.
  page.once('dialog', (d) => void d.accept('Trying it out'));
  await page.getByRole('button', { name: 'Ask for a refund' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Refunded' })).toBeVisible();
  const [order] = await site.db.select().from(orders).where(eq(orders.state, 'refunded'));
  expect(order?.refund_reason).toBe('Trying it out');
  await expect
    .poll(() => labelled(page), { timeout: 180_000, intervals: [2000] })
    .toEqual({ picks: false, head: false });
});

test('says a bank payment is processing, not received, when Stripe sends the owner back before it clears; and failed if the bank refuses it', async ({
  page,
  site,
}) => {
  stripe!.webhookUrl = `${site.baseURL}/api/webhooks/stripe`;
  site.discord.oauth.user = { id: '412000000000000055', username: 'harbor_owner', global_name: 'Harbor' };
  site.discord.oauth.guilds = [{ id: GUILD, name: NAME, owner: true, permissions: '0' }];
  await page.goto('/account');
  await hydrated(page);
  await page.getByRole('link', { name: 'Sign in with Discord' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await page.getByText(`Promote ${NAME}`).click();
  await page.getByRole('radio', { name: /Premium month/ }).check();
  await page.getByRole('button', { name: 'Pay with Stripe' }).click();
  await expect(page.getByRole('heading', { name: 'Stripe stand-in checkout' })).toBeVisible();
  // Paid by bank debit: the checkout completes unpaid, and Stripe sends the owner back.
  const sessionId = new URL(page.url()).pathname.split('/').pop()!;
  await stripe!.pay(sessionId, { delayed: true });
  await page.goto(`/account/paid?session_id=${sessionId}`);
  await expect(page.getByRole('heading', { name: 'Payment processing' })).toBeVisible();
  await expect(page.getByText('The placement starts when it clears')).toBeVisible();
  await expect(page.getByRole('heading', { name: /payment received/i })).toHaveCount(0);
  // The bank returns the debit.
  await stripe!.failDelayed(sessionId);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Payment failed: nothing was charged' })).toBeVisible();
});
