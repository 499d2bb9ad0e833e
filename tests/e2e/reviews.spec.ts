// Member reviews (#31) in Chromium on the shared site, against its Discord stand-in: a member signs
// in from a server page, writes a review and sees it at once; another browser sees it within 10 s
// on a prerendered and on an on-demand page (no rebuild); the owner replies from /account. Then the
// XSS corpus goes through review texts, display names and replies on those pages.
import type { BrowserContext, Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { createServer, listAllActiveServers } from '../../db/queries/servers';
import { discordServers, ownerUsers, reviewFlags, reviewReplies, reviews } from '../../db/schema';
import { DISCORD_EPOCH_MS } from '../../src/lib/reviews/eligibility';
import { signIn } from './console-sign-in';
import { expect, test } from './fixtures';
import { holdScripts, hydrated } from './hydration';
import { PAYLOADS } from './xss-payloads';

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();
const userIdAged = (days: number, n: number) =>
  ((BigInt(Date.now() - days * DAY - DISCORD_EPOCH_MS) << 22n) | BigInt(n)).toString();
const unique = () => Math.random().toString(36).slice(2, 8);

/** Waits until the page's reviews script has read the current reviews from the API. */
const reviewsLoaded = (page: Page) => expect(page.locator('[data-reviews][data-reviews-loaded]')).toBeAttached();

/**
 * Signs in from a server page's "Write a review", writes one, and expects it on the page at once.
 * `early`: the page's scripts are held after the sign-in, as on a slow phone, and the review
 * is typed into the page's own form before they run: what was typed survives them (the page's
 * context must block the service worker, which would serve the scripts without the delay).
 */
async function writeReview(page: Page, slug: string, text: string, { early = false } = {}) {
  await page.goto(`/server/${slug}`);
  await reviewsLoaded(page);
  const release = early ? await holdScripts(page) : null;
  await page.getByRole('link', { name: 'Write a review' }).click();
  await expect(page).toHaveURL(new RegExp(`/server/${slug}#write-review$`));
  const form = page.getByRole('form', { name: 'Write a review' });
  await form.getByLabel('Your rating').selectOption('4');
  await form.getByLabel(/Your review/).fill(text);
  if (early) {
    expect(await page.locator('[data-reviews][data-reviews-loaded]').count(), 'typed before the script ran').toBe(0);
    release?.();
    await reviewsLoaded(page);
    await expect(form.getByLabel(/Your review/)).toHaveValue(text);
    await expect(form.getByLabel('Your rating')).toHaveValue('4');
  }
  await form.getByRole('button', { name: 'Publish review' }).click();
  await expect(page.locator('[data-reviews-list]').getByText(text)).toBeVisible();
  await expect(page.getByText('Your review is published. You can edit or delete it.')).toBeVisible();
}

/** Another browser's view of a page: the review shows within 10 s, reloading until it does. */
async function seesWithin10s(context: BrowserContext, slug: string, text: string) {
  const page = await context.newPage();
  await expect(async () => {
    await page.goto(`/server/${slug}`);
    await reviewsLoaded(page);
    await expect(page.locator('[data-reviews-list]').getByText(text)).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 10_000 });
  await page.close();
}

test('a member reviews from a server page, another browser sees it within 10 s on a prerendered and an on-demand page, the owner replies', async ({
  page,
  browser,
  site,
}) => {
  test.setTimeout(120_000);
  const id = unique();
  const prerenderedGuild = `77${Date.now()}1`.slice(0, 18);
  const onDemandGuild = `78${Date.now()}2`.slice(0, 18);
  // A listing the build prerendered (the sample set: every listing is prerendered up to PRERENDER_SERVERS),
  // given a guild; and one made after the build, whose page is rendered on request.
  const [prerendered] = (await listAllActiveServers(site.db)).filter((s) => !s.guild_id);
  await site.db
    .update(discordServers)
    .set({ guild_id: prerenderedGuild })
    .where(eq(discordServers.id, prerendered!.id));
  const onDemand = await createServer(site.db, {
    name: `Review Harbour ${id}`,
    description: 'A listing made after the build, so its page is rendered on request.',
    category: 'Trading',
    members: 3200,
    affiliate_link: `https://discord.gg/review${id}`,
    guild_id: onDemandGuild,
    invite_status: 'ok',
    last_checked_at: daysAgo(0.1),
    last_ok_at: daysAgo(0.1),
  });

  // The member: in both guilds for 10 days, a Discord account of 400 days.
  site.discord.oauth.user = {
    id: userIdAged(400, 7),
    username: `member-${id}`,
    global_name: `Member ${id}`,
    avatar: null,
  };
  site.discord.oauth.guilds = [prerenderedGuild, onDemandGuild].map((g) => ({
    id: g,
    name: `Guild ${g}`,
    owner: false,
    permissions: String(0x400 | 0x800),
    joined_at: daysAgo(10),
  }));
  const first = `Prerendered page review ${id}: fast answers and a friendly crowd.`;
  const second = `On-demand page review ${id}: clear rules and honest signals.`;
  await writeReview(page, prerendered!.slug, first);
  // The sign-in that started it asked Discord for guilds.members.read.
  expect(site.discord.oauth.authorizations.at(-1)?.get('scope')).toBe('identify guilds guilds.members.read');
  // In a browser of its own without the service worker (which would serve the scripts at once): the
  // same member, whose review sign-in there makes a session of its own.
  const slow = await browser.newContext({ serviceWorkers: 'block' });
  await writeReview(await slow.newPage(), onDemand.slug, second, { early: true });
  await slow.close();

  const other = await browser.newContext();
  await seesWithin10s(other, prerendered!.slug, first);
  await seesWithin10s(other, onDemand.slug, second);

  // The owner of the on-demand listing's guild signs in (the one sign-in) and replies from /account.
  const owner = await browser.newContext();
  const ownerPage = await owner.newPage();
  site.discord.oauth.user = {
    id: userIdAged(900, 9),
    username: `owner-${id}`,
    global_name: `Owner ${id}`,
    avatar: null,
  };
  site.discord.oauth.guilds = [{ id: onDemandGuild, name: 'Harbour', owner: true, permissions: '8' }];
  await ownerPage.goto('/account');
  await hydrated(ownerPage);
  await ownerPage.getByRole('link', { name: 'Sign in with Discord' }).click();
  await expect(ownerPage).toHaveURL(/\/account$/);
  await expect(ownerPage.getByRole('heading', { name: 'My listings', exact: true })).toBeVisible();
  const received = ownerPage.getByRole('region', { name: 'Reviews of my listings' });
  await expect(received.getByText(second)).toBeVisible();
  const reply = `Thank you ${id}, glad the rules help.`;
  await received.getByLabel('Reply as the owner').fill(reply);
  await received.getByRole('button', { name: 'Publish reply' }).click();
  await expect(received.getByText('Your reply is published.')).toBeVisible();
  await seesWithin10s(other, onDemand.slug, reply);

  // On the server page the owner edits the reply: the list is drawn again, and the focus stays on
  // the reply (it fell to <body>, so a keyboard user started from the top of the page).
  await ownerPage.goto(`/server/${onDemand.slug}`);
  await reviewsLoaded(ownerPage);
  const listed = ownerPage.locator('[data-reviews-list]');
  await listed.getByLabel('Edit your reply').fill(`${reply} Edited.`);
  await listed.getByRole('button', { name: 'Save reply' }).click();
  await expect(ownerPage.getByText('Your reply is published.')).toBeVisible();
  await expect(listed.getByText(`${reply} Edited.`)).toBeVisible();
  await expect(listed.getByLabel('Edit your reply')).toBeFocused();

  // The owner flags the member's review: no reason is chosen for them (the first, "Off-topic", was
  // preselected, so one click on Send flag filed a reason nobody picked); the one picked is stored.
  const flag = listed.locator('details', { hasText: 'Flag this review' }).first();
  await flag.locator('summary').click();
  const why = flag.getByLabel('Why flag this review?');
  await expect(why).toHaveValue('');
  await expect(why).toHaveJSProperty('required', true);
  await why.selectOption('spam');
  await flag.getByRole('button', { name: 'Send flag' }).click();
  await expect(flag.getByRole('status')).toHaveText(/./);
  const [flagged] = await site.db.select().from(reviewFlags).where(eq(reviewFlags.reason, 'spam'));
  expect(flagged).toBeDefined();

  // The member's own account page lists the review with the owner's reply; no "My listings" for them.
  await page.goto('/account');
  await hydrated(page);
  const mine = page.getByRole('region', { name: 'My reviews' });
  await expect(mine.getByText(second)).toBeVisible();
  await expect(mine.getByText(reply)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'My listings', exact: true })).toHaveCount(0);

  // The member deletes the first review from its page. Delete asks first (one click removed the
  // review for good), with the focus on Keep; Escape keeps it and gives the focus back to the button,
  // which Enter opens again; Delete deletes, and the focus goes to the emptied form, not <body>.
  await page.goto(`/server/${prerendered!.slug}`);
  await reviewsLoaded(page);
  const deleteMine = page.getByRole('button', { name: 'Delete my review' });
  await deleteMine.click();
  const askReview = page.getByRole('group', { name: /^Delete this review\?/ });
  await expect(askReview.getByRole('button', { name: 'Keep' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(deleteMine).toBeFocused();
  await expect(askReview).toHaveCount(0);
  await expect(page.locator('[data-reviews-list]').getByText(first)).toBeVisible();
  await page.keyboard.press('Enter');
  await askReview.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByText('Your review is deleted.')).toBeVisible();
  await expect(page.getByRole('form', { name: 'Write a review' }).getByLabel('Your rating')).toBeFocused();
  // A text the browser lets through (long enough with its spaces) and the API refuses: the field's
  // message is shown and is the field's description, as the page without JavaScript has it.
  const again = page.getByRole('form', { name: 'Write a review' });
  await again.getByLabel(/Your review/).fill(`${' '.repeat(30)}ok`);
  await again.getByRole('button', { name: 'Publish review' }).click();
  await expect(again.getByRole('alert')).toHaveText('Your review needs at least 20 characters.');
  await expect(again.getByLabel(/Your review/)).toHaveAccessibleDescription(
    'Your review needs at least 20 characters.',
  );

  // The owner deletes the reply from /account: asked first as well (Keep gives the focus back), then
  // the emptied reply box has the focus.
  await ownerPage.goto('/account');
  await hydrated(ownerPage);
  const replies = ownerPage.getByRole('region', { name: 'Reviews of my listings' });
  const deleteReply = replies.getByRole('button', { name: 'Delete reply' });
  await deleteReply.click();
  const askReply = replies.getByRole('group', { name: /^Delete this reply\?/ });
  await askReply.getByRole('button', { name: 'Keep' }).click();
  await expect(deleteReply).toBeFocused();
  await deleteReply.click();
  await askReply.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(replies.getByText('Your reply is deleted.')).toBeVisible();
  await expect(replies.getByLabel('Reply as the owner')).toBeFocused();
  expect(await site.db.select().from(reviewReplies)).not.toContainEqual(
    expect.objectContaining({ body: `${reply} Edited.` }),
  );
  await other.close();
  await owner.close();
});

test('without JavaScript, a member signs in through the plain link, is refused with the rule named and the text kept, then writes a review, sees it at once and edits it', async ({
  browser,
  site,
}) => {
  test.setTimeout(90_000);
  const id = unique();
  const guildId = `76${Date.now()}4`.slice(0, 18);
  // Made after the build: its page is rendered on request, the harder of the two to fill in.
  const listing = await createServer(site.db, {
    name: `Plain Form Harbour ${id}`,
    description: 'A listing whose review is written in a browser without JavaScript.',
    category: 'Investing',
    members: 2100,
    affiliate_link: `https://discord.gg/plain${id}`,
    guild_id: guildId,
    invite_status: 'ok',
    last_checked_at: daysAgo(0.1),
    last_ok_at: daysAgo(0.1),
  });
  site.discord.oauth.user = {
    id: userIdAged(400, 11),
    username: `plain-${id}`,
    global_name: `Plain ${id}`,
    avatar: null,
  };
  const member = {
    id: guildId,
    name: 'Harbour',
    owner: false,
    permissions: String(0x400 | 0x800),
    joined_at: daysAgo(3),
  };
  site.discord.oauth.guilds = [member];
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: site.baseURL });
  const page = await context.newPage();
  const text = `Plain form review ${id}: patient mentors and no hype at all.`;
  const writeAs = async (formName: string, stars: string, body: string, button: string) => {
    const form = page.getByRole('form', { name: formName });
    await form.getByLabel('Your rating').selectOption(stars);
    await form.getByLabel(/Your review/).fill(body);
    await form.getByRole('button', { name: button }).click();
  };
  const rowsOf = () => site.db.select().from(reviews).where(eq(reviews.server_id, listing.id));

  // The sign-in is a plain link through Discord (asking guilds.members.read), back to the page.
  await page.goto(`/server/${listing.slug}`);
  // Its note and the link after it read as two sentences ("…here.Signed in already?" ran together).
  await expect(page.locator('[data-review-sign-in-box]')).toHaveText(
    /Write a review Sign in with Discord first: .* write your review here\. Signed in already\?/,
  );
  await page.getByRole('link', { name: 'Write a review' }).click();
  await expect(page).toHaveURL(new RegExp(`/server/${listing.slug}#write-review$`));
  expect(site.discord.oauth.authorizations.at(-1)?.get('scope')).toBe('identify guilds guilds.members.read');

  // A member of 3 days: the page again, the rule named with its date, what was typed kept.
  await writeAs('Write a review', '2', text, 'Publish review');
  const refused = page.getByRole('form', { name: 'Write a review' });
  await expect(refused.locator('[data-form-alert-text]')).toHaveText(
    /^Reviews need 7 days of membership: you joined 3 days ago, so you can review from \d{1,2} \w{3} \d{4}\.$/,
  );
  await expect(refused.getByLabel(/Your review/)).toHaveValue(text);
  await expect(refused.getByLabel('Your rating')).toHaveValue('2');
  expect(await rowsOf()).toHaveLength(0);

  // Discord now says 10 days: signed in again from the refused page, the review is written and shown at once.
  member.joined_at = daysAgo(10);
  await page.getByRole('link', { name: 'Write a review' }).click();
  await expect(page).toHaveURL(new RegExp(`/server/${listing.slug}#write-review$`));
  await writeAs('Write a review', '4', text, 'Publish review');
  await expect(page).toHaveURL(new RegExp(`/api/reviews/servers/${listing.id}/yours#your-review$`));
  await expect(page.locator('[data-reviews-list]').getByText(text)).toBeVisible();
  await expect(page.getByText('Your review is published. You can edit or delete it.')).toBeVisible();
  expect(await rowsOf()).toMatchObject([{ rating: 4, body: text, status: 'shown' }]);

  // Editing: the form comes filled in with the review; sent again, it is the one review, edited.
  const edited = `${text} Edited: the weekly calls moved.`;
  await expect(page.getByRole('form', { name: 'Edit your review' }).getByLabel(/Your review/)).toHaveValue(text);
  await writeAs('Edit your review', '3', edited, 'Save changes');
  await expect(page.locator('[data-reviews-list]').getByText(edited)).toBeVisible();
  await expect(
    page.locator(`[data-reviews-list] .review`).filter({ hasText: edited }).getByText('edited', { exact: true }),
  ).toBeVisible();
  const rows = await rowsOf();
  expect(rows).toMatchObject([{ rating: 3, body: edited }]);
  expect(rows[0]!.edited_at).not.toBeNull();
  await context.close();
});

