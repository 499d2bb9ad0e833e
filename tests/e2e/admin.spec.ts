import { readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { createContactMessage } from '../../db/queries/contact';
import { decideListingEdit, saveListingEdit } from '../../db/queries/listing-edits';
import { enqueueMail } from '../../db/queries/mail';
import { subscribeEmail } from '../../db/queries/newsletter';
import { createCompOrder } from '../../db/queries/orders';
import { upsertOwner } from '../../db/queries/owners';
import { createReport } from '../../db/queries/reports';
import { createServer, type ServerWrite } from '../../db/queries/servers';
import { insertSubmission, updateSubmissionStatus } from '../../db/queries/submissions';
import {
  discordServers,
  moderationDecisions,
  newsletterSubscribers,
  serverFlags,
  serverSubmissions,
} from '../../db/schema';
import { axe } from './axe';
import { signIn } from './console-sign-in';
import { expect, test } from './fixtures';

const unique = () => Math.random().toString(36).slice(2, 8);

const submissionFor = (name: string) => ({
  server_name: name,
  server_description: 'Rapid chess, daily puzzles and friendly tournaments for every level.',
  category: 'Gaming',
  invite_link: 'https://discord.gg/chess123',
  // No icon: the worker's server is shared with other specs, and this machine has no network to fetch one.
  server_image: null,
  contact_email: 'owner@example.com',
  features: 'Daily puzzles\nWeekly arenas',
  member_count: 1500,
  active_users: 200,
  submitter_name: 'Ana',
  is_owner: true,
});

/** A small trading room listed in the site's database (`extra` sets its join link, sort order...). */
const tradingRoom = (db: Parameters<typeof createServer>[0], name: string, extra: Partial<ServerWrite> = {}) =>
  createServer(db, {
    name,
    description: 'A calm trading room.',
    category: 'Trading',
    members: 10,
    active_users: 1,
    ...extra,
  });

test('an operator approves a pending submission and its page, category listing and sitemap entry go live', async ({
  page,
  site,
  request,
}) => {
  const name = `Chess Guild ${unique()}`;
  const sub = await insertSubmission(site.db, submissionFor(name));
  await signIn(page, site.db);
  await page.goto('/admin#submissions');
  await page
    .getByRole('row', { name: new RegExp(name) })
    .getByRole('button', { name: /Review/ })
    .click();
  await page.getByLabel('Admin notes').fill('Verified the invite');
  await page.getByRole('button', { name: 'Approve and publish' }).click();
  await expect(page.getByText(`Approved “${name}”`)).toBeVisible();

  const [row] = await site.db.select().from(serverSubmissions).where(eq(serverSubmissions.id, sub.id));
  expect(row?.status).toBe('approved');
  const slug = name.toLowerCase().replace(/\s+/g, '-');

  // Its page is rendered on request at once (#18), before the rebuild: a new listing is never prerendered.
  const live = await request.get(`/server/${slug}`);
  expect(live.status()).toBe(200);
  expect(await live.text()).toContain(name);
  // The category listing is prerendered: it follows the rebuild, which runs in the background.
  await expect
    .poll(async () => (await request.get('/best-gaming-discord')).text(), { timeout: 90_000, intervals: [250] })
    .toContain(name);
  expect(await (await request.get('/sitemap-servers-0.xml')).text()).toContain(`/server/${slug}`);
  // The console shows the build went live again.
  await expect(page.getByText('Site: Live')).toBeVisible({ timeout: 30_000 });
});

test('each console screen stores its operations, shows them after a reload, and logs them', async ({ page, site }) => {
  const tag = unique();
  // Premium placement needs a join link.
  const server = await tradingRoom(site.db, `Quiet Harbor ${tag}`, {
    affiliate_link: 'https://discord.gg/quietharbor',
  });
  const sub = await insertSubmission(site.db, submissionFor(`Spam Castle ${tag}`));
  await createReport(site.db, { server_id: server.id, reason: 'spam', details: `bots ${tag}` });
  const subscribed = await subscribeEmail(site.db, `reader-${tag}@example.com`);
  if (!subscribed.ok) throw new Error('subscribe failed');
  await createContactMessage(site.db, {
    name: 'Bo',
    email: `bo-${tag}@example.com`,
    subject: 'billing',
    message: `Invoice please ${tag}`,
    priority: 'high',
  });
  const email = await signIn(page, site.db);

  // Submissions: reject with notes.
  await page.goto('/admin#submissions');
  await page
    .getByRole('row', { name: new RegExp(`Spam Castle ${tag}`) })
    .getByRole('button', { name: /Review/ })
    .click();
  await page.getByLabel('Admin notes').fill(`Looks like spam ${tag}`);
  // A rejection picks its reasons (#32).
  await page.getByRole('checkbox', { name: 'Scam risk' }).check();
  await page.getByRole('button', { name: 'Reject' }).click();
  await expect(page.getByText(`“Spam Castle ${tag}” is now rejected.`)).toBeVisible();
  await page.reload();
  await page.getByLabel('Status').selectOption('rejected');
  await page
    .getByRole('row', { name: new RegExp(`Spam Castle ${tag}`) })
    .getByRole('button', { name: /Review/ })
    .click();
  await expect(page.getByLabel('Admin notes')).toHaveValue(`Looks like spam ${tag}`);
  expect(sub.id).toBeGreaterThan(0);

  // Servers: hide, mark premium, set sort order.
  await page.goto('/admin#servers');
  await page.getByLabel('Search servers').fill(`Quiet Harbor ${tag}`);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  // Hiding a live listing asks why first (#32): the reasons are mailed to its owner.
  await page.getByLabel(`Quiet Harbor ${tag} visible`).click();
  await page.getByRole('checkbox', { name: 'Scam risk' }).check();
  await page.getByRole('button', { name: 'Hide listing' }).click();
  // Added straight to the database, it has no contact address on record: the notice says nobody is mailed.
  await expect(
    page.getByText(`Quiet Harbor ${tag} is now hidden; no contact address is on record for it, so nobody is mailed.`),
  ).toBeVisible();
  await page.getByLabel(`Quiet Harbor ${tag} premium`).check();
  await expect(page.getByText(`Quiet Harbor ${tag}: premium on.`)).toBeVisible();
  await page.getByLabel(`Quiet Harbor ${tag} sort order`).fill('42');
  await page.getByLabel(`Quiet Harbor ${tag} sort order`).press('Enter');
  await expect(page.getByText(`Quiet Harbor ${tag}: sort order 42.`)).toBeVisible();
  await page.reload();
  await page.getByLabel('Search servers').fill(`Quiet Harbor ${tag}`);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByLabel(`Quiet Harbor ${tag} visible`)).not.toBeChecked();
  await expect(page.getByLabel(`Quiet Harbor ${tag} premium`)).toBeChecked();
  await expect(page.getByLabel(`Quiet Harbor ${tag} sort order`)).toHaveValue('42');

  // Reports: dismiss.
  await page.goto('/admin#reports');
  const report = page.getByRole('listitem').filter({ hasText: `bots ${tag}` });
  await report.getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByText('Report dismissed.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Reports' })).toBeVisible();
  await expect(page.getByText(`bots ${tag}`)).toHaveCount(0);

  // Content: create a row.
  await page.goto('/admin#content');
  await page.getByRole('button', { name: 'New content' }).click();
  await page.getByLabel('Page', { exact: true }).last().fill('home');
  await page.getByLabel('Section').fill('e2e');
  await page.getByLabel('Key').fill(`note-${tag}`);
  await page.getByLabel('Value').fill(`Hello ${tag}`);
  await page.getByRole('button', { name: 'Save content' }).click();
  await expect(page.getByText('Content saved; the site is rebuilding.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('row', { name: new RegExp(`note-${tag}`) })).toContainText(`Hello ${tag}`);

  // Newsletter: premium flag.
  await page.goto('/admin#newsletter');
  await page.getByLabel('Search email').fill(`reader-${tag}`);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.getByLabel(`reader-${tag}@example.com premium`).check();
  await expect(page.getByText(`reader-${tag}@example.com: premium on.`)).toBeVisible();
  await page.reload();
  await page.getByLabel('Search email').fill(`reader-${tag}`);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByLabel(`reader-${tag}@example.com premium`)).toBeChecked();

  // Contact inbox: mark replied.
  await page.goto('/admin#contact');
  const message = page.getByRole('article').filter({ hasText: `Invoice please ${tag}` });
  await message.getByRole('combobox').selectOption('replied');
  await expect(page.getByText('Message from Bo marked replied.')).toBeVisible();
  await page.reload();
  await expect(
    page
      .getByRole('article')
      .filter({ hasText: `Invoice please ${tag}` })
      .getByRole('combobox'),
  ).toHaveValue('replied');

  // Audit log: every write above, by this operator.
  await page.goto('/admin#audit');
  const mine = page.getByRole('row').filter({ hasText: email });
  for (const action of ['status', 'hide', 'placement', 'dismiss', 'create', 'update']) {
    await expect(mine.filter({ has: page.getByRole('cell', { name: action, exact: true }) }).first()).toBeVisible();
  }
});

