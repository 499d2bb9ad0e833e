// Member reviews (#31) through the app and the Discord stand-in: the review sign-in (with
// guilds.members.read), each eligibility rule, edits, replies, flags, hides, the burst hold and
// account deletion; every call real HTTP into the app over a libSQL file.

import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { clearBreaker, getJobState, tripBreaker } from '../../db/queries/freshness';
import { saveReview } from '../../db/queries/reviews';
import {
  discordServers,
  mailOutbox,
  ownerUsers,
  reviewFlags,
  reviewProofs,
  reviewReplies,
  reviews,
  serverClaims,
  webhookOutbox,
} from '../../db/schema';
import { REFRESH_JOB } from '../../functions/_app/jobs/refresh';
import { DISCORD_EPOCH_MS } from '../../src/lib/reviews/eligibility';
import { reviewFormHtml } from '../../src/pages/server/_components/review-form';
import type { StandInGuild } from '../helpers/discord-stand-in';
import { seedServer } from './api-harness';
import { cookiesOf, createOwnerHarness, guild, type OwnerSession, PERMISSIONS, SITE } from './owner-harness';

const DAY = 86_400_000;
const GUILD = '222000000000000001';

let h: Awaited<ReturnType<typeof createOwnerHarness>> | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

/** A Discord user id made `days` ago (the account's age is read from it). */
const userIdAged = (days: number, n = 1) =>
  ((BigInt(Date.now() - days * DAY - DISCORD_EPOCH_MS) << 22n) | BigInt(n)).toString();

let users = 0;
/** A member of GUILD who joined `days` ago. */
const memberOf = (days: number, extra: Partial<StandInGuild> = {}): StandInGuild => ({
  ...guild(GUILD),
  joined_at: new Date(Date.now() - days * DAY).toISOString(),
  ...extra,
});

async function setup(env: Record<string, string> = {}, deps: Parameters<typeof createOwnerHarness>[1] = {}) {
  h = await createOwnerHarness(env, deps);
  const server = await seedServer(h.db, { name: 'Alpha Traders', guild_id: GUILD });
  return server;
}

/** Signs a Discord user in through the review sign-in of `slug` (the authorize asks guilds.members.read). */
async function reviewSignIn(slug: string, guilds: StandInGuild[], user: { id?: string; global_name?: string } = {}) {
  users++;
  h!.discord.oauth.guilds = guilds;
  h!.discord.oauth.user = {
    id: user.id ?? userIdAged(400, users),
    username: `member${users}`,
    global_name: user.global_name ?? `Member ${users}`,
    avatar: null,
  };
  const start = await h!.app.request(`${SITE}/api/account/sign-in?review=${slug}`);
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.get('location')!);
  const stateCookie = [...cookiesOf(start).values()].find((c) => c.pair.includes('gr_owner_oauth'));
  const back = await h!.authorize(authorize);
  const done = await h!.callback(back, stateCookie?.pair);
  expect(done.status).toBe(303);
  expect(done.headers.get('location')).toBe(`/server/${slug}#write-review`);
  const cookie = cookiesOf(done).get('gr_owner')!.pair;
  const me = (await (await h!.app.request(`${SITE}/api/account/me`, { headers: { cookie } })).json()) as {
    csrfToken: string;
  };
  return { session: { cookie, csrf: me.csrfToken } as OwnerSession, authorize };
}

const write = (s: OwnerSession, serverId: number, body: Record<string, unknown>) =>
  h!.ownerCall(s, 'POST', `/api/reviews/servers/${serverId}`, body);

const goodReview = { rating: 4, body: 'Good signals, a calm chat and helpful moderators every day.' };

const publicReviews = async (serverId: number) =>
  (await (await h!.app.request(`${SITE}/api/reviews/servers/${serverId}`)).json()) as {
    summary: { count: number; average: number; distribution: number[] };
    reviews: {
      id: number;
      body: string | null;
      status: string;
      hidden_reason: string | null;
      reply: { body: string } | null;
      display_name: string;
    }[];
    total: number;
  };

