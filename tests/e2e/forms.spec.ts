import type { Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { contactMessages, newsletterSubscribers, serverReports, serverSubmissions } from '../../db/schema';
import { PERMISSIVE_INVITE } from '../helpers/discord-stand-in';
import { expect } from './fixtures';
import { holdScripts, hydrated, unhydrated } from './hydration';
import { testWithOwnSite } from './own-site';

// Issue #13 items 2 and 5: what a visitor types is never wiped (before the island hydrates, or by
// a refused post), and a refused form says what is wrong by the fields' labels, with or without
// JavaScript.

// A site of its own: these tests post 4 submissions and 4 messages, which would use up most of
// the shared site's rate limits (5 per 10 minutes per address on Node) before the other specs ran.
const test = testWithOwnSite('forms');

const unique = (prefix: string) => `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

/** Errors the page throws (a hydration mismatch is reported as one). */
function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

test('the public forms load their code when the visitor starts on them; a page opened with a query at once', async ({
  page,
}) => {
  for (const [path, field] of [
    ['/contact', 'Name'],
    ['/submit-server', 'Server name'],
  ] as const) {
    const scripts: string[] = [];
    const listen = (r: import('@playwright/test').Request) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    };
    page.on('request', listen);
    await page.goto(path, { waitUntil: 'networkidle' });
    const island = page.locator('astro-island[client="interaction"]');
    const code = [await island.getAttribute('component-url'), await island.getAttribute('renderer-url')];
    // Read, not touched: neither the form's code nor React was asked for.
    expect(
      scripts.filter((s) => code.includes(s)),
      `${path} before any interaction`,
    ).toEqual([]);
    expect(await unhydrated(page)).toBe(1);
    await page.getByLabel(field).click();
    await expect.poll(() => unhydrated(page), { message: `${path} hydrated once started on` }).toBe(0);
    expect(scripts).toEqual(expect.arrayContaining(code));
    page.off('request', listen);
  }
  // The premium call to action's subject is in the query: the form picks it without a touch.
  await page.goto('/contact?subject=premium');
  await expect(page.getByLabel('Subject')).toHaveValue('premium');
  expect(await unhydrated(page)).toBe(0);
});

test('the submit form keeps what was typed before its script ran, and sends it', async ({ page, site }) => {
  const errors = pageErrors(page);
  const release = await holdScripts(page);
  const email = `${unique('early')}@example.com`;
  await page.goto('/submit-server', { waitUntil: 'commit' });
  await page.getByLabel('Server name').fill('Early Bird Guild');
  await page.getByLabel(/^Category/).selectOption('Trading');
  await page.getByLabel('Subcategory (optional)').selectOption('Forex Trading');
  await page.getByLabel('Description').fill('Typed on a slow phone before the page script arrived.');
  await page.getByLabel('Invite link').fill('https://discord.gg/earlybird');
  await page.getByLabel('Icon URL').fill('https://example.com/early.png');
  await page.getByLabel('Features (optional)').fill('Morning calls');
  await page.getByLabel('Your name').fill('Early');
  await page.getByLabel('Contact email').fill(email);
  await page.getByLabel('I own or manage this server').uncheck();
  await page.getByLabel(/I accept the/).check();
  expect(await unhydrated(page), 'typed before hydration').toBeGreaterThan(0);

  release();
  await hydrated(page);
  await expect(page.getByLabel('Server name')).toHaveValue('Early Bird Guild');
  await expect(page.getByLabel(/^Category/)).toHaveValue('Trading');
  await expect(page.getByLabel('Subcategory (optional)')).toHaveValue('Forex Trading');
  await expect(page.getByLabel('Description')).toHaveValue('Typed on a slow phone before the page script arrived.');
  await expect(page.getByLabel('Invite link')).toHaveValue('https://discord.gg/earlybird');
  await expect(page.getByLabel('Features (optional)')).toHaveValue('Morning calls');
  await expect(page.getByLabel('Contact email')).toHaveValue(email);
  await expect(page.getByLabel('I own or manage this server')).not.toBeChecked();
  await expect(page.getByLabel(/I accept the/)).toBeChecked();

  await page.getByRole('button', { name: 'Submit Server for Review' }).click();
  await expect(page.getByRole('heading', { name: 'Submission Received!' })).toBeVisible();
  const rows = await site.db.select().from(serverSubmissions).where(eq(serverSubmissions.contact_email, email));
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({
    server_name: 'Early Bird Guild',
    category: 'Trading',
    subcategory: 'Forex Trading',
    // Discord's count (the site's permissive stand-in), not a typed one.
    member_count: PERMISSIVE_INVITE.memberCount,
    is_owner: false,
  });
  expect(errors).toEqual([]);
});

test('the contact form keeps what was typed before its script ran, and sends it', async ({ page, site }) => {
  const errors = pageErrors(page);
  const release = await holdScripts(page);
  const email = `${unique('early')}@example.com`;
  await page.goto('/contact', { waitUntil: 'commit' });
  await page.getByLabel('Name').fill('Grace');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Subject').selectOption('billing');
  await page.getByLabel('Priority').selectOption('urgent');
  await page.getByLabel('Message').fill('Typed before the script: please keep it.');
  expect(await unhydrated(page), 'typed before hydration').toBeGreaterThan(0);

  release();
  await hydrated(page);
  await expect(page.getByLabel('Name')).toHaveValue('Grace');
  await expect(page.getByLabel('Subject')).toHaveValue('billing');
  await expect(page.getByLabel('Priority')).toHaveValue('urgent');
  await expect(page.getByLabel('Message')).toHaveValue('Typed before the script: please keep it.');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByRole('heading', { name: 'Message Sent!' })).toBeVisible();
  const rows = await site.db.select().from(contactMessages).where(eq(contactMessages.email, email));
  expect(rows[0]).toMatchObject({ name: 'Grace', subject: 'billing', priority: 'urgent' });
  expect(errors).toEqual([]);
});

test('the newsletter box keeps an address typed before its script ran, and subscribes it', async ({ page, site }) => {
  const release = await holdScripts(page);
  const email = `${unique('early')}@example.com`;
  await page.goto('/', { waitUntil: 'commit' });
  const box = page.locator('#newsletter');
  await box.getByLabel('Email address').fill(email);
  expect(await unhydrated(page), 'typed before the scripts ran').toBeGreaterThan(0);
  release();
  await hydrated(page);
  await expect(box.getByLabel('Email address')).toHaveValue(email);
  await box.getByRole('button', { name: 'Subscribe' }).click();
  await expect(box.getByText('Thanks for subscribing!')).toBeVisible();
  const rows = await site.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email));
  expect(rows).toHaveLength(1);
});

test('the report dialog keeps the reason and details when closed and opened again', async ({ page, site }) => {
  await page.goto('/server/indie-game-devs');
  await hydrated(page);
  await page.getByRole('button', { name: 'Report' }).click();
  const dialog = page.getByRole('dialog', { name: 'Report Indie Game Devs' });
  await dialog.getByRole('radio', { name: 'Misleading information' }).check();
  const details = unique('member count is off');
  await dialog.getByLabel('Details (optional)').fill(details);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Report' }).click();
  await expect(dialog.getByRole('radio', { name: 'Misleading information' })).toBeChecked();
  await expect(dialog.getByLabel('Details (optional)')).toHaveValue(details);
  await expect(dialog.getByRole('button', { name: 'Submit Report' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Submit Report' }).click();
  await expect(page.getByRole('heading', { name: 'Reported' })).toBeVisible();
  const rows = await site.db.select().from(serverReports).where(eq(serverReports.details, details));
  expect(rows[0]).toMatchObject({ reason: 'misleading_info' });
  // Once sent, the next report starts empty.
  await expect(page.getByRole('dialog')).toHaveCount(0, { timeout: 5000 });
  await page.getByRole('button', { name: 'Report' }).click();
  await expect(dialog.getByLabel('Details (optional)')).toHaveValue('');
});

test('the console signs in with what its fields hold, filled in without typing events (a password manager)', async ({
  page,
}) => {
  await page.goto('/admin');
  await expect(page.getByLabel('Password')).toBeVisible();
  // Autofill sets the values the way this does: no input event reaches the page's script.
  await page.evaluate(() => {
    const set = (label: string, value: string) => {
      const input = [...document.querySelectorAll('label')]
        .find((l) => l.textContent?.trim().startsWith(label))
        ?.querySelector('input');
      if (input) input.value = value;
    };
    set('Email', 'admin@example.com');
    set('Password', 'wrong-password-for-this-test');
  });
  await page.getByRole('button', { name: 'Sign in' }).click();
  // The values were read: the server answered (wrong password), not "enter your email".
  await expect(page.getByText('Enter your email address and password.')).toHaveCount(0);
  await expect(page.locator('.notice-error')).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue('admin@example.com');
});

test('without JavaScript a refused submission comes back with what was typed and each field’s message', async ({
  browser,
  site,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: site.baseURL });
  const page = await context.newPage();
  await page.goto('/submit-server');
  await page.getByLabel('Server name').fill('Plain Refused Guild');
  await page.getByLabel(/^Category/).selectOption('Investing');
  await page.getByLabel('Description').fill('Sent with scripts off, and refused by the server first.');
  // Both pass the browser's own checks; the server refuses them.
  await page.getByLabel('Invite link').fill('https://example.com/not-an-invite');
  await page.getByLabel('Icon URL').fill('https://example.com/plain.png');
  await page.getByLabel('Your name').fill('No Script');
  await page.getByLabel('Contact email').fill('owner@localhost');
  await page.getByLabel(/I accept the/).check();
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/submissions'));
  await page.getByRole('button', { name: 'Submit Server for Review' }).click();
  expect((await answer).status()).toBe(400);

  const alert = page.getByRole('alert').filter({ hasText: 'Submission Error' });
  await expect(alert).toContainText('Please check these 2 fields: Invite link and Contact email.');
  const invite = page.getByLabel('Invite link');
  await expect(invite).toHaveValue('https://example.com/not-an-invite');
  await expect(invite).toHaveAttribute('aria-invalid', 'true');
  await expect(invite).toHaveAccessibleDescription(
    /Invite link must be a Discord invite, like https:\/\/discord.gg\/abc123\./,
  );
  await expect(page.getByLabel('Contact email')).toHaveAccessibleDescription(
    /Contact email must look like name@example.com\./,
  );
  await expect(invite).toBeFocused();
  await expect(page.getByLabel('Server name')).toHaveValue('Plain Refused Guild');
  await expect(page.getByLabel('Server name')).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel(/^Category/)).toHaveValue('Investing');
  await expect(page.getByLabel('Description')).toHaveValue('Sent with scripts off, and refused by the server first.');
  await expect(page.getByLabel(/I accept the/)).toBeChecked();
  await expect(page).toHaveTitle(/^Error: /);

  await context.close();
});

test('without JavaScript a refused contact message and newsletter signup come back with their messages', async ({
  browser,
  site,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: site.baseURL });
  const page = await context.newPage();
  await page.goto('/contact');
  await page.getByLabel('Name').fill('Ada');
  await page.getByLabel('Email').fill('ada@localhost');
  await page.getByLabel('Subject').selectOption('feedback');
  await page.getByLabel('Message').fill('Scripts are off on this machine.');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByRole('alert')).toContainText('Your message was not sent.');
  await expect(page.getByRole('alert')).toContainText('Please check the Email field.');
  await expect(page.getByLabel('Email')).toHaveAccessibleDescription('Email must look like name@example.com.');
  await expect(page.getByLabel('Name')).toHaveValue('Ada');
  await expect(page.getByLabel('Subject')).toHaveValue('feedback');
  await expect(page.getByLabel('Message')).toHaveValue('Scripts are off on this machine.');
  const email = `${unique('ada')}@example.com`;
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page).toHaveURL(/\/contact\/sent$/);
  // Without JavaScript the page itself says the message went out (not a blank form again).
  await expect(page.getByRole('heading', { name: 'Message Sent!' })).toBeVisible();
  expect(await site.db.select().from(contactMessages).where(eq(contactMessages.email, email))).toHaveLength(1);

  await page.goto('/');
  const box = page.locator('#newsletter');
  await box.getByLabel('Email address').fill('reader@localhost');
  await box.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.locator('#newsletter').getByRole('alert')).toHaveText(
    'Email address must look like name@example.com.',
  );
  await expect(page.locator('#newsletter').getByLabel('Email address')).toHaveValue('reader@localhost');
  await page
    .locator('#newsletter')
    .getByLabel('Email address')
    .fill(`${unique('reader')}@example.com`);
  await page.locator('#newsletter').getByRole('button', { name: 'Subscribe' }).click();
  await expect(page).toHaveURL(/\/newsletter\/subscribed$/);
  await expect(page.getByRole('heading', { name: 'Thanks for subscribing!' })).toBeVisible();
  await context.close();
});

test('a submission sent before the script ran and refused comes back, then hydrates without losing a thing', async ({
  page,
  site,
}) => {
  const errors = pageErrors(page);
  const release = await holdScripts(page);
  await page.goto('/submit-server', { waitUntil: 'commit' });
  await page.getByLabel('Server name').fill('Hasty Guild');
  await page.getByLabel('Description').fill('Sent at once, before the page had its script.');
  await page.getByLabel('Invite link').fill('https://example.com/hasty');
  await page.getByLabel('Icon URL').fill('https://example.com/hasty.png');
  await page.getByLabel('Your name').fill('Hasty');
  await page.getByLabel('Contact email').fill('hasty@example.com');
  await page.getByLabel(/I accept the/).check();
  expect(await unhydrated(page)).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Submit Server for Review' }).click();
  await page.waitForURL(/\/api\/submissions$/, { waitUntil: 'commit' });

  // The page came back filled in; its island hydrates over it and keeps it all.
  release();
  await hydrated(page);
  const alert = page.getByRole('alert').filter({ hasText: 'Submission Error' });
  await expect(alert).toContainText('Please check the Invite link field.');
  await expect(alert).not.toContainText('_');
  await expect(page.getByLabel('Invite link')).toHaveAccessibleDescription(/Invite link must be a Discord invite/);
  await expect(page.getByLabel('Server name')).toHaveValue('Hasty Guild');
  await expect(page.getByLabel('Invite link')).toHaveValue('https://example.com/hasty');
  await expect(page.getByRole('button', { name: 'Submit Server for Review' })).toBeEnabled();

  const email = `${unique('hasty')}@example.com`;
  await page.getByLabel('Invite link').fill('https://discord.gg/hasty');
  await page.getByLabel('Contact email').fill(email);
  await page.getByRole('button', { name: 'Submit Server for Review' }).click();
  await expect(page.getByRole('heading', { name: 'Submission Received!' })).toBeVisible();
  const rows = await site.db.select().from(serverSubmissions).where(eq(serverSubmissions.contact_email, email));
  expect(rows[0]).toMatchObject({ server_name: 'Hasty Guild' });
  expect(errors).toEqual([]);
});

test('a refused message names its fields by their labels with JavaScript too', async ({ page }) => {
  await page.goto('/contact');
  await hydrated(page);
  await page.locator('form[action="/api/contact"]').evaluate((f) => f.setAttribute('novalidate', ''));
  await page.getByLabel('Email').fill('grace@example.com');
  await page.getByLabel('Message').fill('Too short');
  await page.getByRole('button', { name: 'Send Message' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Your message was not sent.' });
  await expect(alert).toContainText('Please check these 2 fields: Name and Message.');
  await expect(alert).not.toContainText('Invalid');
  await expect(page.getByLabel('Name')).toHaveAccessibleDescription('Name is required.');
  await expect(page.getByLabel('Message')).toHaveAccessibleDescription('Message needs at least 10 characters.');
  await expect(page.getByLabel('Name')).toBeFocused();
  await expect(page.getByLabel('Message')).toHaveValue('Too short');
});