test('the newsletter CSV export downloads with a header row', async ({ page, site }) => {
  const tag = unique();
  await subscribeEmail(site.db, `csv-${tag}@example.com`);
  await signIn(page, site.db);
  await page.goto('/admin#newsletter');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^subscribers-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '');
  const lines = text.trimEnd().split('\r\n');
  expect(lines[0]).toBe('id,email,status,premium_subscriber,source,interests,confirmed_at,unsubscribed_at,created_at');
  expect(lines.some((l) => l.includes(`csv-${tag}@example.com`))).toBe(true);
});

test('a refused sort order goes back to the stored one in its box, and the console says why', async ({
  page,
  site,
}) => {
  const name = `Sorted Harbor ${unique()}`;
  await tradingRoom(site.db, name, { sort_order: 5 });
  await signIn(page, site.db);
  await page.goto('/admin#servers');
  await page.getByLabel('Search servers').fill(name);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const box = page.getByLabel(`${name} sort order`);
  await expect(box).toHaveValue('5');
  // Past the API's bound (±1,000,000): the save is refused.
  await box.fill('5000000');
  await box.press('Enter');
  await expect(page.getByRole('alert')).toContainText(/sort_order/i);
  await expect(box).toHaveValue('5');
  // A second refusal of the same number is put back too.
  await box.fill('5000000');
  await box.press('Tab');
  await expect(box).toHaveValue('5');
});