describe('reviews from verified members', () => {
  it('lets a member of 10 days review after the review sign-in, which alone asks for guilds.members.read', async () => {
    const server = await setup();
    const { session, authorize } = await reviewSignIn(server.slug, [memberOf(10)]);
    expect(authorize.searchParams.get('scope')).toBe('identify guilds guilds.members.read');
    const member = h!.discord.requests.find((r) => r.path === `/api/v10/users/@me/guilds/${GUILD}/member`);
    expect(member).toBeDefined();
    // The token was still revoked after use.
    expect(h!.discord.oauth.liveTokens.size).toBe(0);

    const mine = await (await h!.ownerCall(session, 'GET', `/api/reviews/servers/${server.id}/mine`)).json();
    expect(mine).toMatchObject({ signedIn: true, refusal: null, review: null });

    const res = await write(session, server.id, goodReview);
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ review: { status: 'shown' } });
    const list = await h!.app.request(`${SITE}/api/reviews/servers/${server.id}`);
    expect(list.headers.get('cache-control')).toBe('public, max-age=5');
    const body = await publicReviews(server.id);
    expect(body.reviews).toHaveLength(1);
    expect(body.reviews[0]).toMatchObject({ body: goodReview.body, display_name: `Member ${users}` });
    expect(body.summary).toMatchObject({ count: 1, distribution: [0, 0, 0, 1, 0] });
  });

  it('refuses a member of 3 days, naming the rule and the day they may review from', async () => {
    const server = await setup();
    const { session } = await reviewSignIn(server.slug, [memberOf(3)]);
    const res = await write(session, server.id, goodReview);
    expect(res.status).toBe(403);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('member_too_new');
    const from = new Date(Date.parse(memberOf(3).joined_at!) + 7 * DAY).toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    });
    expect(error.message).toBe(
      `Reviews need 7 days of membership: you joined 3 days ago, so you can review from ${from}.`,
    );
    expect(await h!.db.select().from(reviews)).toHaveLength(0);
  });

  it('refuses a non-member, an account of 5 days, the owner and a manager, each with its rule', async () => {
    const server = await setup();
    const refusalOf = async (guilds: StandInGuild[], user: { id?: string } = {}) => {
      const { session } = await reviewSignIn(server.slug, guilds, user);
      const res = await write(session, server.id, goodReview);
      expect(res.status).toBe(403);
      return ((await res.json()) as { error: { code: string; message: string } }).error;
    };
    expect((await refusalOf([guild('999000000000000001')])).code).toBe('not_member');
    const young = await refusalOf([memberOf(10)], { id: userIdAged(5) });
    expect(young.code).toBe('account_too_new');
    expect(young.message).toMatch(
      /at least 30 days old: yours was made 5 days ago, so you can review from \d{1,2} \w{3} \d{4}\.$/,
    );
    expect((await refusalOf([memberOf(400, { owner: true })])).code).toBe('owner');
    expect((await refusalOf([memberOf(400, { permissions: PERMISSIONS.manageGuild })])).code).toBe('manager');
    expect(await h!.db.select().from(reviews)).toHaveLength(0);
  });

  it("does not start a review's sign-in while the Discord breaker is open: the membership read waits like an invite check", async () => {
    const server = await setup();
    const until = Date.now() + 5 * 60_000;
    await tripBreaker(h!.db, REFRESH_JOB, {
      blockedUntil: new Date(until).toISOString(),
      reason: 'rate_limited',
      level: 1,
    });
    const start = await h!.app.request(`${SITE}/api/account/sign-in?review=${server.slug}`);
    expect(start.status).toBe(503);
    expect(Number(start.headers.get('retry-after'))).toBeGreaterThan(200);
    const page = await start.text();
    expect(page).toContain(
      `Please try again after ${new Date(until).toISOString().slice(11, 16)} UTC (in about 5\u00a0minutes).`,
    );
    expect(page).toContain(`href="/server/${server.slug}#write-review"`);
    await clearBreaker(h!.db, REFRESH_JOB);
    const again = await h!.app.request(`${SITE}/api/account/sign-in?review=${server.slug}`);
    expect(again.status).toBe(302);
  });

  it('trips the shared Discord breaker on a 429 of the member read: the page says Discord is busy, and the next review sign-in and invite check are refused without asking Discord', async () => {
    const server = await setup();
    h!.discord.oauth.memberMode = { kind: 'rate_limited', retryAfter: 120 };
    users++;
    h!.discord.oauth.user = { id: userIdAged(400, users), username: `member${users}`, avatar: null };
    h!.discord.oauth.guilds = [memberOf(10)];
    const start = await h!.app.request(`${SITE}/api/account/sign-in?review=${server.slug}`);
    expect(start.status).toBe(302);
    const stateCookie = [...cookiesOf(start).values()].find((c) => c.pair.includes('gr_owner_oauth'));
    const back = await h!.authorize(new URL(start.headers.get('location')!));
    const done = await h!.callback(back, stateCookie?.pair);
    // The member read answered 429: the sign-in fails with a page that says Discord is busy and until when.
    expect(h!.discord.requests.some((r) => r.path === `/api/v10/users/@me/guilds/${GUILD}/member`)).toBe(true);
    expect(done.status).toBe(503);
    expect(cookiesOf(done).get('gr_owner')).toBeUndefined();
    const breaker = await getJobState(h!.db, REFRESH_JOB);
    const blockedUntil = Date.parse(breaker!.blocked_until!);
    // Discord's retry_after (120 s), held by the same rule as an invite lookup's 429.
    expect(blockedUntil - Date.now()).toBeGreaterThan(100_000);
    expect(blockedUntil - Date.now()).toBeLessThanOrEqual(120_000);
    expect(breaker!.block_reason).toMatch(/^rate_limited/);
    const text = await done.text();
    expect(text).toContain('Discord is busy');
    expect(text).toContain(
      `Please try again after ${new Date(blockedUntil).toISOString().slice(11, 16)} UTC (in about 2\u00a0minutes).`,
    );
    expect(Number(done.headers.get('retry-after'))).toBeGreaterThan(100);
    expect(await h!.db.select().from(reviewProofs)).toHaveLength(0);

    // The next review sign-in is refused before anything is asked of Discord, and so is an invite check.
    const asked = h!.discord.requests.length;
    const authorizations = h!.discord.oauth.authorizations.length;
    const next = await h!.app.request(`${SITE}/api/account/sign-in?review=${server.slug}`);
    expect(next.status).toBe(503);
    expect(await next.text()).toContain('Discord is busy');
    const invite = await h!.app.request(`${SITE}/api/invites/abcdef123`);
    expect(invite.status).toBe(503);
    expect(h!.discord.requests.length).toBe(asked);
    expect(h!.discord.oauth.authorizations.length).toBe(authorizations);
  });

  it("trips the same breaker on a 429 of an owner sign-in's guild list read, and says Discord is busy", async () => {
    await setup();
    h!.discord.oauth.readMode = { kind: 'rate_limited', retryAfter: 90 };
    users++;
    h!.discord.oauth.user = { id: userIdAged(400, users), username: `owner${users}`, avatar: null };
    h!.discord.oauth.guilds = [memberOf(10, { owner: true })];
    const start = await h!.app.request(`${SITE}/api/account/sign-in`);
    expect(start.status).toBe(302);
    const stateCookie = [...cookiesOf(start).values()].find((c) => c.pair.includes('gr_owner_oauth'));
    const back = await h!.authorize(new URL(start.headers.get('location')!));
    const done = await h!.callback(back, stateCookie?.pair);
    expect(done.status).toBe(503);
    expect(cookiesOf(done).get('gr_owner')).toBeUndefined();
    expect(await done.text()).toContain('Discord is busy');
    const breaker = await getJobState(h!.db, REFRESH_JOB);
    expect(breaker!.block_reason).toMatch(/^rate_limited/);
    expect(Date.parse(breaker!.blocked_until!) - Date.now()).toBeGreaterThan(60_000);
    // An invite check now waits without asking Discord.
    const asked = h!.discord.requests.length;
    expect((await h!.app.request(`${SITE}/api/invites/abcdef123`)).status).toBe(503);
    expect(h!.discord.requests.length).toBe(asked);
  });

  it('refuses a review without a review sign-in (no membership check)', async () => {
    const server = await setup();
    const owner = await h!.signInOwner([memberOf(100)]);
    const res = await write(owner, server.id, goodReview);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('membership_unknown');
  });

  it('refuses text under 20 characters, naming the field, and stores nothing', async () => {
    const server = await setup();
    const { session } = await reviewSignIn(server.slug, [memberOf(10)]);
    const res = await write(session, server.id, { rating: 5, body: 'Too short' });
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { issues: { path: string }[] } };
    expect(error.issues.map((i) => i.path)).toContain('body');
    expect(await h!.db.select().from(reviews)).toHaveLength(0);
  });

  it('makes a second review by the same account an edit of the first, marked edited', async () => {
    const server = await setup();
    const { session } = await reviewSignIn(server.slug, [memberOf(10)]);
    expect((await write(session, server.id, goodReview)).status).toBe(201);
    const again = await write(session, server.id, {
      rating: 2,
      body: 'On second thought, the signals were late twice.',
    });
    expect(again.status).toBe(200);
    const rows = await h!.db.select().from(reviews);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ rating: 2, body: 'On second thought, the signals were late twice.' });
    expect(rows[0]!.edited_at).not.toBeNull();
    // The edit changes the listing's page only: published with it, not a build of the whole site.
    expect(h!.rebuild.reasons.at(-1)).toBe(`review edited on ${server.slug}`);
    expect(h!.rebuild.pages.at(-1)).toEqual([`/server/${server.slug}`]);
    expect(h!.rebuild.scopes.at(-1)).toBe('listings');
    // Its author deletes it; nobody else can.
    const other = await reviewSignIn(server.slug, [memberOf(20)]);
    expect((await h!.ownerCall(other.session, 'DELETE', `/api/reviews/${rows[0]!.id}`)).status).toBe(404);
    expect((await h!.ownerCall(session, 'DELETE', `/api/reviews/${rows[0]!.id}`)).status).toBe(200);
    expect(await h!.db.select().from(reviews)).toHaveLength(0);
    expect(h!.rebuild.reasons.at(-1)).toBe(`review deleted on ${server.slug}`);
    expect(h!.rebuild.scopes.at(-1)).toBe('listings');
  });

  it('saveReview: of two first reviews by one account at once, one is stored and the other says so, nothing of it written', async () => {
    const server = await setup();
    const [account] = await h!.db
      .insert(ownerUsers)
      .values({ discord_user_id: userIdAged(400, 2000), username: 'twice' })
      .returning();
    const first = (body: string) =>
      saveReview(h!.db, {
        serverId: server.id,
        accountId: account!.id,
        existingId: null,
        rating: 4,
        body,
        displayName: 'Twice',
        memberSince: new Date(Date.now() - 30 * DAY).toISOString(),
        at: Date.now(),
        burstLimit: 100,
        mails: [{ kind: 'review_new', to: 'owner@example.com', mail: { subject: body, text: body, html: body } }],
      });
    const bodies = [
      'The first of two tabs: calm chat and good signals.',
      'The second tab: late signals twice this week.',
    ];
    const results = await Promise.all(bodies.map(first));
    const rows = await h!.db.select().from(reviews);
    expect(rows).toHaveLength(1);
    const stored = bodies.indexOf(rows[0]!.body);
    expect(results[stored]).toMatchObject({ ok: true, saved: { id: rows[0]!.id, created: true } });
    expect(results[1 - stored]).toEqual({ ok: false, reason: 'exists' });
    const mails = await h!.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'review_new'));
    expect(mails.map((m) => m.subject)).toEqual([bodies[stored]]);
    // An edit of a review deleted meanwhile is not told "updated" either, and touches nothing.
    const [before] = await h!.db.select().from(discordServers).where(eq(discordServers.id, server.id));
    await h!.db.delete(reviews);
    const gone = await saveReview(h!.db, {
      serverId: server.id,
      accountId: account!.id,
      existingId: rows[0]!.id,
      rating: 2,
      body: bodies[0]!,
      displayName: 'Twice',
      memberSince: new Date().toISOString(),
      at: Date.now(),
      burstLimit: 100,
      mails: [],
    });
    expect(gone).toEqual({ ok: false, reason: 'gone' });
    expect(await h!.db.select().from(reviews)).toEqual([]);
    const [after] = await h!.db.select().from(discordServers).where(eq(discordServers.id, server.id));
    expect(after!.updated_at).toBe(before!.updated_at);
  });

  it("refuses a flag on one's own review, naming why, and stores none", async () => {
    const server = await setup();
    const { session } = await reviewSignIn(server.slug, [memberOf(10)]);
    expect((await write(session, server.id, goodReview)).status).toBe(201);
    const [review] = await h!.db.select().from(reviews);
    const res = await h!.ownerCall(session, 'POST', `/api/reviews/${review!.id}/flags`, { reason: 'spam' });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string; message: string } }).error).toEqual({
      code: 'own_review',
      message: 'You cannot flag your own review: edit or delete it instead.',
    });
    expect(await h!.db.select().from(reviewFlags)).toEqual([]);
  });

  it("refuses an owner's reply to a review of their listing once it is hidden, as other writes to it are", async () => {
    const server = await setup();
    const owner = await h!.signInOwner([guild(GUILD, { owner: true })]);
    const { session } = await reviewSignIn(server.slug, [memberOf(10)]);
    expect((await write(session, server.id, goodReview)).status).toBe(201);
    const [review] = await h!.db.select().from(reviews);
    await h!.db.update(discordServers).set({ is_active: false }).where(eq(discordServers.id, server.id));
    const res = await h!.ownerCall(owner, 'PUT', `/api/reviews/${review!.id}/reply`, { body: 'Thanks a lot!' });
    expect(res.status).toBe(404);
    expect((await write(session, server.id, goodReview)).status).toBe(404);
    expect(await h!.db.select().from(reviewReplies)).toEqual([]);
  });

  it("refuses an edit by a reviewer who has since become the listing's claimed owner, as a new review is refused", async () => {
    const server = await setup();
    const { session } = await reviewSignIn(server.slug, [memberOf(10)]);
    expect((await write(session, server.id, goodReview)).status).toBe(201);
    const [review] = await h!.db.select().from(reviews);
    await h!.db.insert(serverClaims).values({ server_id: server.id, owner_id: review!.account_id, proof: 'owner' });
    const res = await write(session, server.id, {
      rating: 5,
      body: 'Now that it is mine: the very best server there is.',
    });
    expect(res.status).toBe(403);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('owner');
    expect(error.message).toMatch(/owner of this listing/);
    expect(await h!.db.select().from(reviews)).toEqual([review]);
    // The page is told before anything is typed: its review, and the rule that refuses the edit.
    const mine = (await (await h!.ownerCall(session, 'GET', `/api/reviews/servers/${server.id}/mine`)).json()) as {
      review: { id: number } | null;
      refusal: { rule: string; message: string } | null;
    };
    expect(mine.review?.id).toBe(review!.id);
    expect(mine.refusal).toEqual({ rule: 'owner', message: error.message });
  });

  it("publishes the owner's one reply (editable) and mails the reviewer once; the owner is mailed of the new review", async () => {
    const server = await setup();
    const owner = await h!.signInOwner([guild(GUILD, { owner: true })]);
    const me = (await (await h!.ownerCall(owner, 'GET', '/api/account/me')).json()) as {
      owner: { has_listings: boolean };
    };
    expect(me.owner.has_listings).toBe(true);
    expect((await h!.ownerCall(owner, 'PUT', '/api/account/settings', { email: 'owner@example.com' })).status).toBe(
      200,
    );
    // The owner's Discord webhook (#32), as saving one in /account leaves it.
    await h!.db.update(ownerUsers).set({ webhook_url: 'https://discord.com/api/webhooks/1/owner-token' });
    const { session } = await reviewSignIn(server.slug, [memberOf(10)]);
    await h!.ownerCall(session, 'PUT', '/api/account/settings', { email: 'member@example.com' });
    expect((await write(session, server.id, goodReview)).status).toBe(201);
    const [review] = await h!.db.select().from(reviews);
    const newMail = await h!.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'review_new'));
    expect(newMail.map((m) => m.to_address)).toEqual(['owner@example.com']);
    const notices = await h!.db.select().from(webhookOutbox);
    expect(notices.map((n) => n.event)).toEqual(['new_review']);
    expect(JSON.stringify(notices[0]!.payload)).toContain(`/server/${server.slug}`);

    // Only the claimed owner replies.
    expect((await h!.ownerCall(session, 'PUT', `/api/reviews/${review!.id}/reply`, { body: 'Thanks!' })).status).toBe(
      403,
    );
    expect(
      (await h!.ownerCall(owner, 'PUT', `/api/reviews/${review!.id}/reply`, { body: 'Thank you for the kind words.' }))
        .status,
    ).toBe(201);
    expect(
      (await h!.ownerCall(owner, 'PUT', `/api/reviews/${review!.id}/reply`, { body: 'Thank you, see you in chat.' }))
        .status,
    ).toBe(200);
    expect((await publicReviews(server.id)).reviews[0]!.reply?.body).toBe('Thank you, see you in chat.');
    const replyMails = await h!.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'review_reply'));
    expect(replyMails.map((m) => m.to_address)).toEqual(['member@example.com']);
    expect(replyMails[0]!.text_body).toContain('Thank you for the kind words.');

    // The owner turns the new-review mails off in /account: the next review mails nobody.
    await h!.ownerCall(owner, 'PUT', '/api/account/settings', { mail_new_reviews: false });
    const second = await reviewSignIn(server.slug, [memberOf(30)]);
    expect((await write(second.session, server.id, goodReview)).status).toBe(201);
    expect(await h!.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'review_new'))).toHaveLength(1);

    expect((await h!.ownerCall(owner, 'DELETE', `/api/reviews/${review!.id}/reply`)).status).toBe(200);
    expect((await publicReviews(server.id)).reviews.find((r) => r.id === review!.id)?.reply).toBeNull();
  });

  it('takes a flag from anyone signed in, and a moderator hides the review with a public reason, audited, the reviewer told', async () => {
    const server = await setup();
    const { session } = await reviewSignIn(server.slug, [memberOf(10)]);
    await h!.ownerCall(session, 'PUT', '/api/account/settings', { email: 'member@example.com' });
    // Personal information in the name it is shown as, which the hide is for.
    await write(session, server.id, { ...goodReview, display_name: 'Call Ann on 555-0100' });
    const [review] = await h!.db.select().from(reviews);
    // The guild's owner: another Discord user than the reviewer.
    const owner = await h!.signInOwner([guild(GUILD, { owner: true })], {
      id: userIdAged(400, 990),
      username: 'owner',
    });
    const flag = await h!.ownerCall(owner, 'POST', `/api/reviews/${review!.id}/flags`, { reason: 'off_topic' });
    expect(flag.status).toBe(201);
    const refused = await h!.ownerCall(owner, 'POST', `/api/reviews/${review!.id}/flags`, { reason: 'nonsense' });
    expect(refused.status).toBe(400);

    const mod = await h!.signIn('moderator');
    const queue = (await (await h!.call(mod, 'GET', '/api/admin/reviews?view=flagged')).json()) as {
      reviews: { id: number; open_flags: number; flags: { reason: string }[] }[];
    };
    expect(queue.reviews).toMatchObject([{ id: review!.id, open_flags: 1, flags: [{ reason: 'off_topic' }] }]);
    const hide = await h!.call(mod, 'POST', `/api/admin/reviews/${review!.id}`, {
      action: 'hide',
      reason: 'off-topic',
    });
    expect(hide.status).toBe(200);

    const shown = await publicReviews(server.id);
    expect(shown.reviews[0]).toMatchObject({ status: 'hidden', body: null, hidden_reason: 'off-topic' });
    // A hidden review's public entry is its reason and date: not the name it was shown as, nor the
    // reviewer's membership (the hide may be for what the name says).
    expect(JSON.stringify(shown)).not.toContain('555-0100');
    expect(shown.reviews[0]).toMatchObject({ display_name: null, member_since: null, edited_at: null });
    expect(shown.summary.count).toBe(0);
    const audit = await h!.client.execute("SELECT action, entity, entity_id FROM audit_log WHERE entity = 'review'");
    expect(audit.rows.map((r) => r.action)).toEqual(['review_hide']);
    const told = await h!.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'review_hidden'));
    expect(told.map((m) => m.to_address)).toEqual(['member@example.com']);
    expect(told[0]!.text_body).toContain('hidden by moderators: off-topic');
    // It sends the reviewer where editing and deleting are (the listing's page; /account has neither),
    // and "reply to this mail" reaches support (the From is a no-reply address).
    expect(told[0]!.text_body).toContain(`${SITE}/server/${server.slug}#write-review`);
    expect(told[0]!.text_body).not.toContain('/account');
    expect(told[0]!.reply_to).toBeTruthy();
    expect(told[0]!.text_body).toContain(`write to ${told[0]!.reply_to}`);
    expect(h!.rebuild.pages.flat()).toContain(`/server/${server.slug}`);
    const hidden = (await (await h!.call(mod, 'GET', '/api/admin/reviews?view=hidden')).json()) as {
      reviews: unknown[];
    };
    expect(hidden.reviews).toHaveLength(1);

    // Its author deletes the hidden review and writes it again: the new one does not show past the
    // moderators, it is held for them (it once showed at once, the hide undone by a delete).
    expect((await h!.ownerCall(session, 'DELETE', `/api/reviews/${review!.id}`)).status).toBe(200);
    const again = await write(session, server.id, goodReview);
    expect(again.status, await again.clone().text()).toBe(201);
    const saved = (await again.json()) as { review: { status: string }; message: string };
    expect(saved.review.status).toBe('held');
    expect(saved.message).not.toContain('many new reviews');
    const after = await publicReviews(server.id);
    expect(after.reviews).toHaveLength(0);
    expect(after.summary.count).toBe(0);
    const held = (await (await h!.call(mod, 'GET', '/api/admin/reviews?view=held')).json()) as {
      reviews: { held_reason: string }[];
    };
    expect(held.reviews).toMatchObject([{ held_reason: 'after_hide' }]);
  });

  it('holds the sixth new review of a listing in 24 hours for a moderator, "held for review" to its author', async () => {
    const server = await setup();
    const statuses: string[] = [];
    for (let i = 0; i < 6; i++) {
      const { session } = await reviewSignIn(server.slug, [memberOf(10 + i)]);
      const res = await write(session, server.id, { ...goodReview, rating: 5 });
      statuses.push(((await res.json()) as { review: { status: string } }).review.status);
      if (i === 5) {
        const mine = (await (await h!.ownerCall(session, 'GET', `/api/reviews/servers/${server.id}/mine`)).json()) as {
          review: { status: string };
        };
        expect(mine.review.status).toBe('held');
      }
    }
    expect(statuses).toEqual(['shown', 'shown', 'shown', 'shown', 'shown', 'held']);
    expect((await publicReviews(server.id)).summary.count).toBe(5);
    const mod = await h!.signIn('moderator');
    const held = (await (await h!.call(mod, 'GET', '/api/admin/reviews?view=held')).json()) as {
      reviews: { id: number; held_reason: string }[];
    };
    expect(held.reviews).toMatchObject([{ held_reason: 'burst' }]);
    expect((await h!.call(mod, 'POST', `/api/admin/reviews/${held.reviews[0]!.id}`, { action: 'show' })).status).toBe(
      200,
    );
    expect((await publicReviews(server.id)).summary.count).toBe(6);
    // The listing's average and count follow (the card's `rating`).
    const row = await h!.client.execute(`SELECT rating, review_count FROM discord_servers WHERE id = ${server.id}`);
    expect(row.rows[0]).toMatchObject({ rating: 5, review_count: 6 });
    // The public API's `rating` and the badge's rating variant give the same average.
    const v1 = (await (await h!.app.request(`${SITE}/api/v1/servers/${server.slug}`)).json()) as {
      rating: number | null;
    };
    expect(v1.rating).toBe(5);
    expect(await (await h!.app.request(`${SITE}/badge/${server.slug}.svg?variant=rating`)).text()).toContain('5.0 / 5');
  });

  it('deletes the reviews and replies of a deleted account, with the listing average', async () => {
    const server = await setup();
    const sessions: OwnerSession[] = [];
    for (const rating of [5, 4, 3]) {
      const { session } = await reviewSignIn(server.slug, [memberOf(10)]);
      await write(session, server.id, { ...goodReview, rating });
      sessions.push(session);
    }
    let row = await h!.client.execute(`SELECT rating, review_count FROM discord_servers WHERE id = ${server.id}`);
    expect(row.rows[0]).toMatchObject({ rating: 4, review_count: 3 });
    expect((await h!.ownerCall(sessions[0]!, 'DELETE', '/api/account')).status).toBe(200);
    expect(await h!.db.select().from(reviews)).toHaveLength(2);
    row = await h!.client.execute(`SELECT rating, review_count FROM discord_servers WHERE id = ${server.id}`);
    // Two left: below three, no average shows.
    expect(row.rows[0]).toMatchObject({ rating: 0, review_count: 2 });
    expect(h!.rebuild.pages.at(-1)).toEqual([`/server/${server.slug}`]);
    expect(h!.rebuild.scopes.at(-1)).toBe('listings');
  });

  it('gives the card, the public API and the page one average, never rounded up (3.15 is 3.1 everywhere, 4.96 is 4.9)', async () => {
    const server = await setup();
    const averages = async (ratings: number[]) => {
      await h!.db.delete(reviews);
      const rows = [];
      for (const [i, rating] of ratings.entries()) {
        const [account] = await h!.db
          .insert(ownerUsers)
          .values({ discord_user_id: userIdAged(400, 1000 + i), username: `rater${i}` })
          .onConflictDoUpdate({ target: ownerUsers.discord_user_id, set: { username: `rater${i}` } })
          .returning();
        rows.push({ account: account!.id, rating });
      }
      const [last, ...rest] = rows;
      const at = Date.now() - 3 * DAY;
      await h!.db.insert(reviews).values(
        rest.map((r) => ({
          server_id: server.id,
          account_id: r.account,
          rating: r.rating,
          body: goodReview.body,
          display_name: 'Rater',
          member_since: new Date(at - 30 * DAY).toISOString(),
          created_at: new Date(at).toISOString(),
        })),
      );
      // The last one through the query every write uses, which brings the listing's figures up to date.
      await saveReview(h!.db, {
        serverId: server.id,
        accountId: last!.account,
        existingId: null,
        rating: last!.rating,
        body: goodReview.body,
        displayName: 'Rater',
        memberSince: new Date(at - 30 * DAY).toISOString(),
        at: Date.now(),
        burstLimit: 100,
        mails: [],
      });
      const api = (await (await h!.app.request(`${SITE}/api/v1/servers/${server.slug}`)).json()) as { rating: number };
      return { card: api.rating, page: (await publicReviews(server.id)).summary.average };
    };
    // 63 stars from 20 reviews: 3.15.
    expect(await averages([...Array<number>(17).fill(3), 4, 4, 4])).toEqual({ card: 3.1, page: 3.1 });
    // 124 stars from 25 reviews: 4.96, not every member gave 5.
    expect(await averages([...Array<number>(24).fill(5), 4])).toEqual({ card: 4.9, page: 4.9 });
  });

  it("lists the account's reviews and replies under /api/account/reviews", async () => {
    const server = await setup();
    const { session } = await reviewSignIn(server.slug, [memberOf(10)]);
    await write(session, server.id, goodReview);
    const mine = (await (await h!.ownerCall(session, 'GET', '/api/account/reviews')).json()) as {
      reviews: { server_slug: string; status: string }[];
    };
    expect(mine.reviews).toMatchObject([{ server_slug: server.slug, status: 'shown' }]);
    const me = (await (await h!.ownerCall(session, 'GET', '/api/account/me')).json()) as {
      owner: { has_listings: boolean };
    };
    expect(me.owner.has_listings).toBe(false);
  });

  it('limits each account to 10 reviews or edits an hour, counted in the database', async () => {
    const server = await setup({ RATE_LIMITS: 'true' });
    const { session } = await reviewSignIn(server.slug, [memberOf(10)]);
    for (let i = 0; i < 10; i++)
      expect((await write(session, server.id, { ...goodReview, rating: 1 + (i % 5) })).status).toBeLessThan(300);
    const refused = await write(session, server.id, goodReview);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    const budget = await h!.client.execute(
      "SELECT window_count FROM client_budgets WHERE name LIKE 'review-reviews:account:%'",
    );
    expect(Number(budget.rows[0]?.window_count)).toBe(10);
  });
});

