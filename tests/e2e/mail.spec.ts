import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { enqueueMail } from '../../db/queries/mail';
import { subscribeEmail } from '../../db/queries/newsletter';
import { mailOutbox, newsletterSubscribers } from '../../db/schema';
import { rawProcessEnv } from '../../functions/_app/env';
import { CLAIMS } from '../../src/lib/claims';
import { type SmtpStandIn, startSmtpStandIn } from '../helpers/smtp-stand-in';
import { axe } from './axe';
import { signIn } from './console-sign-in';
import { expect, TEST_SITE_URL } from './fixtures';
import { hydrated } from './hydration';
import { testWithOwnSite } from './own-site';

/**
 * #16 in the browser, against `npm start` with SMTP_URL pointing at a real SMTP server on
 * loopback: subscribe, confirm from the mail, the week's issue from `npm run newsletter:send`,
 * one-click unsubscribe, and nothing from a second send.
 */

const run = promisify(execFile);
const SECRETS = {
  SESSION_SECRET: 'e2e-mail-session-secret-0123456789abcdefgh',
  IP_HASH_SECRET: 'e2e-mail-ip-hash-secret-0123456789abcdefgh',
};

let smtp: SmtpStandIn;
/**
 * The address the mails' links start with: the site's SITE_URL, the one every test site is built
 * with (its own SITE_URL would be a build of its own; with only app settings the site is a copy of
 * the template). The server listens on a port of its own: `onSite` opens a link's path there.
 */
const siteUrl = TEST_SITE_URL;

const test = testWithOwnSite('mail', undefined, undefined, async () => {
  smtp = await startSmtpStandIn();
  return {
    ...SECRETS,
    SMTP_URL: smtp.url,
    MAIL_FROM: 'GuildRank <hello@guildrank.test>',
  };
});

/** A link of a mail (SITE_URL's origin, asserted by `link`) opened on the site's server. */
const onSite = (url: string, baseURL: string) => {
  const { pathname, search } = new URL(url);
  return new URL(`${pathname}${search}`, baseURL).href;
};

test.afterAll(async () => {
  await smtp?.stop();
});

/** `npm run newsletter:send` on the site's database, with the site's settings; its output. */
async function newsletterSend(dbUrl: string): Promise<string> {
  const { stdout } = await run('npm', ['run', '--silent', 'newsletter:send'], {
    env: rawProcessEnv({ ...SECRETS, DATABASE_URL: dbUrl, SITE_URL: siteUrl, SMTP_URL: smtp.url }),
    timeout: 120_000,
  });
  return stdout;
}

/** WCAG 2.2 AA as the a11y spec checks it. */
async function expectNoAxeViolations(page: import('@playwright/test').Page) {
  const results = await axe(page).withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa']).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

const link = (text: string, path: string) =>
  new RegExp(`${siteUrl.replace(/[.:/]/g, '\\$&')}${path}\\S+`).exec(text)?.[0];

test('subscribe, confirm from the mail, get the week’s issue, unsubscribe with one click, nothing from a second send', async ({
  page,
  site,
}) => {
  test.setTimeout(180_000);
  const email = `reader-${Date.now()}@example.com`;

  // Subscribe in the browser: the box says a confirmation link is on its way.
  await page.goto('/');
  await hydrated(page);
  const box = page.locator('#newsletter');
  await expect(box).toContainText(CLAIMS.newsletter);
  await box.getByLabel('Email address').fill(email);
  await box.getByRole('button', { name: 'Subscribe' }).click();
  await expect(box.getByText(CLAIMS.subscribed)).toBeVisible();

  // The confirmation mail, sent by npm start's sender through SMTP_URL.
  const [confirmation] = await smtp.waitFor(email, 1, 30_000);
  expect(confirmation!.subject).toBe('Confirm your GuildRank newsletter subscription');
  expect(confirmation!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
  const confirmUrl = link(confirmation!.text, '/newsletter/confirm\\?token=')!;
  await page.goto(onSite(confirmUrl, site.baseURL));
  await expect(page.getByRole('heading', { name: 'Confirm your subscription' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Confirm my subscription' }).click();
  await expect(page.getByRole('heading', { name: 'You are subscribed' })).toBeVisible();
  const [row] = await site.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email));
  expect(row?.status).toBe('active');
  const welcome = (await smtp.waitFor(email, 2, 30_000))[1]!;
  expect(welcome.subject).toBe('You are subscribed to the GuildRank weekly picks');

  // The week's issue, from `npm run newsletter:send`.
  const first = await newsletterSend(site.dbUrl);
  expect(first).toMatch(/: [1-9]\d* new cop/);
  const issue = (await smtp.waitFor(email, 3, 30_000))[2]!;
  expect(issue.subject).toMatch(/^GuildRank weekly picks, \d{4}-W\d{2}$/);
  expect(issue.text).toContain(`${siteUrl}/server/`);
  const unsubscribe = /^<([^>]+)>$/.exec(issue.headers['list-unsubscribe'] ?? '')?.[1];
  expect(unsubscribe).toBe(link(issue.text, '/unsubscribe\\?token='));

  // One click: the page's one button (a mail client's one-click POST does the same).
  await page.goto(onSite(unsubscribe!, site.baseURL));
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
  const [gone] = await site.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email));
  expect(gone?.status).toBe('unsubscribed');

  // A second send this week: nothing written, nothing waiting, nothing received.
  const second = await newsletterSend(site.dbUrl);
  expect(second).toMatch(/0 new copies/);
  const waiting = await site.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to_address, email), eq(mailOutbox.status, 'pending')));
  expect(waiting).toEqual([]);
  expect(smtp.to(email).map((m) => m.subject)).toEqual([confirmation!.subject, welcome.subject, issue.subject]);
});

test('the console shows each mail as sent in the Outbox, and this week’s issue with its recipient count', async ({
  page,
  site,
}) => {
  const subject = `Outbox check ${Date.now()}`;
  await enqueueMail(site.db, {
    kind: 'newsletter_welcome',
    dedupeKey: `e2e-outbox:${subject}`,
    to: 'outbox-reader@example.com',
    mail: { subject, text: 'The text part of the check.', html: '<p>The HTML part of the check.</p>' },
    headers: {
      'List-Unsubscribe': `<${siteUrl}/unsubscribe?token=a.b>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  });
  await subscribeEmail(site.db, `console-reader-${Date.now()}@example.com`);
  await signIn(page, site.db);
  await page.goto('/admin#outbox');
  await expect(page.getByRole('heading', { name: 'Outbox' })).toBeVisible();
  await expect(
    page.getByText('Mails are sent through SMTP (SMTP_URL) from GuildRank <hello@guildrank.test>.'),
  ).toBeVisible();
  // Checked before a mail is opened: axe cannot run inside the sandboxed frame of its HTML part.
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: `Open ${subject}` }).click();
  const view = page.getByRole('article', { name: subject });
  await expect(view.getByText('List-Unsubscribe-Post')).toBeVisible();
  await expect(view.getByText('outbox-reader@example.com')).toBeVisible();
  await expect(view.getByText('The text part of the check.')).toBeVisible();
  await expect(view.frameLocator('iframe[title^="HTML part"]').getByText('The HTML part of the check.')).toBeVisible();

  await page.goto('/admin#newsletter');
  const issue = page.getByRole('region', { name: /This week's issue/ });
  await expect(issue.getByRole('button', { name: /^Send this week's issue to \d+ subscribers?$/ })).toBeVisible();
  await issue.getByText('Preview').click();
  await expect(issue.getByText(/Premium and sponsored picks|No premium or sponsored picks/).first()).toBeVisible();
});