test('owner edits past the first 50 are a page away, under a pager of their own', async ({ page, site }) => {
  // 51 decided edits of one sample listing (one pending edit per listing is the rule; decided ones stay listed).
  const owner = await upsertOwner(site.db, {
    id: `9${Date.now()}`.slice(0, 18),
    username: `pager_owner_${unique()}`,
    global_name: null,
    avatar: null,
  });
  const [listing] = await site.db.select({ id: discordServers.id }).from(discordServers).limit(1);
  for (let i = 0; i < 51; i++) {
    const edit = await saveListingEdit(site.db, listing!.id, owner.id, {
      description: { from: 'Before the edit.', to: `Edit number ${i} of the pager test.` },
    });
    await decideListingEdit(site.db, edit.id, { status: 'rejected', decidedBy: 'pager spec' });
  }
  await signIn(page, site.db);
  await page.goto('/admin#submissions');
  const edits = page.getByRole('region', { name: 'Owner edits' });
  await edits.getByLabel('Show').selectOption('rejected');
  const pager = edits.getByRole('navigation', { name: 'Owner edit pages' });
  await expect(pager).toContainText(/Page 1 of [2-9]/);
  await pager.getByRole('button', { name: 'Next' }).click();
  await expect(pager).toContainText(/Page 2 of/);
  await expect(edits.getByRole('button', { name: /^Review edit/ }).first()).toBeVisible();
});

test('orders past the first 50 are a page away, and a comp names the listing by the id the Servers screen shows', async ({
  page,
  site,
}) => {
  const name = `Granted Harbor ${unique()}`;
  const listing = await tradingRoom(site.db, name, { affiliate_link: 'https://discord.gg/grantedharbor' });
  const made: number[] = [];
  for (let i = 0; i < 51; i++) {
    const comp = await createCompOrder(site.db, {
      serverId: listing.id,
      category: 'Trading',
      placement: 'premium',
      termDays: 7,
      grantedBy: 'pager spec',
    });
    made.push(comp.id);
  }
  await signIn(page, site.db);
  await page.goto('/admin#servers');
  await page.getByLabel('Search servers').fill(name);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText(`#${listing.id} · /`);

  await page.goto('/admin#orders');
  const pager = page.getByRole('navigation', { name: 'Order pages' });
  await expect(pager).toContainText(/Page 1 of [2-9]/);
  await expect(page.getByRole('rowheader', { name: `#${made[0]}`, exact: true })).toHaveCount(0);
  await pager.getByRole('button', { name: 'Next' }).click();
  await expect(pager).toContainText(/Page 2 of/);
  await expect(page.getByRole('rowheader', { name: `#${made[0]}`, exact: true })).toBeVisible();
});