describe('paging through reviews', () => {
  /** `n` reviews of the listing by new accounts, the newest `minutesAgo` minutes old, a minute apart. */
  async function seedReviews(serverId: number, n: number, minutesAgo: number, label: string) {
    for (let i = 0; i < n; i++) {
      const [account] = await h!.db
        .insert(ownerUsers)
        .values({ discord_user_id: userIdAged(400, 3000 + users++), username: `${label}${i}` })
        .returning();
      await h!.db.insert(reviews).values({
        server_id: serverId,
        account_id: account!.id,
        rating: 4,
        body: `${label} review number ${i}, long enough to be a review.`,
        display_name: `${label}${i}`,
        member_since: new Date(Date.now() - 90 * DAY).toISOString(),
        created_at: new Date(Date.now() - (minutesAgo + i) * 60_000).toISOString(),
      });
    }
  }
  type Page = { reviews: { body: string }[]; total: number; from: number; newer: string | null; older: string | null };
  const read = async (serverId: number, query = '') =>
    (await (await h!.app.request(`${SITE}/api/reviews/servers/${serverId}${query}`)).json()) as Page;

  it('pages by key, so reviews written meanwhile never repeat one on the next page; a bad key is a 400 naming it', async () => {
    const server = await setup();
    await seedReviews(server.id, 12, 60, 'Early');
    const first = await read(server.id);
    expect(first.reviews.map((r) => r.body)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Early review number ${i}, long enough to be a review.`),
    );
    expect(first).toMatchObject({ total: 12, from: 1, newer: null });
    expect(first.older).not.toBeNull();
    // Three reviews arrive while the reader is on the first page: the next one still starts at the 11th.
    await seedReviews(server.id, 3, 0, 'Late');
    const next = await read(server.id, `?before=${encodeURIComponent(first.older!)}`);
    expect(next.reviews.map((r) => r.body)).toEqual([
      'Early review number 10, long enough to be a review.',
      'Early review number 11, long enough to be a review.',
    ]);
    expect(next).toMatchObject({ total: 15, from: 14, older: null });
    // Back again: the ten before it, and a link on to the three new ones.
    const back = await read(server.id, `?after=${encodeURIComponent(next.newer!)}`);
    expect(back.reviews.map((r) => r.body)).toEqual(first.reviews.map((r) => r.body));
    expect(back.from).toBe(4);
    expect(back.newer).not.toBeNull();
    const bad = await h!.app.request(`${SITE}/api/reviews/servers/${server.id}?before=yesterday`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { issues: { path: string }[] } }).error.issues[0]!.path).toBe('before');
  });

  it("moves the old no-JavaScript page under /api for good to the listing's reviews page, key and all", async () => {
    const server = await setup();
    await seedReviews(server.id, 12, 60, 'Early');
    const { older } = await read(server.id);
    const key = encodeURIComponent(older!);
    const moved = await h!.app.request(`${SITE}/api/reviews/servers/${server.id}/page?before=${key}`);
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe(`/server/${server.slug}/reviews?before=${key}`);
    const newer = await h!.app.request(`${SITE}/api/reviews/servers/${server.id}/page?after=${key}&page=3`);
    expect(newer.headers.get('location')).toBe(`/server/${server.slug}/reviews?after=${key}`);
    // A key that is not one goes along, for the page's own 400; without a key, the listing's reviews.
    const bad = await h!.app.request(`${SITE}/api/reviews/servers/${server.id}/page?before=yesterday`);
    expect(bad.status).toBe(301);
    expect(bad.headers.get('location')).toBe(`/server/${server.slug}/reviews?before=yesterday`);
    const bare = await h!.app.request(`${SITE}/api/reviews/servers/${server.id}/page`);
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe(`/server/${server.slug}#reviews`);
    // No listing: the API's 404, as every review route answers it.
    const none = await h!.app.request(`${SITE}/api/reviews/servers/999999/page?before=${key}`);
    expect(none.status).toBe(404);
    // The JSON the page's script reads is as it was.
    const json = await h!.app.request(`${SITE}/api/reviews/servers/${server.id}?before=${key}`);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await json.json()) as Page).from).toBe(11);
  });
});

