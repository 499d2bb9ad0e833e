import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTENT_DEFAULTS } from '../../db/content-defaults';
import { insertFakeServers } from '../../db/fake';
import { listMails } from '../../db/queries/mail';
import { readModerationLog, readQueueFigures } from '../../db/queries/moderation';
import { getNewsletterStats, getSubscriberByEmail, subscribeEmail } from '../../db/queries/newsletter';
import { getServerById, listServers, paidListingHead } from '../../db/queries/servers';
import { orders, ownerUsers, reviews } from '../../db/schema';
import { createApp } from '../../functions/_app/app';
import { loadEnv, supportEmailFor } from '../../functions/_app/env';
import { run as sendNewsletter } from '../../functions/_app/jobs/newsletter';
import { recomputeRanks } from '../../functions/_app/jobs/rank';
import { REFRESH_EVERY_MS, run as refresh } from '../../functions/_app/jobs/refresh';
import { deploymentFacts } from '../../src/data/site-data';
import { joinProps, toCard } from '../../src/islands/card-data';
import { ServerCard, ServerCardGrid } from '../../src/islands/ServerCard';
import { CLAIMS, type ClaimKey, countsClaim, newsletterPitch, subscriberFigure } from '../../src/lib/claims';
import { CONTACT_SUBJECT_VALUES, LIMITS } from '../../src/lib/enums';
import { BUDGET, listingsPerDay, refreshPace, WORKER_LOOKUPS_PER_PASS } from '../../src/lib/invite-checks/budget';
import type { InviteSnapshot } from '../../src/lib/invite-checks/classify';
import { applyCheck, SCHEDULE } from '../../src/lib/invite-checks/state';
import { DEFAULT_SORT, MENU_SORTS, MIN_INDEXED_SEARCH, SHORT_TERM_WINDOW, SORT_LABELS } from '../../src/lib/listing';
import { queueSentence } from '../../src/lib/moderation/queue';
import { PAID_SPACING } from '../../src/lib/placement';
import { transition } from '../../src/lib/pricing/order-machine';
import { REFUND_WINDOW_DAYS, refundableByOwner } from '../../src/lib/pricing/plans';
import { DEFAULT_MIN_MEMBERS, type RequirementId, requirements, requirementsSummary } from '../../src/lib/requirements';
import { EDITABLE_FIELDS } from '../../src/lib/schemas/owner';
import { faqTabs } from '../../src/pages/help/_components/faq';
import { createAdminHarness } from '../helpers/admin';
import { createTestDb, type TestDb } from '../helpers/db';
import { startDiscordStandIn } from '../helpers/discord-stand-in';
import { STAND_IN_KEYS, startStripeStandIn } from '../helpers/stripe-stand-in';
import { postJson, seedServer, validSubmission } from './api-harness';
import { createOwnerHarness, guild, PERMISSIONS } from './owner-harness';

/**
 * Every claim of src/lib/claims.ts with the behaviour that backs it. A claim without a row here
 * fails the first test; a behaviour that changes (mail lands, a refresh job lands, a sort changes)
 * fails its row, and the copy must then say what is true again.
 */

let h: Awaited<ReturnType<typeof createAdminHarness>> | undefined;
let tdb: TestDb | undefined;
afterEach(() => {
  h?.cleanup();
  tdb?.cleanup();
  h = undefined;
  tdb = undefined;
});

const ROOT = process.cwd();
const DAY = 24 * 3_600_000;

/** Every file under `dir` (relative paths), for the source scans. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

/** A console harness with one submitted server (not yet approved) and a signed-in admin. */
async function withSubmission(overrides: Record<string, unknown> = {}) {
  h = await createAdminHarness({ env: { RATE_LIMITS: 'false' } });
  const res = await postJson(h.app, '/api/submissions', validSubmission(overrides));
  expect(res.status).toBe(201);
  const { submission } = (await res.json()) as { submission: { id: number } };
  const admin = await h.signIn('admin');
  return { harness: h, id: submission.id, admin };
}

/** An owner with one listing, payments against a fresh Stripe stand-in, and a sponsored week in checkout (paid with `pay`). */
async function promoted(opts: { pay?: boolean } = {}) {
  const stripe = await startStripeStandIn();
  const shop = await createOwnerHarness({
    STRIPE_SECRET_KEY: STAND_IN_KEYS.secretKey,
    STRIPE_WEBHOOK_SECRET: STAND_IN_KEYS.webhookSecret,
    STRIPE_API_BASE: stripe.url,
  });
  stripe.deliver = (body, headers) =>
    shop.app.request('http://localhost:4321/api/webhooks/stripe', { method: 'POST', body, headers });
  const listing = await seedServer(shop.db, { guild_id: '820000000000000002', invite_status: 'ok' });
  const owner = await shop.signInOwner([guild('820000000000000002', { owner: true })]);
  const plans = (await (await shop.ownerCall(owner, 'GET', `/api/account/listings/${listing.id}/promote`)).json()) as {
    plans: { id: number; placement: string; term_days: number; price_cents: number }[];
  };
  const plan = plans.plans.find((p) => p.placement === 'sponsored')!;
  const res = await shop.ownerCall(owner, 'POST', `/api/account/listings/${listing.id}/checkout`, { plan_id: plan.id });
  const { url, order_id } = (await res.json()) as { url: string; order_id: number };
  const session = stripe.sessions.get(url.split('/').pop()!)!;
  if (opts.pay) await stripe.pay(session.id);
  cleanups.push(async () => {
    // The stand-in first: it waits for the events it is still delivering to the shop's app.
    await stripe.close();
    await shop.cleanup();
  });
  return { shop, stripe, owner, session, plan, orderId: order_id, listingId: listing.id };
}
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** The public listing's answer for a search, as the islands read it. */
async function search(app: NonNullable<typeof h>['app'], term: string) {
  const res = await app.request(`/api/servers?search=${encodeURIComponent(term)}`);
  return ((await res.json()) as { servers: { name: string; members: number }[] }).servers;
}