test('the console asks before it hides a reported server or unsubscribes an address', async ({ page, site }) => {
  const tag = unique();
  const name = `Reported Harbor ${tag}`;
  const listing = await tradingRoom(site.db, name);
  await createReport(site.db, { server_id: listing.id, reason: 'spam', details: `pump ${tag}` });
  const email = `kept-${tag}@example.com`;
  if (!(await subscribeEmail(site.db, email)).ok) throw new Error('subscribe failed');
  const isActive = async () =>
    (await site.db.select().from(discordServers).where(eq(discordServers.id, listing.id)))[0]?.is_active;
  await signIn(page, site.db);

  // Reports: Hide server asks why first (the reasons its owner is mailed), starting from the report's own.
  await page.goto('/admin#reports');
  const report = page.getByRole('listitem').filter({ hasText: `pump ${tag}` });
  await report.getByRole('button', { name: 'Hide server' }).click();
  const panel = page.getByRole('article', { name: `Hide ${name}` });
  await expect(panel.getByRole('checkbox', { name: 'Scam risk' })).toBeChecked();
  expect(await isActive()).toBe(true);
  await panel.getByRole('checkbox', { name: 'Misleading' }).check();
  await panel.getByLabel('Note to the owner (optional)').fill(`Pump and dump ${tag}`);
  await panel.getByRole('button', { name: 'Hide listing' }).click();
  await expect(
    page.getByText(`${name} is hidden; no contact address is on record for it, so nobody is mailed`),
  ).toBeVisible();
  expect(await isActive()).toBe(false);
  const [decision] = await site.db
    .select()
    .from(moderationDecisions)
    .where(eq(moderationDecisions.server_id, listing.id));
  expect(decision).toMatchObject({ kind: 'hide', note: `Pump and dump ${tag}` });
  expect([...decision!.reasons].sort()).toEqual(['misleading', 'scam_risk']);

  // Newsletter: Unsubscribe asks first; declined, the address stays subscribed.
  await page.goto('/admin#newsletter');
  await page.getByLabel('Search email').fill(email);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const unsubscribe = page.getByRole('button', { name: `Unsubscribe ${email}` });
  page.once('dialog', (d) => void d.dismiss());
  await unsubscribe.click();
  await expect(unsubscribe).toBeVisible();
  const status = async () =>
    (await site.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)))[0]?.status;
  expect(await status()).toBe('active');
  page.once('dialog', (d) => void d.accept());
  await unsubscribe.click();
  await expect(page.getByText(`${email} unsubscribed.`)).toBeVisible();
  expect(await status()).toBe('unsubscribed');
});

test("a mail in the Outbox and the week's issue preview fit a 320 px phone, the HTML part styled as sent in a frame of its own", async ({
  page,
  site,
}) => {
  const tag = unique();
  const subject = `A long line ${tag}`;
  await enqueueMail(site.db, {
    kind: 'contact_ack',
    dedupeKey: `phone-${tag}`,
    to: `phone-${tag}@example.com`,
    mail: {
      subject,
      // One unbroken line far wider than a phone, as a long link is.
      text: `Follow https://example.com/${'a'.repeat(400)} to see it.`,
      // Styled inline, as every mail template writes it.
      html: `<p id="hello" style="color:#4f46e5;font-weight:700">Hello ${tag}</p>`,
    },
  });
  // Any policy refusal on the console page or in its frames (the browser logs each one).
  const refused: string[] = [];
  page.on('console', (m) => {
    if (/Content[- ]Security[- ]Policy/i.test(m.text())) refused.push(m.text());
  });
  const pageWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
  await page.setViewportSize({ width: 320, height: 800 });
  await signIn(page, site.db);

  await page.goto('/admin#outbox');
  await page.getByRole('button', { name: `Open ${subject}` }).click();
  const html = page.getByTitle(`HTML part of ${subject}`);
  await expect(html).toBeVisible();
  expect(await pageWidth()).toBeLessThanOrEqual(320);
  // Not the browser's 300 × 150 default box: the HTML part gets room to be read.
  expect((await html.boundingBox())!.height).toBeGreaterThan(300);
  // The mail's inline styles apply, as in the mail received (the frame's own policy allows them).
  const hello = html.contentFrame().locator('#hello');
  await expect(hello).toHaveText(`Hello ${tag}`);
  await expect(hello).toHaveCSS('color', 'rgb(79, 70, 229)');
  await expect(hello).toHaveCSS('font-weight', '700');

  await page.goto('/admin#newsletter');
  await page.getByText('Preview', { exact: true }).click();
  const issue = page.getByTitle("Preview of this week's issue");
  await expect(issue).toBeVisible();
  expect(await pageWidth()).toBeLessThanOrEqual(320);
  // The issue's layout styles its body inline (mail/layout.ts): its background shows.
  await expect(issue.contentFrame().locator('body')).toHaveCSS('background-color', 'rgb(246, 246, 249)');
  expect(refused).toEqual([]);
});

test('signing out ends the session: the console asks to sign in again', async ({ page, site }) => {
  await signIn(page, site.db);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();
});

