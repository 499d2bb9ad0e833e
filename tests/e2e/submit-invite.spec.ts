// The "must show", in Chromium against the site's loopback Discord stand-in: an owner types
// an invite, sees Discord's name and counts in the form, submits; an operator approves; the server
// page shows Discord's counts and when they were checked.
import { eq } from 'drizzle-orm';
import { discordServers, serverSubmissions } from '../../db/schema';
import { serverSlug } from '../../src/lib/slug';
import { signIn } from './console-sign-in';
import { expect } from './fixtures';
import { hydrated } from './hydration';
import { testWithOwnSite } from './own-site';

// Its own site: its own submissions budget and its own stand-in.
const test = testWithOwnSite('submit-invite');

const unique = () => Math.random().toString(36).slice(2, 8);
const GUILD = '913425648685547541';

test("an owner sees Discord's name and counts for the invite, submits, and the approved page shows them with when they were checked", async ({
  page,
  site,
  request,
}) => {
  const name = `Neon Arcade ${unique()}`;
  const email = `owner-${unique()}@example.com`;
  // Only the invites it is told about: any other code is Discord's Unknown Invite.
  site.discord.permissive = false;
  site.discord.invites.set('neonarcade', {
    guild: { id: GUILD, name: 'Neon Arcade Official', icon: null },
    memberCount: 23_456,
    onlineCount: 3_210,
  });

  await page.goto('/submit-server');
  await hydrated(page);
  // No typed counts any more: Discord's are the listing's.
  await expect(page.getByLabel('Total members')).toHaveCount(0);
  await page.getByLabel('Server name').fill(name);
  await page.getByLabel('Description').fill('Arcade classics, high-score chases and weekly retro tournaments.');

  // An invite Discord does not know: refused on the field as soon as it is entered.
  const invite = page.getByLabel('Invite link');
  await invite.fill('https://discord.gg/nosuchinvite');
  await invite.blur();
  await expect(page.locator('[data-error-for="invite_link"]')).toHaveText(/Discord does not know this invite/);
  await expect(invite).toHaveAttribute('aria-invalid', 'true');

  // One it knows: Discord's name and counts, read out by the live region; the field's message goes.
  await invite.fill('https://discord.gg/neonarcade');
  await invite.blur();
  const preview = page.locator('[aria-live="polite"].invite-preview');
  await expect(preview).toContainText('Neon Arcade Official');
  await expect(preview).toContainText('23,456 members, 3,210 online');
  await expect(page.locator('[data-error-for="invite_link"]')).toBeHidden();

  await page.getByLabel('Icon URL').fill('https://example.com/neon.png');
  await page.getByLabel('Your name').fill('Ren');
  await page.getByLabel('Contact email').fill(email);
  await page.getByLabel(/I accept the/).check();
  await page.getByRole('button', { name: 'Submit Server for Review' }).click();
  await expect(page.getByRole('heading', { name: 'Submission Received!' })).toBeVisible();
  const [submission] = await site.db.select().from(serverSubmissions).where(eq(serverSubmissions.contact_email, email));
  expect(submission).toMatchObject({
    guild_id: GUILD,
    invite_code: 'neonarcade',
    member_count: 23_456,
    active_users: 3_210,
  });

  await signIn(page, site.db);
  await page.goto('/admin#submissions');
  await page
    .getByRole('row', { name: new RegExp(name) })
    .getByRole('button', { name: /Review/ })
    .click();
  await page.getByRole('button', { name: 'Approve and publish' }).click();
  await expect(page.getByText(`Approved “${name}”`)).toBeVisible();
  const [listing] = await site.db.select().from(discordServers).where(eq(discordServers.guild_id, GUILD));
  expect(listing).toMatchObject({
    members: 23_456,
    active_users: 3_210,
    invite_status: 'ok',
    invite_code: 'neonarcade',
  });

  const slug = serverSlug(name);
  await expect
    .poll(async () => (await request.get(`/server/${slug}`)).status(), { timeout: 120_000, intervals: [250] })
    .toBe(200);
  await page.goto(`/server/${slug}`);
  const stats = page.locator('dl.stats');
  await expect(stats.locator('div', { hasText: 'Members' }).locator('dd')).toHaveText('23,456');
  await expect(stats.locator('div', { hasText: 'Online now' }).locator('dd')).toHaveText('3,210');
  const checked = page.locator('[data-checked]');
  await expect(checked).toContainText(/Checked (just now|\d+ minutes? ago)/);
  await expect(checked.locator('time')).toHaveAttribute('datetime', submission!.created_at);
});