/** An invite as Discord's answer gives it (classify.ts), with `over` on top. */
const discordInvite = (over: Partial<InviteSnapshot>): InviteSnapshot => ({
  code: 'counted',
  guildId: '81384788765712384',
  name: 'Counted',
  icon: null,
  banner: null,
  splash: null,
  description: null,
  features: [],
  vanityUrlCode: null,
  verificationLevel: null,
  nsfwLevel: null,
  boostCount: null,
  memberCount: null,
  onlineCount: null,
  expiresAt: null,
  ...over,
});

/** The behaviour behind each claim: one check per key of CLAIMS. */
const BACKED_BY: Record<ClaimKey, { behaviour: string; check: () => Promise<void> | void }> = {
  free: {
    behaviour:
      'a submission is stored without any payment; the only routes about money are the placement checkout, orders and refunds of /api/account and the console, and the Stripe webhook',
    check: async () => {
      await withSubmission();
      const paths = [...new Set(h!.app.routes.map((r) => r.path))];
      const money = paths.filter((p) => /pay|checkout|billing|stripe|order|purchase|refund/i.test(p));
      expect(money.filter((p) => !/^\/api\/(account|admin\/orders|webhooks\/stripe)(\/|$)/.test(p))).toEqual([]);
      expect(money.some((p) => p.startsWith('/api/submissions'))).toBe(false);
    },
  },
  reviewedByHand: {
    behaviour: 'a submission waits as pending and is not listed until an operator approves it',
    check: async () => {
      const { harness, id } = await withSubmission({ server_name: 'Hand Checked Guild' });
      const [row] = await harness.client
        .execute({ sql: 'SELECT status FROM server_submissions WHERE id = ?', args: [id] })
        .then((r) => r.rows);
      expect(row?.status).toBe('pending');
      expect(await search(harness.app, 'Hand Checked Guild')).toEqual([]);
    },
  },
  reviewTime: {
    behaviour:
      'no claim promises a review time; the "received" mail states the queue from the decisions themselves (queueSentence over readQueueFigures), and GET /api/moderation/queue gives the submit page the same sentence',
    check: async () => {
      // The refund claim states the refund window (30 days from payment), a rule the refunds row checks.
      for (const [key, text] of Object.entries(CLAIMS))
        if (key !== 'refunds') expect(text).not.toMatch(/\d+\s*(?:[-–]|to)?\s*\d*\s*(?:hours?|days?|minutes?)/i);
      const { harness } = await withSubmission({ server_name: 'Queued Guild' });
      const [received] = (await listMails(harness.db, { kind: 'submission_received' })).mails;
      expect(received?.text_body).toContain(
        '1 submission is waiting for review. There is too little data for a typical review time: 0 decisions in the last 30 days',
      );
      const queue = (await (await harness.app.request('/api/moderation/queue')).json()) as { sentence: string };
      expect(queue.sentence).toBe(queueSentence(await readQueueFigures(harness.db)));
      expect(queue.sentence).toMatch(/^1 submission is waiting/);
    },
  },
  liveOnApproval: {
    behaviour:
      'approval lists the server at once (search finds it) and requests the site rebuild in the same call; its page is live before any rebuild (tests/api/on-demand-pages.test.ts, tests/edge/on-demand.test.ts)',
    check: async () => {
      const { harness, id, admin } = await withSubmission({ server_name: 'Approved Today Guild' });
      expect(harness.rebuild.reasons).toEqual([]);
      const res = await harness.call(admin, 'POST', `/api/admin/submissions/${id}/approve`, {});
      expect(res.status).toBe(200);
      expect(harness.rebuild.reasons).toEqual([expect.stringContaining('approved')]);
      expect((await search(harness.app, 'Approved Today Guild')).map((s) => s.name)).toEqual(['Approved Today Guild']);
    },
  },
  rebuiltOnApproval: {
    behaviour: 'the same approval path as liveOnApproval requests a rebuild',
    check: async () => {
      const { harness, id, admin } = await withSubmission();
      await harness.call(admin, 'POST', `/api/admin/submissions/${id}/approve`, {});
      expect(harness.rebuild.reasons).toHaveLength(1);
    },
  },
  outcomeMail: {
    behaviour:
      'a submission writes the "received" mail to its contact address in the same batch; approval writes "approved" with the live /server/{slug} address, rejection "rejected" with the moderator\'s note (tests/api/mail.test.ts delivers each over SMTP)',
    check: async () => {
      const { harness, id, admin } = await withSubmission({ server_name: 'Mailed Guild' });
      expect((await listMails(harness.db, { kind: 'submission_received' })).mails.map((m) => m.to_address)).toEqual([
        'owner@example.com',
      ]);
      const approved = await harness.call(admin, 'POST', `/api/admin/submissions/${id}/approve`, {});
      const { server } = (await approved.json()) as { server: { slug: string } };
      const [approval] = (await listMails(harness.db, { kind: 'submission_approved' })).mails;
      expect(approval?.text_body).toContain(`http://localhost:4321/server/${server.slug}`);
      const other = await postJson(
        harness.app,
        '/api/submissions',
        validSubmission({ server_name: 'Refused Guild', invite_link: 'https://discord.gg/refusedguild' }),
      );
      const refused = ((await other.json()) as { submission: { id: number } }).submission.id;
      await harness.call(admin, 'PATCH', `/api/admin/submissions/${refused}`, {
        status: 'rejected',
        reasons: ['misleading'],
        admin_notes: 'The invite opens a different server.',
      });
      const [rejection] = (await listMails(harness.db, { kind: 'submission_rejected' })).mails;
      expect(rejection?.text_body).toContain('The invite opens a different server.');
    },
  },
  appeals: {
    behaviour:
      'a rejection needs reasons and mails them with the note and a signed appeal link; one appeal through it, no account; its own moderator cannot decide it while another exists; the outcome is mailed (tests/api/appeals.test.ts covers hides too)',
    check: async () => {
      const { harness, id } = await withSubmission({ server_name: 'Appealed Guild' });
      const first = await harness.signIn('moderator');
      expect((await harness.call(first, 'PATCH', `/api/admin/submissions/${id}`, { status: 'rejected' })).status).toBe(
        400,
      );
      await harness.call(first, 'PATCH', `/api/admin/submissions/${id}`, {
        status: 'rejected',
        reasons: ['requirement'],
        requirement: 'members',
      });
      const [mail] = (await listMails(harness.db, { kind: 'submission_rejected' })).mails;
      expect(mail?.text_body).toContain('Does not meet a requirement: At least 50 members');
      const token = decodeURIComponent(/\/appeal\?token=(\S+)/.exec(mail!.text_body)![1]!);
      const appeal = { token, appeal: 'We have 400 members, see the invite.' };
      expect((await postJson(harness.app, '/api/moderation/appeals', appeal)).status).toBe(201);
      expect((await postJson(harness.app, '/api/moderation/appeals', appeal)).status).toBe(409);
      const second = await harness.signIn('moderator');
      const { appeals } = (await (await harness.call(second, 'GET', '/api/admin/appeals')).json()) as {
        appeals: { id: number }[];
      };
      const path = `/api/admin/appeals/${appeals[0]!.id}`;
      expect((await harness.call(first, 'POST', path, { outcome: 'upheld' })).status).toBe(409);
      expect((await harness.call(second, 'POST', path, { outcome: 'upheld' })).status).toBe(200);
      expect((await listMails(harness.db, { kind: 'appeal_decided' })).mails).toHaveLength(1);
      // The moderation log counts it (tests/api/moderation-log.test.ts holds its counts against the audit log).
      expect((await readModerationLog(harness.db))[0]).toMatchObject({ rejected: 1, appeals: 1, upheld: 1 });
    },
  },
  received: {
    behaviour: 'review by hand and publishing on approval, as reviewedByHand and liveOnApproval check',
    check: () => {
      expect(CLAIMS.received).not.toMatch(/email/i);
    },
  },
  moderatorWrites: {
    behaviour: 'the console shows each submission with its contact address, for a moderator to write to',
    check: async () => {
      const { harness, id, admin } = await withSubmission();
      const res = await harness.call(admin, 'GET', `/api/admin/submissions/${id}`);
      const body = (await res.json()) as { submission: { contact_email: string } };
      expect(body.submission.contact_email).toBe('owner@example.com');
    },
  },
  reviewsInRank: {
    behaviour:
      'two listings alike but for five 5-star member reviews on one get the same rank score, and /ranking prints the claim',
    check: async () => {
      h = await createAdminHarness({ env: { RATE_LIMITS: 'false' } });
      const twin = {
        members: 800,
        active_users: 200,
        invite_status: 'ok' as const,
        last_ok_at: new Date().toISOString(),
      };
      const plain = await seedServer(h.db, { name: 'Review Twin Plain', ...twin });
      const reviewed = await seedServer(h.db, { name: 'Review Twin Reviewed', ...twin });
      for (let i = 1; i <= 5; i++) {
        const [account] = await h.db
          .insert(ownerUsers)
          .values({ discord_user_id: `8035111022467890${i}`, username: `reviewer${i}` })
          .returning();
        await h.db.insert(reviews).values({
          server_id: reviewed.id,
          account_id: account!.id,
          rating: 5,
          body: 'A great community with fair moderators and useful channels.',
          display_name: `Reviewer ${i}`,
          member_since: '2024-01-01T00:00:00.000Z',
        });
      }
      await recomputeRanks(h.db, new Date());
      const score = async (id: number) => (await getServerById(h!.db, id))?.rank_score;
      expect(await score(reviewed.id)).toBe(await score(plain.id));
      expect(await score(plain.id)).toBeGreaterThan(0);
      expect(readFileSync(join(process.cwd(), 'src/pages/ranking.astro'), 'utf8')).toContain('{CLAIMS.reviewsInRank}');
    },
  },
  ranking: {
    behaviour:
      'the public listing sorts by members by default, offers Most Active, Newest and Growing, and gives a premium or sponsored listing the same rank score as its unpaid twin',
    check: async () => {
      h = await createAdminHarness({ env: { RATE_LIMITS: 'false' } });
      await seedServer(h.db, { name: 'Rank Small Sponsored', members: 10, is_sponsored: true, sort_order: 99 });
      await seedServer(h.db, { name: 'Rank Big Plain', members: 9000 });
      await seedServer(h.db, { name: 'Rank Mid Premium', members: 500, is_premium: true, sort_order: 50 });
      // Four unpaid servers between them: the paid ones stay where members put them (placement claim).
      for (const n of [400, 300, 200, 100]) await seedServer(h.db, { name: `Rank Plain ${n}`, members: n });
      expect((await search(h.app, 'Rank')).map((s) => s.name)).toEqual([
        'Rank Big Plain',
        'Rank Mid Premium',
        'Rank Plain 400',
        'Rank Plain 300',
        'Rank Plain 200',
        'Rank Plain 100',
        'Rank Small Sponsored',
      ]);
      expect(DEFAULT_SORT).toBe('members');
      expect(MENU_SORTS.map((s) => SORT_LABELS[s])).toEqual(['Most Members', 'Most Active', 'Newest', 'Growing']);
      // Twins but for the paid flags: the rank score (Most Active) is the same.
      const twin = {
        members: 800,
        active_users: 200,
        invite_status: 'ok' as const,
        last_ok_at: new Date().toISOString(),
      };
      const plain = await seedServer(h.db, { name: 'Twin Plain', ...twin });
      const paid = await seedServer(h.db, { name: 'Twin Paid', ...twin, is_premium: true, is_sponsored: true });
      await recomputeRanks(h.db, new Date());
      const score = async (id: number) => (await getServerById(h!.db, id))?.rank_score;
      expect(await score(paid.id)).toBe(await score(plain.id));
      expect(await score(plain.id)).toBeGreaterThan(0);
    },
  },
  countsFromDiscord: {
    behaviour:
      "a check's answer from Discord becomes the listing's member and online counts, stamped with the check's time",
    check: () => {
      const now = Date.parse('2030-01-01T00:00:00.000Z');
      const { update } = applyCheck(
        {
          guild_id: '81384788765712384',
          guild_icon: null,
          invite_status: 'ok',
          members: 10,
          active_users: 1,
          last_ok_at: null,
          fail_streak: 0,
          first_fail_at: null,
          transient_streak: 0,
        },
        { kind: 'ok', invite: discordInvite({ memberCount: 4321, onlineCount: 765 }), rateLimit: null },
        now,
      );
      expect(update).toMatchObject({ members: 4321, active_users: 765, last_checked_at: new Date(now).toISOString() });
    },
  },
  notYetChecked: {
    behaviour: 'a new listing has no check yet (unchecked, no last_checked_at) and keeps the counts it was given',
    check: async () => {
      tdb = await createTestDb();
      const s = await seedServer(tdb.db, { members: 321, active_users: 12 });
      expect(s).toMatchObject({ invite_status: 'unchecked', last_checked_at: null, members: 321, active_users: 12 });
    },
  },
  premium: {
    behaviour: 'a premium server with a link gets the Join Premium link through /go; badges come from is_premium',
    check: async () => {
      tdb = await createTestDb();
      const server = await seedServer(tdb.db, { is_premium: true, affiliate_link: 'https://discord.gg/prem' });
      const card = toCard(server);
      expect(card.is_premium).toBe(true);
      expect(joinProps(card)).toMatchObject({ label: 'Join Premium', paid: true, href: `/go/${server.slug}` });
      // Premium Picks on the home page: premium or sponsored servers, six at a time, as the home's
      // data reads them (src/data/home-page.ts: homeFromDb, for the build and the publish alike).
      const home = readFileSync(join(ROOT, 'src/data/home-page.ts'), 'utf8');
      expect(home).toContain('paidListingHead(db, LIMITS.premiumGrid)');
      expect(LIMITS.premiumGrid).toBe(6);
      const plain = await seedServer(tdb.db, { name: 'Plain Guild' });
      const sponsored = await seedServer(tdb.db, { name: 'Sponsored Guild', is_sponsored: true });
      const picks = (await paidListingHead(tdb.db, LIMITS.premiumGrid)).map((s) => s.id);
      expect(picks.sort()).toEqual([server.id, sponsored.id].sort());
      expect(picks).not.toContain(plain.id);
      for (let i = 0; i < 7; i++) await seedServer(tdb.db, { name: `Premium Guild ${i}`, is_premium: true });
      expect(await paidListingHead(tdb.db, LIMITS.premiumGrid)).toHaveLength(6);
    },
  },
  sponsored: {
    behaviour:
      "a sponsored server leads its category's list (GET /api/servers?category=, as the category pages place it), the next paid card five positions later; it is not moved up a search (ranking check) and is in Premium Picks",
    check: async () => {
      await BACKED_BY.ranking.check();
      // The same servers as the ranking check, in the Crypto category's list: the Sponsored one leads it.
      const crypto = await createAdminHarness({ env: { RATE_LIMITS: 'false' } });
      cleanups.push(async () => crypto.cleanup());
      await seedServer(crypto.db, {
        name: 'Head Small Sponsored',
        category: 'Crypto',
        members: 10,
        is_sponsored: true,
      });
      await seedServer(crypto.db, { name: 'Head Big Plain', category: 'Crypto', members: 9000 });
      await seedServer(crypto.db, { name: 'Head Mid Premium', category: 'Crypto', members: 500, is_premium: true });
      for (const n of [400, 300, 200, 100]) {
        await seedServer(crypto.db, { name: `Head Plain ${n}`, category: 'Crypto', members: n });
      }
      await seedServer(crypto.db, { name: 'Head Other Category', category: 'Gaming', members: 20, is_sponsored: true });
      const res = await crypto.app.request('/api/servers?category=Crypto&per_page=20');
      expect(((await res.json()) as { servers: { name: string }[] }).servers.map((s) => s.name)).toEqual([
        'Head Small Sponsored',
        'Head Big Plain',
        'Head Plain 400',
        'Head Plain 300',
        'Head Plain 200',
        'Head Mid Premium',
        'Head Plain 100',
      ]);
      // Premium Picks takes sponsored servers as well as premium ones (the premium check runs the picks).
      await BACKED_BY.premium.check();
    },
  },
  placement: {
    behaviour:
      'a paid card carries its label, its own colours and "About this placement" (who paid or that operators granted it, until when when recorded and nothing about the period otherwise, organic rank unchanged); GET /api/servers gives paid cards at most one position in five, never moving one up, and ends the list with the ones no unpaid server is left to space (never leaving one out); Premium Only and Premium Picks are paid cards alone',
    check: async () => {
      tdb = await createTestDb();
      const period = {
        placement_started_at: '2026-03-01T00:00:00.000Z',
        placement_ends_at: '2026-05-31T00:00:00.000Z',
      };
      const sponsored = toCard(await seedServer(tdb.db, { name: 'Paid Guild', is_sponsored: true, ...period }));
      const html = renderToStaticMarkup(createElement(ServerCard, { server: sponsored }));
      expect(html).toContain('class="card card-paid"');
      expect(html).toMatch(/<span class="badge badge-sponsored">Sponsored<\/span>/);
      expect(html).toMatch(/<details class="placement"><summary>About this placement<\/summary>/);
      expect(html).toContain(
        'Sponsored placement paid for by the owner of Paid Guild, until <time dateTime="2026-05-31T00:00:00.000Z">31\u00a0May\u00a02026</time>.',
      );
      expect(html).toContain(CLAIMS.placementRank);
      const premium = toCard(await seedServer(tdb.db, { name: 'Unrecorded Guild', is_premium: true }));
      const unrecorded = renderToStaticMarkup(createElement(ServerCard, { server: premium }));
      expect(unrecorded).toContain('Premium placement paid for by the owner of Unrecorded Guild.');
      expect(unrecorded).not.toMatch(/not recorded|until/);
      const comp = toCard(
        await seedServer(tdb.db, { name: 'Comp Guild', is_premium: true, placement_ends_at: period.placement_ends_at }),
      );
      expect(
        renderToStaticMarkup(createElement(ServerCard, { server: { ...comp, placement_kind: 'comp' } })),
      ).toContain('Premium placement granted free of charge by the operators of this site, until');
      const plain = toCard(await seedServer(tdb.db, { name: 'Plain Guild' }));
      expect(renderToStaticMarkup(createElement(ServerCard, { server: plain }))).not.toMatch(/placement|card-paid/);

      h = await createAdminHarness({ env: { RATE_LIMITS: 'false' } });
      for (let i = 0; i < 3; i++)
        await seedServer(h.db, { name: `Space Paid ${i}`, members: 900 - i, is_premium: true });
      for (let i = 0; i < 5; i++) await seedServer(h.db, { name: `Space Plain ${i}`, members: 500 - i });
      const res = await h.app.request('/api/servers?search=Space&per_page=20');
      const { servers, total } = (await res.json()) as {
        servers: { name: string; is_premium: boolean }[];
        total: number;
      };
      expect(servers.map((s) => s.name)).toEqual([
        'Space Paid 0',
        'Space Plain 0',
        'Space Plain 1',
        'Space Plain 2',
        'Space Plain 3',
        'Space Paid 1',
        'Space Plain 4',
        'Space Paid 2',
      ]);
      expect(total).toBe(8);
      // One in five, but for the paid card nothing was left to space out: it ends the list.
      const flags = servers.map((s) => s.is_premium).slice(0, -1);
      for (let i = 0; i < flags.length; i++) {
        expect(flags.slice(i, i + PAID_SPACING).filter(Boolean).length).toBeLessThanOrEqual(1);
      }
      const only = await h.app.request('/api/servers?search=Space&premium=true');
      expect(((await only.json()) as { total: number }).total).toBe(3);
    },
  },
  placementRank: {
    behaviour: 'the organic rank numbers of a grid skip paid cards (the placement check covers the one in five)',
    check: async () => {
      tdb = await createTestDb();
      const cards = [];
      for (const [name, paid] of [
        ['A', false],
        ['B', true],
        ['C', false],
      ] as const) {
        cards.push(toCard(await seedServer(tdb.db, { name: `Grid ${name}`, is_sponsored: paid })));
      }
      const html = renderToStaticMarkup(createElement(ServerCardGrid, { servers: cards }));
      expect([...html.matchAll(/aria-label="Rank (\d+)"/g)].map((m) => m[1])).toEqual(['1', '2']);
      expect(html.indexOf('Grid C')).toBeGreaterThan(html.indexOf('Rank 2'));
      // The claim is about these numbers only: a server page's place in its category by score
      // (category_place, RankExplanation.astro) counts paid and unpaid listings alike.
      expect(CLAIMS.placementRank).toContain('the numbers on the cards of a list count unpaid servers only');
      expect(CLAIMS.placementRank).not.toContain('rank numbers count');
      await BACKED_BY.placement.check();
    },
  },
  payments: {
    behaviour:
      "a Promote opens a Stripe Checkout session in payment mode (no subscription) at the plan's price; the order has a fixed term; nothing a visitor sends sets premium or sponsored",
    check: async () => {
      const { harness, id, admin } = await withSubmission({
        server_name: 'Wants Free Premium',
        is_premium: true,
        is_sponsored: true,
      });
      await harness.call(admin, 'POST', `/api/admin/submissions/${id}/approve`, {});
      const [row] = await harness.client
        .execute("SELECT is_premium, is_sponsored FROM discord_servers WHERE name = 'Wants Free Premium'")
        .then((r) => r.rows);
      expect([Number(row?.is_premium), Number(row?.is_sponsored)]).toEqual([0, 0]);
      const { shop, session, plan } = await promoted();
      expect(session.mode).toBe('payment');
      expect(session.amount_total).toBe(plan.price_cents);
      const [order] = await shop.db.select().from(orders);
      expect(order?.term_days).toBe(plan.term_days);
    },
  },
  refunds: {
    behaviour:
      'an owner refunds a paid order within 30 days in one call and the placement ends at once; past 30 days it is refused; admins refund any order; a dispute suspends the placement',
    check: async () => {
      expect(REFUND_WINDOW_DAYS).toBe(30);
      const { shop, stripe, owner, orderId, listingId } = await promoted({ pay: true });
      const res = await shop.ownerCall(owner, 'POST', `/api/account/orders/${orderId}/refund`, {});
      expect(res.status).toBe(200);
      expect((await getServerById(shop.db, listingId))?.is_sponsored).toBe(false);
      expect(transition('paid', 'disputed')).toEqual({ state: 'disputed', effects: ['deactivate'] });
      expect(shop.app.routes.some((r) => r.path === '/api/admin/orders/:id/refund' && r.method === 'POST')).toBe(true);
      expect(refundableByOwner(new Date(Date.now() - 31 * DAY).toISOString(), Date.now())).toBe(false);
      expect(stripe.events.map((e) => e.event.type)).toContain('checkout.session.completed');
    },
  },
  paymentsClosed: {
    behaviour: "without Stripe keys no checkout can start (503) and the owner's page is told payments are off",
    check: async () => {
      const shop = await createOwnerHarness();
      try {
        const listing = await seedServer(shop.db, { guild_id: '820000000000000001', invite_status: 'ok' });
        const owner = await shop.signInOwner([guild('820000000000000001', { owner: true })]);
        const offer = await shop.ownerCall(owner, 'GET', `/api/account/listings/${listing.id}/promote`);
        expect(((await offer.json()) as { payments: boolean }).payments).toBe(false);
        const res = await shop.ownerCall(owner, 'POST', `/api/account/listings/${listing.id}/checkout`, { plan_id: 1 });
        expect(res.status).toBe(503);
      } finally {
        await shop.cleanup();
      }
    },
  },
  compPlacement: {
    behaviour: "an admin's comp is audited and its card says it was granted free of charge",
    check: async () => {
      h = await createAdminHarness({ env: { RATE_LIMITS: 'false' } });
      const listing = await seedServer(h.db, { name: 'Comped Guild' });
      const admin = await h.signIn('admin');
      const res = await h.call(admin, 'POST', '/api/admin/orders/comps', {
        server_id: listing.id,
        placement: 'premium',
        term_days: 7,
      });
      expect(res.status).toBe(201);
      const card = toCard((await getServerById(h.db, listing.id))!);
      expect(renderToStaticMarkup(createElement(ServerCard, { server: card }))).toContain(
        'granted free of charge by the operators of this site',
      );
    },
  },
  premiumCta: {
    behaviour:
      'the premium call to action leads to the contact form with the Premium subject, whose messages reach the console',
    check: async () => {
      h = await createAdminHarness({ env: { RATE_LIMITS: 'false' } });
      const res = await h.app.request('/go/cta/premium?from=help');
      expect(res.headers.get('location')).toBe('/contact?subject=premium');
      expect(CONTACT_SUBJECT_VALUES).toContain('premium');
    },
  },
  contactReply: {
    behaviour:
      'a contact message is stored and listed in the console inbox, and mailed to SUPPORT_EMAIL (Reply-To the visitor) with an acknowledgement to the visitor that quotes nothing they typed',
    check: async () => {
      h = await createAdminHarness({ env: { RATE_LIMITS: 'false', SUPPORT_EMAIL: 'help@guildrank.gg' } });
      const sent = await postJson(h.app, '/api/contact', {
        name: 'Ada',
        email: 'ada@example.com',
        subject: 'premium',
        message: 'Please tell me about Premium placement.',
      });
      expect(sent.status).toBe(201);
      const admin = await h.signIn('admin');
      const inbox = (await (await h.call(admin, 'GET', '/api/admin/contact')).json()) as {
        messages: { email: string }[];
      };
      expect(inbox.messages.map((m) => m.email)).toEqual(['ada@example.com']);
      const mails = (await listMails(h.db)).mails.map((m) => [m.kind, m.to_address, m.reply_to]);
      expect(mails).toEqual(
        expect.arrayContaining([
          ['contact_message', 'help@guildrank.gg', 'ada@example.com'],
          ['contact_ack', 'ada@example.com', null],
        ]),
      );
      // The acknowledgement goes to an address nobody proved is theirs: it carries nothing the visitor typed.
      const ack = (await listMails(h.db, { kind: 'contact_ack' })).mails[0];
      expect(ack?.text_body).toContain('Thanks for writing');
      expect(`${ack?.subject} ${ack?.text_body} ${ack?.html_body}`).not.toMatch(/Premium placement|Ada/);
    },
  },
  subscribed: {
    behaviour:
      'the signup stores a pending subscriber with its confirmation mail and nothing else, as newsletter checks',
    check: async () => {
      await BACKED_BY.newsletter.check();
    },
  },
  ownerAccounts: {
    behaviour:
      'an owner signed in with Discord (Manage Server, no paid placement) gets the listing; an edit of the fields the claim names (EDITABLE_FIELDS) changes nothing until reviewed; a replaced invite is looked up with Discord; the numbers cover 7, 30 and 90 days with the member history',
    check: async () => {
      const oh = await createOwnerHarness();
      try {
        const listing = await seedServer(oh.db, { guild_id: '990000000000000001', is_premium: false });
        const owner = await oh.signInOwner([guild('990000000000000001', { permissions: PERMISSIONS.manageGuild })]);
        const path = `/api/account/listings/${listing.id}`;
        // The fields the claim says an owner edits are exactly the ones an edit takes.
        expect([...EDITABLE_FIELDS]).toEqual(['description', 'tags', 'features', 'subcategory', 'links']);
        expect(CLAIMS.ownerAccounts).toContain('description, tags, features, subcategory and links');
        const links = [{ label: 'Website', url: 'https://example.org' }];
        expect((await oh.ownerCall(owner, 'POST', `${path}/edits`, { tags: ['claimed'], links })).status).toBe(201);
        const unchanged = (await getServerById(oh.db, listing.id))!;
        expect(unchanged.tags).toEqual([]);
        expect(unchanged.links).toEqual([]);
        oh.discord.invites.set('claimcheck', {
          guild: { id: '990000000000000001', name: 'Claimed' },
          memberCount: 200,
          onlineCount: 1,
        });
        const invite = await oh.ownerCall(owner, 'POST', `${path}/invite`, {
          invite_link: 'https://discord.gg/claimcheck',
        });
        expect(invite.status).toBe(200);
        expect(oh.discord.requests.some((r) => r.path.startsWith('/api/v10/invites/claimcheck'))).toBe(true);
        const numbers = (await (await oh.ownerCall(owner, 'GET', `${path}/numbers`)).json()) as {
          windows: { days: number }[];
          members: { members: number }[];
        };
        expect(numbers.windows.map((w) => w.days)).toEqual([7, 30, 90]);
        expect(numbers.members.map((m) => m.members)).toEqual([200]);
      } finally {
        await oh.cleanup();
      }
    },
  },
  newsletter: {
    behaviour:
      'a signup is pending with only a confirmation mail; once confirmed, the weekly send writes its issue (premium picks) to it, each newsletter mail with its one-click List-Unsubscribe, whose POST unsubscribes',
    check: async () => {
      const env = { SITE_URL: 'http://localhost:4321', SESSION_SECRET: 'claims-test-secret-'.repeat(3) };
      h = await createAdminHarness({ env: { RATE_LIMITS: 'false', ...env } });
      const deps = { db: h.db, env: loadEnv(env) };
      await seedServer(h.db, { name: 'Weekly Pick Guild', is_premium: true });
      expect((await postJson(h.app, '/api/newsletter', { email: 'reader@example.com' })).status).toBe(201);
      expect(await getSubscriberByEmail(h.db, 'reader@example.com')).toMatchObject({ status: 'pending' });
      // A send while the address is pending writes nothing to it.
      await sendNewsletter(deps, Date.now() - 7 * DAY);
      const pending = (await listMails(h.db)).mails;
      expect(pending.map((m) => m.kind)).toEqual(['newsletter_confirm']);
      const confirmUrl = /http:\/\/localhost:4321(\/newsletter\/confirm\?token=\S+)/.exec(pending[0]!.text_body)![1]!;
      expect((await h.app.request(confirmUrl, { method: 'POST' })).status).toBe(200);
      expect((await getNewsletterStats(h.db)).active).toBe(1);
      const week = await sendNewsletter(deps, Date.now());
      expect(week.enqueued).toBe(1);
      const [issue] = (await listMails(h.db, { kind: 'newsletter_issue' })).mails;
      expect(issue?.text_body).toContain('Weekly Pick Guild');
      expect(issue?.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
      const unsubscribe = /<http:\/\/localhost:4321(\/unsubscribe\?token=\S+)>/.exec(
        issue!.headers!['List-Unsubscribe']!,
      )![1]!;
      const oneClick = await h.app.request(unsubscribe, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect(oneClick.status).toBe(200);
      expect(await getSubscriberByEmail(h.db, 'reader@example.com')).toMatchObject({ status: 'unsubscribed' });
    },
  },
  shortSearch: {
    behaviour:
      "a search of one or two characters finds a match among the order's first SHORT_TERM_WINDOW servers only, its total a lower bound past them; three characters find it anywhere",
    check: async () => {
      tdb = await createTestDb();
      await insertFakeServers(tdb.client, SHORT_TERM_WINDOW + 10);
      // The fewest members: last in this order, past the window.
      await tdb.client.execute("UPDATE discord_servers SET name = 'Quiz QZX Club', members = 0 WHERE id = 3");
      expect(await listServers(tdb.db, { search: 'qz', sort: 'members' })).toMatchObject({
        servers: [],
        total: 0,
        totalExact: false,
      });
      const found = await listServers(tdb.db, { search: 'qzx', sort: 'members' });
      expect(found.servers.map((s) => s.id)).toEqual([3]);
      expect(MIN_INDEXED_SEARCH).toBe(3);
      expect(CLAIMS.shortSearch).toContain(`first ${SHORT_TERM_WINDOW.toLocaleString('en-US')} servers`);
    },
  },
};

type Harness = Awaited<ReturnType<typeof createAdminHarness>>;
let reqSerial = 0;
/** Submits through a permissive stand-in whose answer for one fresh code is `invite` (a fresh guild each). */
async function submitRequirement(
  harness: Harness,
  invite: { memberCount?: number; expiresAt?: string; nsfwLevel?: number },
  body: Record<string, unknown> = {},
) {
  const discord = await startDiscordStandIn({ permissive: true });
  cleanups.push(() => discord.close());
  const code = `claimreq${++reqSerial}`;
  discord.invites.set(code, {
    guild: { id: `9120000000000${String(reqSerial).padStart(5, '0')}`, name: 'Req', nsfwLevel: invite.nsfwLevel ?? 0 },
    memberCount: invite.memberCount ?? 500,
    onlineCount: 10,
    expiresAt: invite.expiresAt ?? null,
  });
  const app = createApp({
    db: harness.db,
    env: loadEnv({ SITE_URL: 'http://localhost:4321', DISCORD_API_BASE: discord.url, RATE_LIMITS: 'false' }),
  });
  return postJson(app, '/api/submissions', validSubmission({ invite_link: `https://discord.gg/${code}`, ...body }));
}

/** What the product does with a submission failing the requirement: 'refused' (400 naming and linking it) or 'flagged' (stored, flagged). */
async function outcomeOf(
  harness: Harness,
  res: Response,
  id: RequirementId,
): Promise<'refused' | 'flagged' | 'neither'> {
  if (res.status === 400) {
    const body = JSON.stringify(await res.json());
    return body.includes(`/requirements#${id}`) || id === 'category' ? 'refused' : 'neither';
  }
  if (res.status !== 201) return 'neither';
  const { submission } = (await res.json()) as { submission: { id: number } };
  const admin = await harness.signIn('moderator');
  const detail = (await (await harness.call(admin, 'GET', `/api/admin/submissions/${submission.id}`)).json()) as {
    submission: { flags: { rule: string }[] };
  };
  return detail.submission.flags.some((f) => f.rule === id) ? 'flagged' : 'neither';
}

/** One submission failing each stated requirement, through the real submit route. */
const REQUIREMENTS_APPLIED: Record<RequirementId, (harness: Harness) => Promise<string>> = {
  members: async (x) => outcomeOf(x, await submitRequirement(x, { memberCount: DEFAULT_MIN_MEMBERS - 1 }), 'members'),
  'permanent-invite': async (x) =>
    outcomeOf(x, await submitRequirement(x, { expiresAt: '2031-01-01T00:00:00+00:00' }), 'permanent-invite'),
  'not-age-restricted': async (x) =>
    outcomeOf(x, await submitRequirement(x, { nsfwLevel: 3 }, { category: 'Crypto' }), 'not-age-restricted'),
  category: async (x) => outcomeOf(x, await submitRequirement(x, {}, { category: 'Anime' }), 'category'),
  'no-promised-returns': async (x) =>
    outcomeOf(
      x,
      await submitRequirement(
        x,
        {},
        { category: 'Investing', server_description: 'Guaranteed returns for every member.' },
      ),
      'no-promised-returns',
    ),
  'betting-18-plus': async (x) =>
    outcomeOf(
      x,
      await submitRequirement(
        x,
        {},
        { category: 'Sports Betting', server_description: 'Daily NBA and NFL picks with write-ups.', features: '' },
      ),
      'betting-18-plus',
    ),
};

describe('the site claims only what the product does', () => {
  it('every claim in src/lib/claims.ts has the behaviour that backs it listed here', () => {
    expect(Object.keys(BACKED_BY).sort()).toEqual(Object.keys(CLAIMS).sort());
  });

  for (const [key, { behaviour, check }] of Object.entries(BACKED_BY)) {
    it(`${key}: ${behaviour}`, check);
  }

  it("counts: a refresh pass writes Discord's counts on a listing and schedules it again within a day; each deployment's budget covers the number of listings it states", async () => {
    const discord = await startDiscordStandIn();
    try {
      h = await createAdminHarness({ env: { RATE_LIMITS: 'false', DISCORD_API_BASE: discord.url } });
      const guildId = '81384788765712384';
      discord.invites.set('countedguild', {
        guild: { id: guildId, name: 'Counted Guild' },
        memberCount: 4321,
        onlineCount: 765,
      });
      const listed = await seedServer(h.db, {
        name: 'Counted Guild',
        members: 10,
        active_users: 1,
        guild_id: guildId,
        invite_code: 'countedguild',
        affiliate_link: 'https://discord.gg/countedguild',
      });
      const now = Date.now();
      await refresh({ db: h.db, env: h.env, fetch, rebuild: h.rebuild }, now, { all: true, sleep: async () => {} });
      const row = await getServerById(h.db, listed.id);
      expect(row).toMatchObject({
        members: 4321,
        active_users: 765,
        invite_status: 'ok',
        last_checked_at: new Date(now).toISOString(),
      });
      expect(Date.parse(row!.next_check_at) - now).toBeLessThan(DAY);
    } finally {
      await discord.close();
    }
    // Whatever the jitter, a working invite is due within a day; passes run far more often than that.
    expect(SCHEDULE.okMs * (1 + SCHEDULE.okJitter)).toBeLessThan(DAY);
    expect(REFRESH_EVERY_MS).toBeLessThanOrEqual(BUDGET.windowMs);
    // The figure each deployment states is what its refresh can do: npm start's passes take what the
    // budget leaves; the Worker's are paced to its 50 subrequests (tests/api/refresh-job.test.ts).
    const node = listingsPerDay(BUDGET.refreshPerWindow);
    expect(node).toBeGreaterThanOrEqual(10_000);
    const unpaced = loadEnv({ DATABASE_URL: 'file:unused.db' });
    expect(countsClaim(deploymentFacts(unpaced))).toContain(`up to ${node.toLocaleString('en-US')} listings`);
    // The Worker's wrangler.toml sets REFRESH_LOOKUPS_PER_PASS: its pages state its own figure.
    const paced = loadEnv({
      DATABASE_URL: 'file:unused.db',
      REFRESH_LOOKUPS_PER_PASS: String(WORKER_LOOKUPS_PER_PASS),
    });
    const worker = listingsPerDay(BUDGET.refreshPerWindow, refreshPace(WORKER_LOOKUPS_PER_PASS));
    expect(worker).toBeLessThan(node);
    expect(countsClaim(deploymentFacts(paced))).toContain(`up to ${worker.toLocaleString('en-US')} listings`);
  });

  it('every requirement /requirements and the FAQ state is one the code applies, as stated', async () => {
    const stated = requirements(DEFAULT_MIN_MEMBERS);
    expect(Object.keys(REQUIREMENTS_APPLIED).sort()).toEqual(stated.map((r) => r.id).sort());
    // The FAQ's answer is the module's summary, naming each requirement.
    const faq = faqTabs({
      supportEmail: 's@x.y',
      subscribers: 0,
      plans: [],
      payments: false,
      sponsoredSlots: 3,
      minMembers: 50,
      refreshPerDay: listingsPerDay(BUDGET.refreshPerWindow),
    });
    const answer = faq.flatMap((t) => t.items).find((i) => i.q === 'What are the requirements?');
    expect(answer?.a).toBe(requirementsSummary(50));
    for (const r of stated) expect(answer!.a.toLowerCase()).toContain(r.title.toLowerCase());
    // The help page's terms and the requirements page read the same setting, never a figure of their own.
    const help = readFileSync(join(ROOT, 'src/pages/help/index.astro'), 'utf8');
    expect(help).not.toMatch(/at least \d+ members/);
    expect(readFileSync(join(ROOT, 'src/pages/requirements.astro'), 'utf8')).toContain(
      'requirements(facts.minMembers)',
    );
    h = await createAdminHarness({ env: { RATE_LIMITS: 'false' } });
    for (const r of stated) {
      const outcome = await REQUIREMENTS_APPLIED[r.id](h);
      expect(outcome, r.id).toBe(r.enforcement);
    }
  });

  it('the subscriber figure is the database count rounded down, and no figure below 100', async () => {
    tdb = await createTestDb();
    for (let i = 0; i < 2; i++) await subscribeEmail(tdb.db, `few-${i}@example.com`);
    expect(subscriberFigure((await getNewsletterStats(tdb.db)).active)).toBeNull();
    expect(newsletterPitch({ subscribers: 2 })).toBe(CLAIMS.newsletter);
    for (let i = 2; i < 123; i++) await subscribeEmail(tdb.db, `many-${i}@example.com`);
    const active = (await getNewsletterStats(tdb.db)).active;
    expect(active).toBe(123);
    expect(subscriberFigure(active)).toBe('120+');
    expect(subscriberFigure(10_987)).toBe('10,000+');
    expect(subscriberFigure(1_234)).toBe('1,200+');
    expect(newsletterPitch({ subscribers: active })).toContain('120+ readers');
  });

  it('the support address is the SUPPORT_EMAIL setting, else support@ the site host, never a reserved example domain', () => {
    expect(loadEnv({ SITE_URL: 'https://www.guildrank.gg' }).SUPPORT_EMAIL).toBe('support@guildrank.gg');
    expect(loadEnv({ SITE_URL: 'https://guildrank.gg', SUPPORT_EMAIL: 'help@guildrank.gg' }).SUPPORT_EMAIL).toBe(
      'help@guildrank.gg',
    );
    expect(() => loadEnv({ SUPPORT_EMAIL: 'not an address' })).toThrow(/SUPPORT_EMAIL/);
    expect(supportEmailFor('https://guildrank.gg/')).toBe('support@guildrank.gg');
  });

  it('no page, island or default text outside claims.ts states a retired claim', () => {
    const retired = [
      /10,000\+|10000\+/,
      /24\s*[-–]\s*48|48\s*[-–]\s*72/,
      // A 30-day refund promise (the listing's 30-day member growth is a fact, not this claim).
      /money-back|refund guarantee|30-day (?:money|refund|guarantee|trial)/i,
      /every 24 hours|within 24 hours|watch your inbox/i,
      /guildrank\.example|support@example/i,
      /appear at the top/i,
      /priority support|priority placement|analytics on views/i,
      /real member counts/i,
      /approxMembers/,
    ];
    const files = [...filesUnder('src'), 'db/sample-data.ts'].filter(
      (f) => /\.(astro|tsx?|md)$/.test(f) && !f.endsWith('.test.ts') && f !== join('src', 'lib', 'claims.ts'),
    );
    const hits: string[] = [];
    for (const file of files) {
      // The category definitions keep the spec's figure as data; only the tiles must not show it.
      if (file === join('src', 'lib', 'categories.ts')) continue;
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const pattern of retired)
        if (pattern.test(text)) hits.push(`${relative(ROOT, join(ROOT, file))}: ${pattern}`);
    }
    expect(hits).toEqual([]);
    expect(CONTENT_DEFAULTS.map((d) => d.content_value).join(' ')).not.toMatch(/real member|10,000/);
  });
});