test('axe finds no WCAG 2.2 AA violation on the console sign-in, dashboard and submissions screens', async ({
  page,
  site,
}) => {
  // Three full scans and a sign-in: a single scan of a page took up to 48 s on the loaded 2-core
  // machine (2026-11-27 13:10 UTC), so this test gets the budget of the other many-page tests.
  test.setTimeout(120_000);
  const scan = async () => {
    const results = await axe(page)
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze();
    return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  };
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();
  expect(await scan()).toEqual([]);
  await insertSubmission(site.db, submissionFor(`Axe Guild ${unique()}`));
  await signIn(page, site.db);
  await expect(page.getByRole('heading', { name: 'Premium server performance' })).toBeVisible();
  expect(await scan()).toEqual([]);
  await page.goto('/admin#submissions');
  await expect(page.getByRole('heading', { name: 'Submissions' })).toBeVisible();
  await page
    .getByRole('button', { name: /Review/ })
    .first()
    .click();
  expect(await scan()).toEqual([]);
});

test('a session that ends mid-use brings back the sign-in form at the next call', async ({ page, site }) => {
  await signIn(page, site.db);
  await page.goto('/admin#submissions');
  await expect(page.getByRole('heading', { name: 'Submissions', level: 1 })).toBeVisible();
  // The console polls the build status, every 1.5 s while a rebuild (an earlier test's) runs and
  // every 10 s when none does: once the site is live, right after a poll, the click's call is the next one.
  await expect(page.getByText('Site: Live')).toBeVisible({ timeout: 90_000 });
  await page.waitForResponse((r) => new URL(r.url()).pathname === '/api/admin/build', { timeout: 15_000 });
  await page.context().clearCookies();
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Servers' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();
});

test('a console call that cannot reach the server says so', async ({ page, site }) => {
  await signIn(page, site.db);
  await page.route('**/api/admin/servers?*', (route) => route.abort('connectionfailed'));
  await page.goto('/admin#servers');
  await expect(page.getByRole('alert')).toHaveText('The server could not be reached. Check your connection and retry.');
});

test('a console list shows the answer to its latest filter when an older answer arrives last', async ({
  page,
  site,
}) => {
  const tag = unique();
  await insertSubmission(site.db, submissionFor(`Slow Pending ${tag}`));
  const rejected = await insertSubmission(site.db, submissionFor(`Fast Rejected ${tag}`));
  await updateSubmissionStatus(site.db, rejected.id, 'rejected', null);
  await signIn(page, site.db);
  // The pending queue's first answer is held until the rejected filter has answered.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let first = true;
  await page.route('**/api/admin/submissions?*status=pending*', async (route) => {
    if (first) {
      first = false;
      await held;
    }
    await route.continue();
  });
  const stale = page.waitForResponse((res) => res.url().includes('status=pending'));
  await page.goto('/admin#submissions');
  await page.getByLabel('Status').selectOption('rejected');
  await expect(page.getByRole('row', { name: new RegExp(`Fast Rejected ${tag}`) })).toBeVisible();
  release();
  await (await stale).finished();
  // Two frames: the page has read the late answer and rendered whatever it made of it.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await expect(page.getByRole('row', { name: new RegExp(`Fast Rejected ${tag}`) })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(`Slow Pending ${tag}`) })).toHaveCount(0);
  await expect(page.getByLabel('Status')).toHaveValue('rejected');
});

test('the Freshness screen lists a flagged listing, and confirming the flag takes it out of the queue', async ({
  page,
  site,
}) => {
  const name = `Flagged Desk ${unique()}`;
  const server = await createServer(site.db, {
    name,
    description: 'A trading room whose members jumped overnight.',
    category: 'Trading',
    members: 50_000,
    active_users: 600,
    affiliate_link: 'https://discord.gg/flagged',
  });
  await site.db.insert(serverFlags).values({
    server_id: server.id,
    rule: 'spike_no_presence',
    detail: 'Members rose by 30,000 (+150 %) in 24 hours (20,000 → 50,000) while online people changed by +12.',
  });
  await signIn(page, site.db);
  await page.goto('/admin#freshness');
  await expect(page.getByRole('heading', { name: 'Freshness', level: 1 })).toBeVisible();
  const queue = page.getByRole('table', { name: 'Anomaly flags waiting for review' });
  const row = queue.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('Member jump without online growth');
  await expect(row).toContainText('Members rose by 30,000');
  const results = await axe(page)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  await row.getByRole('button', { name: /^Confirm / }).click();
  await expect(page.getByText(`Confirmed on “${name}”`)).toBeVisible();
  await expect(page.getByText('No flags waiting for review.')).toBeVisible();
});