describe('writing a review without JavaScript', () => {
  // The server page as the build writes its reviews section (ServerReviews.astro): the sign-in
  // link, the note, the list and the plain form (review-form.ts, the same HTML the page has).
  const serverPage = (id: number, slug: string) =>
    '<!DOCTYPE html><html lang="en"><head><title>Alpha Traders</title><meta name="robots" content="index, follow"></head><body>' +
    `<section data-reviews><ol class="review-list" data-reviews-list></ol><div id="write-review" data-review-write><p data-review-sign-in-box><a href="/api/account/sign-in?review=${slug}">Write a review</a></p><p class="review-note" data-review-note hidden></p>${reviewFormHtml(id)}</div></section></body></html>`;
  const slot = (html: string, name: string) =>
    new RegExp(`<p\\b[^>]*data-error-for="${name}"[^>]*>([^<]*)</p>`).exec(html)?.[1];

  it('takes a plain form post: refused with the rule or field named on the filled page (nothing stored), then stored and shown to its author after a redirect, and edited the same way', async () => {
    let page = '';
    const server = await setup({}, { sitePage: async (path) => (path === `/server/${slug}` ? page : null) });
    const slug = server.slug;
    page = serverPage(server.id, slug);
    const post = (
      cookie: string | null,
      fields: Record<string, string>,
      headers: Record<string, string> = { origin: SITE },
    ) =>
      h!.app.request(`${SITE}/api/reviews/servers/${server.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}), ...headers },
        body: new URLSearchParams(fields).toString(),
      });
    const text = 'Calm chat, <b>honest</b> signals & helpful moderators.';

    // Not signed in: the page again, saying to sign in, with the text kept.
    const anonymous = await post(null, { rating: '4', body: text, display_name: '' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toMatch(/^text\/html/);
    const anonymousPage = await anonymous.text();
    expect(anonymousPage).toContain('Sign in with Discord to write a review');
    expect(anonymousPage).toContain(
      `${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</textarea>`,
    );

    // A member of 3 days: refused by the membership rule, named with the day they may review from.
    const young = await reviewSignIn(slug, [memberOf(3)]);
    const refused = await post(young.session.cookie, { rating: '2', body: text, display_name: 'Quiet Reader' });
    expect(refused.status).toBe(403);
    const refusedPage = await refused.text();
    expect(refusedPage).toContain('<title>Error: Alpha Traders</title>');
    expect(refusedPage).toMatch(
      /data-form-alert-text="true">Reviews need 7 days of membership: you joined 3 days ago, so you can review from \d{1,2} \w{3} \d{4}\.</,
    );
    expect(refusedPage).toMatch(/<option value="2" selected="">|<option value="2" selected>/);
    expect(refusedPage).toContain('value="Quiet Reader"');

    // A member of 10 days: a text under 20 characters names the field; a post from another site is refused.
    const { session } = await reviewSignIn(slug, [memberOf(10)]);
    const short = await post(session.cookie, { rating: '5', body: 'Too short', display_name: '' });
    expect(short.status).toBe(400);
    const shortPage = await short.text();
    expect(slot(shortPage, 'body')).toBe('Your review needs at least 20 characters.');
    expect(shortPage).toContain('Please check the Your review field.');
    expect(shortPage).toContain('Too short</textarea>');
    const crossSite = await post(session.cookie, { rating: '5', body: text }, { origin: 'https://elsewhere.example' });
    expect(crossSite.status).toBe(403);
    const noOrigin = await post(session.cookie, { rating: '5', body: text }, {});
    expect(noOrigin.status).toBe(403);
    expect(await h!.db.select().from(reviews)).toHaveLength(0);

    // Accepted: a 303 to the author's view of the page, their review in it at once and the form filled for editing.
    const sent = await post(session.cookie, { rating: '4', body: text, display_name: '' });
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toBe(`/api/reviews/servers/${server.id}/yours#your-review`);
    const [row] = await h!.db.select().from(reviews);
    expect(row).toMatchObject({ rating: 4, body: text, display_name: `Member ${users}`, status: 'shown' });
    const yours = await h!.app.request(`${SITE}/api/reviews/servers/${server.id}/yours`, {
      headers: { cookie: session.cookie },
    });
    expect(yours.status).toBe(200);
    expect(yours.headers.get('cache-control')).toBe('no-store');
    const yoursPage = await yours.text();
    expect(yoursPage).toContain('<meta name="robots" content="noindex, follow">');
    expect(yoursPage).toContain(`<li class="review" id="review-${row!.id}" data-review-id="${row!.id}">`);
    expect(yoursPage).toContain(
      '<p class="review-body">Calm chat, &lt;b&gt;honest&lt;/b&gt; signals &amp; helpful moderators.</p>',
    );
    expect(yoursPage).toMatch(/id="your-review"[^>]*>Your review is published\. You can edit or delete it\.</);
    expect(yoursPage).toContain('aria-label="Edit your review"');
    expect(yoursPage).toContain('Calm chat, &lt;b&gt;honest&lt;/b&gt; signals &amp; helpful moderators.</textarea>');
    expect(yoursPage).toMatch(/<option value="4" selected/);
    expect(yoursPage).toMatch(/<p data-review-sign-in-box hidden>/);
    // Signed out, the address is the public page again.
    const out = await h!.app.request(`${SITE}/api/reviews/servers/${server.id}/yours`);
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe(`/server/${slug}#write-review`);

    // Editing without JavaScript is the same form sent again: one review, marked edited.
    const edit = await post(session.cookie, { rating: '3', body: `${text} Edited later.`, display_name: 'Night Owl' });
    expect(edit.status).toBe(303);
    const rows = await h!.db.select().from(reviews);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ rating: 3, body: `${text} Edited later.`, display_name: 'Night Owl' });
    expect(rows[0]!.edited_at).not.toBeNull();
  });
  it("takes the owner's reply as a plain form post from the owner's view of the page: refused with the field named (nothing stored), then published", async () => {
    let page = '';
    const server = await setup({}, { sitePage: async (path) => (path === `/server/${server.slug}` ? page : null) });
    page = serverPage(server.id, server.slug);
    const { session } = await reviewSignIn(server.slug, [memberOf(10)]);
    expect((await write(session, server.id, goodReview)).status).toBe(201);
    const [review] = await h!.db.select().from(reviews);
    h!.discord.oauth.user = { id: userIdAged(900, 99), username: 'the-owner', global_name: 'The Owner', avatar: null };
    const owner = await h!.signInOwner([guild(GUILD, { owner: true })]);
    const view = async () => {
      const res = await h!.app.request(`${SITE}/api/reviews/servers/${server.id}/yours`, {
        headers: { cookie: owner.cookie },
      });
      expect(res.status).toBe(200);
      return res.text();
    };
    const reply = (cookie: string, body: string) =>
      h!.app.request(`${SITE}/api/reviews/${review!.id}/reply`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: SITE },
        body: new URLSearchParams({ body }).toString(),
      });

    // The owner's view: the review, a reply form under it, and no review form of their own.
    const before = await view();
    expect(before).toContain(`action="/api/reviews/${review!.id}/reply"`);
    expect(before).toContain('>Reply as the owner</label>');
    expect(before).toContain('You own this listing: you can reply to each review once, but not review it.');
    expect(before).toMatch(/<form method="post" action="\/api\/reviews\/servers\/\d+"[^>]* hidden>/);

    // Refused: the page again with the reply form filled in and its field named; nothing stored.
    const short = await reply(owner.cookie, 'x');
    expect(short.status).toBe(400);
    const shortPage = await short.text();
    expect(shortPage).toContain('x</textarea>');
    expect(shortPage).toContain('Please check the Your reply field.');
    expect(slot(shortPage, 'body')).toBe('Your reply needs at least 2 characters.');
    // A member is never shown a reply form: a crafted post is refused back to their own view, which says why.
    const memberReply = await reply(session.cookie, 'Thanks from a member.');
    expect(memberReply.status).toBe(303);
    expect(memberReply.headers.get('location')).toBe(`/api/reviews/servers/${server.id}/yours?error=not_owner`);
    const memberView = await h!.app.request(`${SITE}${memberReply.headers.get('location')}`, {
      headers: { cookie: session.cookie },
    });
    expect(await memberView.text()).toMatch(
      /id="your-review"[^>]*>Only the owner of this listing can reply to its reviews\.</,
    );
    expect(await h!.db.select().from(reviewReplies)).toHaveLength(0);

    // Published: back to the owner's view, at the review, the reply shown and the form ready to edit it.
    const sent = await reply(owner.cookie, 'Thank you, glad the calls help.');
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toBe(`/api/reviews/servers/${server.id}/yours#review-${review!.id}`);
    expect(await h!.db.select().from(reviewReplies)).toMatchObject([{ body: 'Thank you, glad the calls help.' }]);
    const after = await view();
    expect(after).toContain('<p>Thank you, glad the calls help.</p>');
    expect(after).toContain('>Edit your reply</label>');
    expect(after).toContain('Thank you, glad the calls help.</textarea>');
  });
});