test('reviews past the first ten: a link away without JavaScript, and paged by key with it (no review repeats when new ones arrive)', async ({
  page,
  browser,
  site,
}) => {
  test.setTimeout(60_000);
  const id = unique();
  const listing = await createServer(site.db, {
    name: `Many Reviews Harbour ${id}`,
    description: 'A listing with more reviews than one page shows.',
    category: 'Gaming',
    members: 900,
    affiliate_link: `https://discord.gg/many${id}`,
    invite_status: 'ok',
    last_checked_at: daysAgo(0.1),
    last_ok_at: daysAgo(0.1),
  });
  const seed = async (n: number, minutesAgo: number, label: string) => {
    for (let i = 0; i < n; i++) {
      const [account] = await site.db
        .insert(ownerUsers)
        .values({ discord_user_id: userIdAged(400, 5000 + i + minutesAgo), username: `${label}-${id}-${i}` })
        .returning();
      await site.db.insert(reviews).values({
        server_id: listing.id,
        account_id: account!.id,
        rating: 4,
        body: `${label} review ${i} of ${id}: long enough to be a review.`,
        display_name: `${label} ${i}`,
        member_since: daysAgo(90),
        created_at: new Date(Date.now() - (minutesAgo + i) * 60_000).toISOString(),
      });
    }
  };
  await seed(12, 60, 'Early');
  const list = (p: Page) => p.locator('[data-reviews-list]');

  // Without JavaScript (on a 320 px phone): the first ten, and a real link to the rest, a page of
  // the site under the listing's address.
  const plain = await browser.newContext({
    javaScriptEnabled: false,
    baseURL: site.baseURL,
    viewport: { width: 320, height: 740 },
  });
  const noJs = await plain.newPage();
  await noJs.goto(`/server/${listing.slug}`);
  await expect(list(noJs).locator('.review')).toHaveCount(10);
  await expect(noJs.getByText('Reviews 1 to 10 of 12.')).toBeVisible();
  await noJs.getByRole('link', { name: 'Older reviews' }).click();
  await expect(noJs).toHaveURL(new RegExp(`/server/${listing.slug}/reviews\\?before=`));
  await expect(noJs.getByRole('heading', { level: 1 })).toHaveText(`Member reviews of ${listing.name}`);
  await expect(noJs).toHaveTitle(`${listing.name}: member reviews 11 to 12 of 12 | GuildRank`);
  expect(await noJs.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await expect(list(noJs).locator('.review')).toHaveCount(2);
  await expect(list(noJs).getByText(`Early review 11 of ${id}`)).toBeVisible();
  await expect(noJs.getByText('Reviews 11 to 12 of 12.')).toBeVisible();
  await expect(noJs.getByRole('link', { name: 'Older reviews' })).toHaveCount(0);
  await noJs.getByRole('link', { name: 'Newer reviews' }).click();
  await expect(list(noJs).getByText(`Early review 0 of ${id}`)).toBeVisible();
  await plain.close();

  // With it: new reviews arrive while the first page is read; the next page still starts at the 11th.
  await page.goto(`/server/${listing.slug}`);
  await reviewsLoaded(page);
  await expect(list(page).locator('.review')).toHaveCount(10);
  await seed(3, 0, 'Late');
  await page.getByRole('link', { name: 'Older reviews' }).click();
  await expect(page.locator('[data-reviews-more]')).toHaveText('Reviews 14 to 15 of 15.');
  await expect(list(page).locator('.review')).toHaveCount(2);
  await expect(list(page).getByText(`Early review 10 of ${id}`)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/server/${listing.slug}$`));
});

test('the XSS corpus in review texts, display names and replies shows as text on the server page and in /account', async ({
  page,
  site,
}) => {
  test.setTimeout(120_000);
  const id = unique();
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss().catch(() => {});
  });
  const listing = await createServer(site.db, {
    name: `Payload Reviews ${id}`,
    description: 'A listing whose reviews carry the XSS corpus.',
    category: 'Gaming',
    members: 900,
    guild_id: `79${Date.now()}3`.slice(0, 18),
  });
  // Every payload in a review's text (some texts hold several), as a display name (those that fit 80) and as a reply.
  const chunks: string[] = [];
  let chunk = '';
  for (const p of PAYLOADS) {
    if (chunk.length + p.text.length + 1 > 1900) {
      chunks.push(chunk);
      chunk = '';
    }
    chunk += `${chunk ? '\n' : ''}${p.text}`;
  }
  chunks.push(chunk);
  const names = PAYLOADS.map((p) => p.text).filter((t) => t.length <= 80);
  const rows = Math.max(chunks.length, 3);
  const accounts = await site.db
    .insert(ownerUsers)
    .values(
      Array.from({ length: rows }, (_, i) => ({
        discord_user_id: `9${i}${Date.now()}`.slice(0, 18),
        username: `p${id}${i}`,
      })),
    )
    .returning();
  const written = await site.db
    .insert(reviews)
    .values(
      accounts.map((a, i) => ({
        server_id: listing.id,
        account_id: a.id,
        rating: 3,
        body: chunks[i % chunks.length]!,
        display_name: names[i % names.length]!,
        member_since: '2024-02-01T00:00:00.000Z',
      })),
    )
    .returning();
  await site.db
    .insert(reviewReplies)
    .values({ review_id: written[0]!.id, account_id: accounts[1]!.id, body: chunks[0]! });
  // Flagged, so the console's Reviews screen lists them too (with a payload as each flag's details).
  await site.db.insert(reviewFlags).values(
    written.map((r, i) => ({
      review_id: r.id,
      account_id: accounts[(i + 1) % accounts.length]!.id,
      reason: 'spam',
      details: PAYLOADS[i]!.text,
    })),
  );

  await page.goto(`/server/${listing.slug}`);
  await reviewsLoaded(page);
  const list = page.locator('[data-reviews-list]');
  await expect(list.locator('.review-body').first()).toBeVisible();
  const bodies = await list.locator('.review-body').allTextContents();
  for (const c of chunks) expect(bodies).toContain(c);
  expect(await list.locator('.review-reply p').nth(1).textContent()).toBe(chunks[0]);
  // The average with its basis, and AggregateRating in the JSON-LD (at least 3 reviews show).
  await expect(page.locator('[data-reviews-average]')).toHaveText(`3.0 from ${rows} verified members`);
  const ld = (await page.locator('script[type="application/ld+json"]').allTextContents()).join('\n');
  expect(ld).toContain(`"@type":"AggregateRating","ratingValue":3,"ratingCount":${rows}`);
  expect(await page.locator('[id^="xss"]').count()).toBe(0);
  expect(dialogs).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();

  // The reviewer's own /account page shows their review and the reply as text too.
  site.discord.oauth.user = { id: accounts[0]!.discord_user_id, username: accounts[0]!.username, avatar: null };
  site.discord.oauth.guilds = [];
  await page.goto('/account');
  await hydrated(page);
  await page.getByRole('link', { name: 'Sign in with Discord' }).click();
  await expect(page).toHaveURL(/\/account$/);
  const mine = page.getByRole('region', { name: 'My reviews' });
  await expect(mine.locator('.review-body').first()).toBeVisible();
  expect(await mine.locator('.review-body').first().textContent()).toBe(chunks[0]);
  expect(await page.locator('[id^="xss"]').count()).toBe(0);
  expect(dialogs).toEqual([]);

  // The console's Reviews screen (flagged) shows the texts, names and flag details as text.
  await signIn(page, site.db);
  await page.goto('/admin#reviews');
  await hydrated(page);
  const screen = page
    .getByRole('region', { name: 'Reviews' })
    .or(page.locator('section[aria-labelledby="reviews-title"]'));
  await expect(screen.getByText(`Payload Reviews ${id}`).first()).toBeVisible();
  const texts = await screen.locator('p.prewrap').allTextContents();
  for (const c of chunks) expect(texts).toContain(c);
  expect(await page.locator('[id^="xss"]').count()).toBe(0);
  expect(dialogs).toEqual([]);
});
