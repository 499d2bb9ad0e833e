import { and, eq, or } from 'drizzle-orm';
import {
  contactMessages,
  discordServers,
  newsletterSubscribers,
  serverReports,
  serverSubmissions,
  userInteractions,
} from '../../db/schema';
import { countOf } from '../../src/lib/format';
import { PERMISSIVE_INVITE } from '../helpers/discord-stand-in';
import { expect, test } from './fixtures';
import { hydrated } from './hydration';
import { withoutJavaScript } from './plain-browser';

const unique = (prefix: string) => `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

test('searching from the hero opens the shareable search page with matching servers', async ({ page }) => {
  await page.goto('/');
  await hydrated(page);
  await page.getByRole('searchbox', { name: 'Search servers' }).fill('bitcoin');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(/\/search\?search=bitcoin$/);
  const list = page.locator('.search-results');
  await expect(list.getByText('1 server found for “bitcoin”')).toBeVisible();
  await expect(list.getByRole('link', { name: 'Bitcoin Maximalists', exact: true })).toBeVisible();
  await expect(list.getByRole('link', { name: 'Apex Legends Hub', exact: true })).toHaveCount(0);
});

test('filtering by a category and Premium Only re-queries the listing', async ({ page, site }) => {
  // Other specs may have approved servers on this worker's site: count what the API will list.
  const listed = (category: string, premium = false) =>
    site.db
      .select()
      .from(discordServers)
      .where(
        and(
          eq(discordServers.is_active, true),
          eq(discordServers.category, category),
          premium ? or(eq(discordServers.is_premium, true), eq(discordServers.is_sponsored, true)) : undefined,
        ),
      )
      .then((rows) => rows.length);
  await page.goto('/');
  await hydrated(page);
  const list = page.locator('#servers');
  await list.getByRole('button', { name: 'Trading', exact: true }).click();
  await expect(list.getByRole('button', { name: 'Trading', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(list.getByText(`${countOf(await listed('Trading'), 'server')} found`)).toBeVisible();
  await expect(list.getByRole('link', { name: 'Forex Signals Room', exact: true })).toBeVisible();
  await list.getByRole('button', { name: 'Investing', exact: true }).click();
  await list.getByRole('button', { name: 'Premium Only' }).click();
  expect(await listed('Investing', true)).toBe(0);
  await expect(list.getByText('No premium servers found')).toBeVisible();
  await expect(list.getByRole('link', { name: 'View All Servers' })).toHaveAttribute('href', '/servers');
  await list.getByRole('button', { name: 'Gaming', exact: true }).click();
  await expect(list.getByText(`${countOf(await listed('Gaming', true), 'server')} found`)).toBeVisible();
  await expect(list.getByRole('link', { name: 'Apex Legends Hub', exact: true })).toBeVisible();
  await expect(list.getByRole('link', { name: 'Indie Game Devs', exact: true })).toHaveCount(0);
});

test('a visitor opens a server, saves it (kept after reload, listed on /saved) and unsaves it', async ({ page }) => {
  await page.goto('/best-crypto-discord');
  await hydrated(page);
  await page.getByRole('link', { name: 'View details of Bitcoin Maximalists' }).click();
  await expect(page).toHaveURL(/\/server\/bitcoin-maximalists$/);
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bitcoin Maximalists');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Saved', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await page.reload();
  await hydrated(page);
  await expect(page.getByRole('button', { name: 'Saved', exact: true })).toBeVisible();
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('savedServers') ?? '[]'));
  expect(stored[0]).toMatchObject({ id: 2, name: 'Bitcoin Maximalists', category: 'Crypto' });
  expect(typeof stored[0].savedAt).toBe('number');
  await page.goto('/saved');
  await hydrated(page);
  await expect(page.getByRole('link', { name: 'Bitcoin Maximalists' })).toHaveAttribute(
    'href',
    '/server/bitcoin-maximalists',
  );
  await page.getByRole('button', { name: 'Remove Bitcoin Maximalists' }).click();
  await expect(page.getByText('No saved servers yet')).toBeVisible();
});

test('removing a saved server on /saved keeps keyboard focus in the list: next, then previous, then the empty state', async ({
  page,
}) => {
  await page.addInitScript(() => {
    const saved = ['Alpha Saved', 'Bravo Saved', 'Charlie Saved'].map((name, i) => ({
      id: 9001 + i,
      name,
      category: 'Gaming',
      image_url: null,
      slug: null,
      savedAt: Date.now(),
    }));
    localStorage.setItem('savedServers', JSON.stringify(saved));
  });
  await page.goto('/saved');
  await hydrated(page);
  await page.getByRole('button', { name: 'Remove Bravo Saved' }).click();
  await expect(page.getByRole('button', { name: 'Remove Charlie Saved' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Remove Alpha Saved' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'No saved servers yet' })).toBeFocused();
});

test('the server page view is recorded with the tab session id', async ({ page, site }) => {
  await page.goto('/server/nfl-betting-edge');
  await hydrated(page);
  const sessionId = await page.evaluate(() => {
    return new Promise<string>((resolve) => {
      const read = () => {
        const id = sessionStorage.getItem('gr_session_id');
        if (id) resolve(id);
        else setTimeout(read, 50);
      };
      read();
    });
  });
  await expect
    .poll(async () =>
      site.db
        .select()
        .from(userInteractions)
        .where(and(eq(userInteractions.session_id, sessionId), eq(userInteractions.interaction_type, 'view'))),
    )
    .toHaveLength(1);
});

test('share copies the link and shows the copied indicator for 2 seconds', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/server/forex-signals-room');
  await hydrated(page);
  await page.getByRole('button', { name: 'Share' }).click();
  await expect(page.getByRole('button', { name: 'Link copied!' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/\/server\/forex-signals-room$/);
  await expect(page.getByRole('button', { name: 'Share' })).toBeVisible({ timeout: 4000 });
});

test('share with the clipboard refused offers the link to copy by hand and never says it was copied', async ({
  page,
}) => {
  // A browser that refuses the clipboard (no permission, an insecure context); the prompt that
  // offers the link is recorded and closed as a visitor would close it.
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')) },
    });
    const offered: string[] = [];
    Object.assign(window, { offered });
    window.prompt = (_message?: string, value?: string) => {
      offered.push(value ?? '');
      return null;
    };
  });
  await page.goto('/server/forex-signals-room');
  await hydrated(page);
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { offered: string[] }).offered))
    .toEqual([expect.stringMatching(/\/server\/forex-signals-room$/)]);
  // The click's handler goes on in the task the prompt returned to: one task later it has ended.
  await page.evaluate(() => new Promise((done) => setTimeout(done, 0)));
  // Nothing was copied: the button and the status say nothing of the kind. Read once, now (a
  // retrying assertion would pass once a false indicator had reverted by itself).
  const said = await page.evaluate(() => [
    document.querySelector('[data-share]')?.textContent,
    document.querySelector('[data-share-status]')?.textContent,
  ]);
  expect(said).toEqual(['Share', '']);
});

test('reporting a server stores a server_reports row, shows Reported, then closes', async ({ page, site }) => {
  await page.goto('/server/indie-game-devs');
  await hydrated(page);
  await page.getByRole('button', { name: 'Report' }).click();
  const dialog = page.getByRole('dialog', { name: 'Report Indie Game Devs' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Submit Report' })).toBeDisabled();
  await dialog.getByRole('radio', { name: 'Broken invite link' }).check();
  const details = unique('invite expired');
  await dialog.getByLabel('Details (optional)').fill(details);
  await dialog.getByRole('button', { name: 'Submit Report' }).click();
  await expect(page.getByRole('heading', { name: 'Reported' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0, { timeout: 5000 });
  const rows = await site.db.select().from(serverReports).where(eq(serverReports.details, details));
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ server_id: 10, reason: 'broken_link' });
});

test('Join opens the stored link in a new tab through /go and records the click', async ({ page, context, site }) => {
  // No internet here: answer the external invite page locally.
  await context.route('https://discord.gg/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Discord invite</title>' }),
  );
  await page.goto('/server/dividend-investors-club');
  await hydrated(page);
  const before = await site.db
    .select()
    .from(userInteractions)
    .where(and(eq(userInteractions.server_id, 9), eq(userInteractions.interaction_type, 'click')));
  const join = page.getByRole('link', { name: /^Join Server/ });
  await expect(join).toHaveAttribute('rel', 'nofollow ugc noopener');
  await expect(join).toHaveAttribute('target', '_blank');
  const external = context.waitForEvent('request', (r) => r.url().startsWith('https://discord.gg/'));
  const [popup] = await Promise.all([context.waitForEvent('page'), join.click()]);
  const request = await external;
  expect(request.url()).toBe('https://discord.gg/dividends');
  // The join carries the tab's analytics session id (site-client adds it as the link is followed).
  expect(request.redirectedFrom()?.url()).toMatch(/\/go\/dividend-investors-club\?s=[\w-]+$/);
  expect(request.frame().page()).toBe(popup);
  await expect
    .poll(async () =>
      site.db
        .select()
        .from(userInteractions)
        .where(and(eq(userInteractions.server_id, 9), eq(userInteractions.interaction_type, 'click'))),
    )
    .toHaveLength(before.length + 1);
});

test('premium Join links are marked sponsored', async ({ page }) => {
  await page.goto('/server/apex-legends-hub');
  await hydrated(page);
  await expect(page.getByRole('link', { name: /^Join Premium Server/ })).toHaveAttribute('rel', 'sponsored noopener');
  await page.goto('/best-gaming-discord');
  await hydrated(page);
  await expect(page.getByRole('link', { name: /Join Premium: Apex Legends Hub/ })).toHaveAttribute(
    'href',
    '/go/apex-legends-hub',
  );
});

test('the newsletter stores the subscriber, thanks for 3 s, returns cleared, and reports a duplicate', async ({
  page,
  site,
}) => {
  const email = `${unique('reader')}@example.com`;
  await page.goto('/#newsletter');
  await hydrated(page);
  const box = page.locator('#newsletter');
  await box.getByLabel('Email address').fill(email);
  await box.getByRole('button', { name: 'Subscribe' }).click();
  await expect(box.getByText('Thanks for subscribing!')).toBeVisible();
  const rows = await site.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email));
  expect(rows).toHaveLength(1);
  await expect(box.getByLabel('Email address')).toHaveValue('', { timeout: 5000 });
  // Pending until its confirmation link is followed (#16); a confirmed address is the duplicate.
  expect(rows[0]?.status).toBe('pending');
  await site.db
    .update(newsletterSubscribers)
    .set({ status: 'active', confirmed_at: new Date().toISOString() })
    .where(eq(newsletterSubscribers.email, email));
  await box.getByLabel('Email address').fill(email);
  await box.getByRole('button', { name: 'Subscribe' }).click();
  await expect(box.getByRole('alert')).toHaveText('Email already subscribed');
});

test('submitting a server stores a pending submission and shows Submission Received!', async ({ page, site }) => {
  const email = `${unique('owner')}@example.com`;
  await page.goto('/submit-server');
  await hydrated(page);
  const submit = page.getByRole('button', { name: 'Submit Server for Review' });
  await page.getByLabel('Server name').fill('Chess Night Club');
  await expect(submit).toBeDisabled();
  await page.getByRole('combobox', { name: /^Category/ }).selectOption('Gaming');
  await page.getByLabel('Description').fill('Weekly chess tournaments, puzzle rush battles and friendly coaching.');
  await page.getByLabel('Invite link').fill('https://discord.gg/chessnight');
  await page.getByLabel('Icon URL').fill('https://example.com/chess.png');
  await page.getByLabel('Features (optional)').fill('Weekly arena\nPuzzle rush');
  await page.getByLabel('Your name').fill('Magnus');
  await page.getByLabel('Contact email').fill(email);
  await expect(page.getByLabel('I own or manage this server')).toBeChecked();
  await expect(submit).toBeDisabled();
  await page.getByLabel(/I accept the/).check();
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page.getByRole('heading', { name: 'Submission Received!' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  const rows = await site.db.select().from(serverSubmissions).where(eq(serverSubmissions.contact_email, email));
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({
    status: 'pending',
    server_name: 'Chess Night Club',
    member_count: PERMISSIVE_INVITE.memberCount,
  });
  await page.getByRole('button', { name: 'Submit Another Server' }).click();
  await expect(page.getByLabel('Server name')).toHaveValue('');
});

test('a refused submission shows the Submission Error box with the field message', async ({ page }) => {
  await page.goto('/submit-server');
  await hydrated(page);
  await page.getByLabel('Server name').fill('Bad Invite Server');
  await page.getByLabel('Description').fill('A description that is long enough to pass the rule.');
  await page.getByLabel('Invite link').fill('https://example.com/not-discord');
  await page.getByLabel('Icon URL').fill('https://example.com/icon.png');
  await page.getByLabel('Your name').fill('Tester');
  await page.getByLabel('Contact email').fill(`${unique('bad')}@example.com`);
  await page.getByLabel(/I accept the/).check();
  await page.getByRole('button', { name: 'Submit Server for Review' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Submission Error' })).toBeVisible();
  await expect(page.getByText('Invite link must be a Discord invite, like https://discord.gg/abc123.')).toBeVisible();
  await expect(page.getByLabel('Invite link')).toHaveAttribute('aria-invalid', 'true');
});

test('the submit form works without JavaScript as a plain POST', async ({ browser, site }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: site.baseURL });
  const page = await context.newPage();
  const email = `${unique('nojs')}@example.com`;
  await page.goto('/submit-server');
  await page.getByLabel('Server name').fill('Plain Form Guild');
  await page.getByLabel('Description').fill('Submitted with scripts switched off, as a plain HTML form.');
  await page.getByLabel('Invite link').fill('https://discord.gg/plainform');
  await page.getByLabel('Icon URL').fill('https://example.com/plain.png');
  await page.getByLabel('Your name').fill('No Script');
  await page.getByLabel('Contact email').fill(email);
  await page.getByLabel(/I accept the/).check();
  await page.getByRole('button', { name: 'Submit Server for Review' }).click();
  await expect(page).toHaveURL(/\/submit-server\/received\?email=/);
  await expect(page.getByRole('heading', { name: 'Submission Received!' })).toBeVisible();
  const rows = await site.db.select().from(serverSubmissions).where(eq(serverSubmissions.contact_email, email));
  expect(rows).toHaveLength(1);
  await context.close();
});

test('the contact form stores the message and shows Message Sent!', async ({ page, site }) => {
  const email = `${unique('asker')}@example.com`;
  await page.goto('/contact');
  await hydrated(page);
  await page.getByLabel('Name').fill('Ada');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Subject').selectOption('partnership');
  await page.getByLabel('Priority').selectOption('high');
  await page.getByLabel('Message').fill('We would like to sponsor the trading category next month.');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByRole('heading', { name: 'Message Sent!' })).toBeVisible();
  const rows = await site.db.select().from(contactMessages).where(eq(contactMessages.email, email));
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ subject: 'partnership', priority: 'high', name: 'Ada' });
});

test('a refused post redirected back (no built page to fill in) marks the named submit fields', async ({ page }) => {
  await page.goto('/submit-server?error=validation_failed&fields=invite_link,contact_email');
  await hydrated(page);
  await expect(page.getByRole('alert')).toContainText('Please check these 2 fields: Invite link and Contact email.');
  const invite = page.getByLabel('Invite link');
  await expect(invite).toHaveAttribute('aria-invalid', 'true');
  await expect(invite).toHaveAccessibleDescription(/Check this field/);
  await expect(page.getByLabel('Server name')).not.toHaveAttribute('aria-invalid', 'true');
});

test('a refused post redirected back (no built page to fill in) marks the named contact fields', async ({ page }) => {
  await page.goto('/contact?error=validation_failed&fields=email');
  await hydrated(page);
  await expect(page.getByRole('alert')).toContainText('Your message was not sent');
  const email = page.getByLabel('Email');
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(email).toHaveAccessibleDescription(/Check this field/);
});

test('without JavaScript the mobile header shows its navigation links instead of a dead toggle', async ({
  browser,
  site,
}) => {
  const { context, page } = await withoutJavaScript(browser, site.baseURL);
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Submit Server' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();
  await context.close();
});
