// Paid placement (#30) through the real app and the loopback Stripe stand-in: an owner signs in
// with Discord (the Discord stand-in), starts a checkout, the stand-in "pays" and delivers signed
// events to POST /api/webhooks/stripe, and the database says what happened.

import { createClient } from '@libsql/client';
import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { toDb } from '../../db/client';
import { getServerById } from '../../db/queries/servers';
import { setOwnerWebhook } from '../../db/queries/webhooks';
import {
  auditLog,
  dailyRevenue,
  discordServers,
  mailOutbox,
  orderRefunds,
  orders,
  plans,
  premiumServerRevenue,
  siteChanges,
  stripeEvents,
  webhookOutbox,
} from '../../db/schema';
import { createApp } from '../../functions/_app/app';
import { smtpMailClient } from '../../functions/_app/clients/mail-smtp';
import type { RebuildTrigger } from '../../functions/_app/context';
import { loadEnv } from '../../functions/_app/env';
import { run as reconcile } from '../../functions/_app/jobs/order-reconcile';
import { run as clock } from '../../functions/_app/jobs/placement-clock';
import { JOBS, type JobContext, WORKER_RECONCILE_PER_PASS } from '../../functions/_app/jobs/schedule';
import { RATE_LIMITS } from '../../functions/_app/lib/rate-limits';
import { HookRebuildTrigger } from '../../functions/_app/lib/rebuild-hook';
import { DAY_MS, REMINDER_DAYS } from '../../src/lib/pricing/plans';
import { startLibsqlHttpServer } from '../fixtures/libsql-http-server';
import { createTestDb } from '../helpers/db';
import { premiumPlacement } from '../helpers/placements';
import { type SmtpStandIn, startSmtpStandIn } from '../helpers/smtp-stand-in';
import {
  STAND_IN_KEYS,
  type StandInEvent,
  type StripeStandIn,
  startStripeStandIn,
  TAX_RATE,
} from '../helpers/stripe-stand-in';
import { FREE_PLAN_SUBREQUESTS, scheduledSubrequests } from '../helpers/worker-invocation';
import { seedServer } from './api-harness';
import { createOwnerHarness, guild, type OwnerSession, SITE } from './owner-harness';

type Harness = Awaited<ReturnType<typeof createOwnerHarness>>;
let h: Harness | undefined;
let stripe: StripeStandIn | undefined;
let smtp: SmtpStandIn | undefined;
afterEach(async () => {
  // The stand-in first: it waits for the events it is still delivering to the app.
  await stripe?.close();
  await h?.cleanup();
  await smtp?.stop();
  h = undefined;
  stripe = undefined;
  smtp = undefined;
});

/**
 * One Sponsored slot per category and three paid weeks-and-month in a queue for it: listing 0's week
 * (running), listing 1's week (booked after it) and listing 0's month (booked after that one).
 */
async function oneSlotQueue(clockMs: () => number) {
  const shopped = await shop(2, clockMs, { SPONSORED_SLOTS_PER_CATEGORY: '1' });
  const { h, stripe, owner, listings, week, month } = shopped;
  const first = await checkout(h, owner, listings[0]!.id, week.id);
  await stripe.pay(first.sessionId);
  const other = await checkout(h, owner, listings[1]!.id, week.id);
  await stripe.pay(other.sessionId);
  const next = await checkout(h, owner, listings[0]!.id, month.id);
  await stripe.pay(next.sessionId);
  return { ...shopped, first, other, next };
}

const GUILDS = ['810000000000000001', '810000000000000002', '810000000000000003', '810000000000000004'];

/** A harness with payments against a fresh stand-in that delivers to the in-process app; one owner of `count` Gaming listings. */
async function shop(count = 1, clockMs?: () => number, env: Record<string, string> = {}) {
  stripe = await startStripeStandIn();
  h = await createOwnerHarness(
    {
      STRIPE_SECRET_KEY: STAND_IN_KEYS.secretKey,
      STRIPE_WEBHOOK_SECRET: STAND_IN_KEYS.webhookSecret,
      STRIPE_API_BASE: stripe.url,
      ...env,
    },
    clockMs ? { now: clockMs } : {},
  );
  const harness = h;
  stripe.deliver = (body, headers) =>
    harness.app.request(`${SITE}/api/webhooks/stripe`, { method: 'POST', body, headers });
  const listings = [];
  for (let i = 0; i < count; i++)
    listings.push(await seedServer(h.db, { guild_id: GUILDS[i]!, category: 'Gaming', invite_status: 'ok' }));
  const owner = await h.signInOwner(GUILDS.slice(0, count).map((g) => guild(g, { owner: true })));
  const plans = (await (
    await h.ownerCall(owner, 'GET', `/api/account/listings/${listings[0]!.id}/promote`)
  ).json()) as {
    plans: { id: number; name: string; placement: string; term_days: number; price_cents: number }[];
  };
  const week = plans.plans.find((p) => p.placement === 'sponsored' && p.term_days === 7)!;
  const month = plans.plans.find((p) => p.placement === 'sponsored' && p.term_days === 30)!;
  return { h, stripe, owner, listings, week, month };
}

/** Starts a checkout: answers the stand-in's session id. */
async function checkout(harness: Harness, owner: OwnerSession, listingId: number, planId: number) {
  const res = await harness.ownerCall(owner, 'POST', `/api/account/listings/${listingId}/checkout`, {
    plan_id: planId,
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { url: string; order_id: number };
  return { sessionId: body.url.split('/').pop()!, orderId: body.order_id, url: body.url };
}

/** Holds back the stand-in's webhook deliveries until the answered function is called (then each goes at once). */
function holdStripeEvents(standIn: StripeStandIn): () => void {
  const deliver = standIn.deliver!;
  let release = () => {};
  const gate = new Promise<void>((ok) => {
    release = ok;
  });
  standIn.deliver = async (body, headers) => {
    await gate;
    return deliver(body, headers);
  };
  return release;
}

/** Makes the refund's audit row fail (a trigger), as a crash between Stripe's refund and its record would. */
async function refuseRefundAudit(harness: Harness) {
  await harness.db.run(
    sql`CREATE TRIGGER refund_audit_refused BEFORE INSERT ON audit_log WHEN NEW.action = 'refund' BEGIN SELECT RAISE(ABORT, 'audit refused'); END`,
  );
}

/**
 * Delivers signed events at once, each to its own app instance with its own connection to the
 * database over HTTP (as Workers do): their reads and batches interleave for real, which the
 * in-process app's file client (one request to the end between awaits) would not. Answers the statuses.
 */
async function deliverAtOnce(harness: Harness, standIn: StripeStandIn, events: StandInEvent[]) {
  const libsql = await startLibsqlHttpServer({ file: harness.env.DATABASE_URL.replace(/^file:/, '') });
  try {
    const apps = events.map(() => createApp({ db: toDb(createClient({ url: libsql.url })), env: harness.env }));
    return await Promise.all(
      events.map(async (e, i) => {
        const body = JSON.stringify(e);
        const res = await apps[i]!.request(`${SITE}/api/webhooks/stripe`, {
          method: 'POST',
          body,
          headers: {
            'content-type': 'application/json',
            'stripe-signature': standIn.sign(body, Math.floor(Date.now() / 1000)),
          },
        });
        return res.status;
      }),
    );
  } finally {
    await libsql.stop();
  }
}

const orderRow = async (harness: Harness, id: number) =>
  (await harness.db.select().from(orders).where(eq(orders.id, id)))[0]!;
const mails = async (harness: Harness, kind: string) =>
  (await harness.db.select().from(mailOutbox)).filter((m) => m.kind === kind);
const netToday = async (harness: Harness) =>
  (await harness.db.select().from(dailyRevenue)).reduce((n, r) => n + r.net_cents, 0);

/** The plans the Promote panel offers for a listing. */
async function promotePlans(harness: Harness, owner: OwnerSession, listingId: number): Promise<{ id: number }[]> {
  const res = await harness.ownerCall(owner, 'GET', `/api/account/listings/${listingId}/promote`);
  return ((await res.json()) as { plans: { id: number }[] }).plans;
}

/** The Worker's hourly reconcile over the shop's database, served over HTTP as Turso is: `pass(at)` runs one invocation and answers its subrequests. */
async function workerReconcile(harness: Harness, standIn: StripeStandIn) {
  const libsql = await startLibsqlHttpServer({ file: harness.env.DATABASE_URL.replace(/^file:/, '') });
  const bindings = {
    ASSETS: { fetch: async () => new Response(null, { status: 404 }) },
    DATABASE_URL: libsql.url,
    SITE_URL: SITE,
    SESSION_SECRET: 'worker-reconcile-secret-0123456789abcdef',
    IP_HASH_SECRET: 'worker-reconcile-ip-secret-0123456789abc',
    STRIPE_SECRET_KEY: STAND_IN_KEYS.secretKey,
    STRIPE_WEBHOOK_SECRET: STAND_IN_KEYS.webhookSecret,
    STRIPE_API_BASE: standIn.url,
  };
  return { pass: (at: number) => scheduledSubrequests('17 * * * *', at, bindings), stop: () => libsql.stop() };
}

describe("the Worker's hourly reconcile", () => {
  it('asks Stripe about 5 open orders a pass, within the Free plan’s 50 subrequests, oldest first; the next pass takes the next', async () => {
    const { h, stripe, owner, listings } = await shop(4);
    const plans = await promotePlans(h, owner, listings[0]!.id);
    // Checkouts paid at Stripe whose webhooks never came: more than one pass takes.
    const ids: number[] = [];
    for (const listing of listings)
      for (const plan of plans) {
        const { sessionId, orderId } = await checkout(h, owner, listing.id, plan.id);
        await stripe.pay(sessionId, { deliver: false });
        ids.push(orderId);
      }
    expect(ids.length).toBeGreaterThan(2 * WORKER_RECONCILE_PER_PASS);
    const worker = await workerReconcile(h, stripe);
    const paid = async () => (await h.db.select().from(orders)).filter((o) => o.state === 'paid').map((o) => o.id);
    try {
      let at = Date.now();
      for (let pass = 1; pass * WORKER_RECONCILE_PER_PASS < ids.length + WORKER_RECONCILE_PER_PASS; pass++) {
        expect(await worker.pass(at)).toBeLessThanOrEqual(FREE_PLAN_SUBREQUESTS);
        expect((await paid()).sort((a, b) => a - b)).toEqual(ids.slice(0, pass * WORKER_RECONCILE_PER_PASS));
        at += 3_600_000;
      }
      expect(await mails(h, 'order_receipt')).toHaveLength(ids.length);
    } finally {
      await worker.stop();
    }
  }, 60_000);
  it('stays within the 50 subrequests when Stripe fails and then answers: the library does not retry in the pass, the next pass does', async () => {
    const { h, stripe, owner, listings } = await shop(2);
    const plans = await promotePlans(h, owner, listings[0]!.id);
    // A pass's worth of lost payments, each of whose retrieves fails twice before Stripe answers it paid.
    const ids: number[] = [];
    for (const listing of listings)
      for (const plan of plans) {
        if (ids.length === WORKER_RECONCILE_PER_PASS) break;
        const { sessionId, orderId } = await checkout(h, owner, listing.id, plan.id);
        await stripe.pay(sessionId, { deliver: false });
        stripe.failNext.set(sessionId, 2);
        ids.push(orderId);
      }
    expect(ids).toHaveLength(WORKER_RECONCILE_PER_PASS);
    const worker = await workerReconcile(h, stripe);
    const paid = async () => (await h.db.select().from(orders)).filter((o) => o.state === 'paid').length;
    try {
      let at = Date.now();
      for (let pass = 0; pass < 3; pass++) {
        expect(await worker.pass(at)).toBeLessThanOrEqual(FREE_PLAN_SUBREQUESTS);
        at += 3_600_000;
      }
      // Two passes met the failures, the third the answers.
      expect(await paid()).toBe(ids.length);
      expect(await mails(h, 'order_receipt')).toHaveLength(ids.length);
    } finally {
      await worker.stop();
    }
  }, 60_000);

  it('gives every open order its turn: orders Stripe cannot settle never keep a newer lost payment waiting, a session Stripe does not know closes once past its expiry, a paid order is left alone', async () => {
    const { h, stripe, owner, listings } = await shop(3);
    const plans = await promotePlans(h, owner, listings[0]!.id);
    const made: { sessionId: string; orderId: number }[] = [];
    for (const listing of listings) for (const plan of plans) made.push(await checkout(h, owner, listing.id, plan.id));
    expect(made).toHaveLength(9);
    const [open1, open2, delayed1, delayed2, missing, failing1, failing2, open3, lost] = made as [
      (typeof made)[number],
      ...(typeof made)[number][],
    ];
    // Eight orders Stripe cannot settle, oldest first: checkouts still open, delayed payments still
    // pending, a session Stripe does not know (made with another key or mode), retrieves that fail.
    await stripe.pay(delayed1!.sessionId, { delayed: true, deliver: false });
    await stripe.pay(delayed2!.sessionId, { delayed: true, deliver: false });
    stripe.sessions.delete(missing!.sessionId);
    stripe.failing.add(failing1!.sessionId);
    stripe.failing.add(failing2!.sessionId);
    // The newest was paid, and its webhook lost.
    await stripe.pay(lost!.sessionId, { deliver: false });
    const unsettled = [open1, open2, delayed1, delayed2, failing1, failing2, open3].map((o) => o!.orderId);

    const worker = await workerReconcile(h, stripe);
    const state = async (id: number) => (await orderRow(h, id)).state;
    try {
      let at = Date.now();
      const pass = async () => {
        expect(await worker.pass(at)).toBeLessThanOrEqual(FREE_PLAN_SUBREQUESTS);
        at += 3_600_000;
      };
      // Within its expiry a session Stripe does not know might still be paid (under the other key): kept open.
      await pass();
      expect(await state(missing!.orderId)).toBe('open');
      // Every order gets its turn: the lost payment is applied within as many passes as it takes to ask each once.
      const bound = Math.ceil(made.length / WORKER_RECONCILE_PER_PASS);
      for (let n = 1; n < bound && (await state(lost!.orderId)) !== 'paid'; n++) await pass();
      expect(await state(lost!.orderId)).toBe('paid');
      expect(await mails(h, 'order_receipt')).toHaveLength(1);
      // The paid order is left alone from here, even once Stripe no longer knows its session.
      const paid = await orderRow(h, lost!.orderId);
      stripe.sessions.delete(lost!.sessionId);
      // Past its expiry the unknown session's order closes as expired; the others stay open, asked in turn.
      for (let n = 0; n < bound && (await state(missing!.orderId)) !== 'expired'; n++) await pass();
      expect(await state(missing!.orderId)).toBe('expired');
      expect((await orderRow(h, missing!.orderId)).paid_at).toBeNull();
      for (const id of unsettled) expect(await state(id)).toBe('open');
      expect(await orderRow(h, lost!.orderId)).toEqual(paid);
      expect(await netToday(h)).toBe(paid.amount_cents);
    } finally {
      await worker.stop();
    }
  }, 60_000);
});

describe('buying a placement', () => {
  it('activates on the paid webhook: the listing is Sponsored until the end of the term, a receipt is queued, revenue counts it', async () => {
    const { h, stripe, owner, listings, week } = await shop();
    const { sessionId, orderId } = await checkout(h, owner, listings[0]!.id, week.id);
    expect(stripe.sessions.get(sessionId)!.amount_total).toBe(week.price_cents);
    await stripe.pay(sessionId);
    expect(stripe.events.at(-1)!.status).toBe(200);
    const order = await orderRow(h, orderId);
    expect(order.state).toBe('paid');
    expect(Date.parse(order.ends_at!) - Date.parse(order.starts_at!)).toBe(7 * 86_400_000);
    const listing = await getServerById(h.db, listings[0]!.id);
    expect(listing?.is_sponsored).toBe(true);
    expect(listing?.placement_ends_at).toBe(order.ends_at);
    expect(listing?.placement_kind).toBe('checkout');
    const receipts = await mails(h, 'order_receipt');
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.to_address).toBe('payer@example.com');
    expect(receipts[0]!.text_body).toContain('$49.00');
    expect(await netToday(h)).toBe(week.price_cents);
    expect(await h.db.select().from(premiumServerRevenue)).toEqual([
      {
        server_id: listing!.id,
        currency: 'usd',
        total_cents: week.price_cents,
        daily_cents: Math.round(week.price_cents / 30),
      },
    ]);
    expect(h.rebuild.reasons.some((r) => r.includes(listing!.slug))).toBe(true);
  });

  it('activates a checkout paid with Stripe Tax on top of the price, and counts the price, not the tax, in revenue and its refund', async () => {
    const { h, stripe, owner, listings, week } = await shop(1, undefined, { STRIPE_AUTOMATIC_TAX: 'true' });
    const { sessionId, orderId } = await checkout(h, owner, listings[0]!.id, week.id);
    await stripe.pay(sessionId);
    const session = stripe.sessions.get(sessionId)!;
    expect(session.automatic_tax.enabled).toBe(true);
    expect(session.amount_total).toBe(week.price_cents + Math.round(week.price_cents * TAX_RATE));
    expect(stripe.events.at(-1)!.status).toBe(200);
    expect((await orderRow(h, orderId)).state).toBe('paid');
    expect((await getServerById(h.db, listings[0]!.id))?.is_sponsored).toBe(true);
    expect(await netToday(h)).toBe(week.price_cents);
    // The refund gives the payer back the tax too; revenue drops by the price it counted.
    expect((await h.ownerCall(owner, 'POST', `/api/account/orders/${orderId}/refund`, {})).status).toBe(200);
    expect((await orderRow(h, orderId)).state).toBe('refunded');
    expect(await netToday(h)).toBe(0);
  });

  it('applies the same event twice once: one activation, one receipt, the replay answered 200', async () => {
    const { h, stripe, owner, listings, week } = await shop();
    const { sessionId, orderId } = await checkout(h, owner, listings[0]!.id, week.id);
    const [event] = await stripe.pay(sessionId);
    const first = await orderRow(h, orderId);
    expect(await stripe.send(event!)).toBe(200);
    const again = await orderRow(h, orderId);
    expect(again.version).toBe(first.version);
    expect(again.starts_at).toBe(first.starts_at);
    expect(await mails(h, 'order_receipt')).toHaveLength(1);
    expect((await h.db.select().from(stripeEvents)).filter((e) => e.id === event!.id)).toHaveLength(1);
  });

  it('refuses a bad signature or an event older than 300 s with 400, and changes nothing', async () => {
    const { h, stripe, owner, listings, week } = await shop();
    const { sessionId, orderId } = await checkout(h, owner, listings[0]!.id, week.id);
    const [event] = await stripe.pay(sessionId, { deliver: false });
    expect(await stripe.send(event!, { secret: 'whsec_someone_else_entirely_0123456789' })).toBe(400);
    expect(await stripe.send(event!, { timestamp: Math.floor(Date.now() / 1000) - 301 })).toBe(400);
    const body = JSON.stringify(event);
    const tampered = await h.app.request(`${SITE}/api/webhooks/stripe`, {
      method: 'POST',
      body: body.replace('"paid"', '"unpaid"'),
      headers: {
        'content-type': 'application/json',
        'stripe-signature': stripe.sign(body, Math.floor(Date.now() / 1000)),
      },
    });
    expect(tampered.status).toBe(400);
    expect(((await tampered.json()) as { error: { code: string } }).error.code).toBe('signature_invalid');
    const unsigned = await h.app.request(`${SITE}/api/webhooks/stripe`, { method: 'POST', body });
    expect(unsigned.status).toBe(400);
    expect((await orderRow(h, orderId)).state).toBe('open');
    expect(await h.db.select().from(stripeEvents)).toHaveLength(0);
    expect((await getServerById(h.db, listings[0]!.id))?.is_sponsored).toBe(false);
    // Within the tolerance it is taken.
    expect(await stripe.send(event!, { timestamp: Math.floor(Date.now() / 1000) - 250 })).toBe(200);
    expect((await orderRow(h, orderId)).state).toBe('paid');
  });

  it('opens one checkout for a double click: the second click, while Stripe answers the first, gets the same page, and the payment finds its order', async () => {
    let now = Date.now();
    const { h, stripe, owner, listings, week } = await shop(1, () => now);
    const path = `/api/account/listings/${listings[0]!.id}/checkout`;
    // The first click's session is made at Stripe; its answer is slow to come back.
    const held = stripe.holdNextCreate();
    const first = h.ownerCall(owner, 'POST', path, { plan_id: week.id });
    await held.arrived;
    // The second click, two seconds on.
    now += 2_000;
    const second = await h.ownerCall(owner, 'POST', path, { plan_id: week.id });
    held.release();
    const answers = [await first, second];
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    const [a, b] = (await Promise.all(answers.map((r) => r.json()))) as { url: string; order_id: number }[];
    expect(b).toEqual(a);
    expect(stripe.sessions.size).toBe(1);
    const [order, ...more] = await h.db.select().from(orders);
    expect(more).toEqual([]);
    expect(order?.stripe_session_id).toBe(a!.url.split('/').pop());
    await stripe.pay(order!.stripe_session_id!);
    expect((await orderRow(h, order!.id)).state).toBe('paid');
  });

  it('offers the way back to a checkout only while Stripe still takes payment on it', async () => {
    let now = Date.now();
    const { h, owner, listings, week } = await shop(1, () => now);
    const { orderId, url } = await checkout(h, owner, listings[0]!.id, week.id);
    const listed = async () =>
      (
        (await (await h.ownerCall(owner, 'GET', '/api/account/orders')).json()) as {
          orders: { id: number; state: string; checkout_url: string | null }[];
        }
      ).orders.find((o) => o.id === orderId);
    expect(await listed()).toMatchObject({ state: 'open', checkout_url: url });
    // Past the session's expiry, before Stripe's checkout.session.expired (or the reconcile job) has closed it.
    now = Date.parse((await orderRow(h, orderId)).checkout_expires_at!) + 1000;
    expect(await listed()).toMatchObject({ state: 'open', checkout_url: null });
  });

  it('shows the console a delayed payment still pending: the completed-unpaid event under its open order', async () => {
    const { h, stripe, owner, listings, week } = await shop();
    const { sessionId, orderId } = await checkout(h, owner, listings[0]!.id, week.id);
    await stripe.pay(sessionId, { delayed: true });
    expect(stripe.events.at(-1)!.status).toBe(200);
    const admin = await h.signIn('admin');
    const list = (await (await h.call(admin, 'GET', '/api/admin/orders')).json()) as {
      orders: { id: number; state: string; events: { type: string; outcome: string | null }[] }[];
    };
    expect(list.orders.find((o) => o.id === orderId)).toMatchObject({
      state: 'open',
      events: [{ type: 'checkout.session.completed', outcome: null }],
    });
    expect(await mails(h, 'order_receipt')).toHaveLength(0);
  });

  it('tells the owner back from Stripe (/account/paid) what is true of the checkout: received, processing, failed or not paid, and only theirs', async () => {
    const { h, stripe, owner, listings } = await shop(2);
    const [a, b] = (await h.db.select().from(plans)).map((p) => p.id) as [number, number];
    const outcome = async (session: string, who = owner) => {
      const res = await h.ownerCall(who, 'GET', `/api/account/checkouts/${session}`);
      return res.status === 200 ? ((await res.json()) as { outcome: string }).outcome : res.status;
    };
    const card = await checkout(h, owner, listings[0]!.id, a);
    const debit = await checkout(h, owner, listings[0]!.id, b);
    const unpaid = await checkout(h, owner, listings[1]!.id, a);
    await stripe.pay(card.sessionId);
    await stripe.pay(debit.sessionId, { delayed: true });
    expect(await outcome(card.sessionId)).toBe('placed');
    // A bank debit still clearing: its checkout is complete, and nothing is paid yet.
    expect(await outcome(debit.sessionId)).toBe('processing');
    expect(await outcome(unpaid.sessionId)).toBe('not_paid');
    await stripe.failDelayed(debit.sessionId);
    expect(await outcome(debit.sessionId)).toBe('failed');
    // Another owner's checkout, or none, is not found.
    const other = await h.signInOwner([guild(GUILDS[2]!, { owner: true })], {
      id: '412000000000000099',
      username: 'someone_else',
    });
    expect(await outcome(card.sessionId, other)).toBe(404);
    expect(await outcome('cs_test_nothing')).toBe(404);
  });

  it('asks Stripe about an open checkout at most as often as the checkout status limit lets one client', async () => {
    const { h, stripe, owner, listings, week } = await shop(1, undefined, { RATE_LIMITS: 'true' });
    const { sessionId } = await checkout(h, owner, listings[0]!.id, week.id);
    const ask = () => h.ownerCall(owner, 'GET', `/api/account/checkouts/${sessionId}`);
    for (let i = 0; i < RATE_LIMITS.checkoutStatus.limit; i++) expect((await ask()).status).toBe(200);
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Each answer for the open order read Stripe's session once; the refused one read nothing.
    expect(stripe.retrieved.filter((s) => s === sessionId)).toHaveLength(RATE_LIMITS.checkoutStatus.limit);
  });

  it('does nothing on an expired checkout but close it; a new Promote then opens a new checkout', async () => {
    const { h, stripe, owner, listings, week } = await shop();
    const { sessionId, orderId } = await checkout(h, owner, listings[0]!.id, week.id);
    // One open checkout per listing and plan: a second Promote gets the same page.
    const again = await checkout(h, owner, listings[0]!.id, week.id);
    expect(again.sessionId).toBe(sessionId);
    await stripe.expire(sessionId);
    const order = await orderRow(h, orderId);
    expect(order.state).toBe('expired');
    expect(order.paid_at).toBeNull();
    expect((await getServerById(h.db, listings[0]!.id))?.is_sponsored).toBe(false);
    expect(await netToday(h)).toBe(0);
    expect(await mails(h, 'order_receipt')).toHaveLength(0);
    const fresh = await checkout(h, owner, listings[0]!.id, week.id);
    expect(fresh.sessionId).not.toBe(sessionId);
  });

  it('refunds at the owner’s request: the slot ends at once, revenue drops, a mail goes out, the label is gone', async () => {
    const { h, stripe, owner, listings, week } = await shop();
    const { sessionId, orderId } = await checkout(h, owner, listings[0]!.id, week.id);
    await stripe.pay(sessionId);
    expect(await netToday(h)).toBe(week.price_cents);
    const listed = (await (await h.ownerCall(owner, 'GET', '/api/account/orders')).json()) as {
      orders: { id: number; refundable: boolean }[];
    };
    expect(listed.orders.find((o) => o.id === orderId)?.refundable).toBe(true);
    const res = await h.ownerCall(owner, 'POST', `/api/account/orders/${orderId}/refund`, {
      reason: 'Changed my mind',
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { order: { state: string } }).order.state).toBe('refunded');
    const order = await orderRow(h, orderId);
    expect(order.state).toBe('refunded');
    expect(order.refunded_cents).toBe(week.price_cents);
    expect(Date.parse(order.ends_at!)).toBeLessThanOrEqual(Date.now());
    expect((await getServerById(h.db, listings[0]!.id))?.is_sponsored).toBe(false);
    expect(await netToday(h)).toBe(0);
    expect(await mails(h, 'order_refunded')).toHaveLength(1);
    // Stripe's own charge.refunded follows: recorded, nothing changes, no second mail.
    await stripe.settled();
    expect(stripe.events.at(-1)!.event.type).toBe('charge.refunded');
    expect(stripe.events.at(-1)!.status).toBe(200);
    expect((await orderRow(h, orderId)).refunded_cents).toBe(week.price_cents);
    expect(await mails(h, 'order_refunded')).toHaveLength(1);
    // A second refund is refused.
    expect((await h.ownerCall(owner, 'POST', `/api/account/orders/${orderId}/refund`, {})).status).toBe(409);
  });

  it('keeps the 30-day money-back promise after a short placement has ended, and refuses it from day 31, naming why', async () => {
    let now = Date.now();
    const { h, stripe, owner, listings, week } = await shop(2, () => now);
    const bought: number[] = [];
    for (const listing of listings) {
      const { sessionId, orderId } = await checkout(h, owner, listing.id, week.id);
      await stripe.pay(sessionId);
      bought.push(orderId);
    }
    const [early, late] = bought as [number, number];
    const paidAt = Date.parse((await orderRow(h, early)).paid_at!);
    // The week is over: the clock ends both placements.
    now = Date.parse((await orderRow(h, late)).ends_at!);
    expect((await clock({ db: h.db, env: h.env, rebuild: h.rebuild }, now)).ended).toBe(2);
    // Day 10: still within 30 days of payment, so My listings offers the refund and it goes through.
    now = paidAt + 10 * DAY_MS;
    const back = await h.signInOwner(GUILDS.slice(0, 2).map((g) => guild(g, { owner: true })));
    const listed = (await (await h.ownerCall(back, 'GET', '/api/account/orders')).json()) as {
      orders: { id: number; state: string; refundable: boolean }[];
    };
    expect(listed.orders.filter((o) => bought.includes(o.id))).toMatchObject([
      { state: 'ended', refundable: true },
      { state: 'ended', refundable: true },
    ]);
    const res = await h.ownerCall(back, 'POST', `/api/account/orders/${early}/refund`, {});
    expect(res.status).toBe(200);
    expect((await orderRow(h, early)).state).toBe('refunded');
    expect(await mails(h, 'order_refunded')).toHaveLength(1);
    // Day 31: over, and the answer says so.
    now = paidAt + 31 * DAY_MS;
    const last = await h.signInOwner(GUILDS.slice(0, 2).map((g) => guild(g, { owner: true })));
    const over = await h.ownerCall(last, 'POST', `/api/account/orders/${late}/refund`, {});
    expect(over.status).toBe(409);
    expect(((await over.json()) as { error: { code: string } }).error.code).toBe('refund_window_over');
    expect((await orderRow(h, late)).state).toBe('ended');
  });

  it('keeps a placement running through partial refunds made in Stripe’s dashboard, adds them up, nets each on its own day once, and ends it on the full refund', async () => {
    let now = Date.now();
    const { h, stripe, owner, listings, week } = await shop(1, () => now);
    const { sessionId, orderId } = await checkout(h, owner, listings[0]!.id, week.id);
    await stripe.pay(sessionId);
    const byDay = async () =>
      Object.fromEntries((await h.db.select().from(dailyRevenue)).map((d) => [d.day, d.refunded_cents]));
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    // A goodwill refund of $10, and the next day $5 more: the placement runs on.
    const first = await stripe.refundFromDashboard(sessionId, { amount: 1000 });
    const day1 = now;
    expect(await orderRow(h, orderId)).toMatchObject({ state: 'paid', refunded_cents: 1000 });
    expect((await getServerById(h.db, listings[0]!.id))?.is_sponsored).toBe(true);
    now += DAY_MS;
    // Signed on the site's clock (the webhook's 300 s tolerance).
    const second = await stripe.refundFromDashboard(sessionId, { amount: 500, deliver: false });
    expect(await stripe.send(second, { timestamp: Math.floor(now / 1000) })).toBe(200);
    expect(await orderRow(h, orderId)).toMatchObject({ state: 'paid', refunded_cents: 1500 });
    expect((await getServerById(h.db, listings[0]!.id))?.is_sponsored).toBe(true);
    // The first event again (a redelivery) counts nothing twice.
    expect(await stripe.send(first, { timestamp: Math.floor(now / 1000) })).toBe(200);
    expect((await orderRow(h, orderId)).refunded_cents).toBe(1500);
    expect(await byDay()).toMatchObject({ [day(day1)]: 1000, [day(now)]: 500 });
    expect(await mails(h, 'order_refunded')).toHaveLength(0);
    // The owner refunds the rest (signed in again a day on): the placement ends, all of the price is out, the rest on its day.
    const back = await h.signInOwner([guild(GUILDS[0]!, { owner: true })]);
    expect((await h.ownerCall(back, 'POST', `/api/account/orders/${orderId}/refund`, {})).status).toBe(200);
    await stripe.settled();
    expect(await orderRow(h, orderId)).toMatchObject({ state: 'refunded', refunded_cents: week.price_cents });
    expect((await getServerById(h.db, listings[0]!.id))?.is_sponsored).toBe(false);
    expect(await byDay()).toMatchObject({ [day(day1)]: 1000, [day(now)]: week.price_cents - 1000 });
    const all = await h.db.select().from(dailyRevenue);
    expect(all.reduce((n, d) => n + d.net_cents, 0)).toBe(0);
  });

  it('mails the owner each partial refund (what it gave back, the total so far, the placement running on) and, after them, the rest without claiming the whole price came back now', async () => {
    const { h, stripe, owner, listings, week } = await shop();
    const { sessionId, orderId } = await checkout(h, owner, listings[0]!.id, week.id);
    await stripe.pay(sessionId);
    const until = (await orderRow(h, orderId)).ends_at!.slice(0, 10);
    const first = await stripe.refundFromDashboard(sessionId, { amount: 1000 });
    await stripe.refundFromDashboard(sessionId, { amount: 500 });
    // The first step delivered again mails nothing again.
    expect(await stripe.send(first)).toBe(200);
    const steps = await mails(h, 'order_partially_refunded');
    expect(steps.map((m) => m.to_address)).toEqual(['payer@example.com', 'payer@example.com']);
    expect(steps[0]!.text_body).toContain('We refunded $10.00 of the $49.00');
    expect(steps[0]!.text_body).toContain(`runs on until ${until}`);
    expect(steps[1]!.text_body).toContain('We refunded $5.00 of the $49.00');
    expect(steps[1]!.text_body).toContain('$15.00 of $49.00 refunded so far');
    expect(await mails(h, 'order_refunded')).toHaveLength(0);
    // The owner refunds the rest: $34.00 now, $49.00 in all; the placement ends.
    expect((await h.ownerCall(owner, 'POST', `/api/account/orders/${orderId}/refund`, {})).status).toBe(200);
    await stripe.settled();
    const last = await mails(h, 'order_refunded');
    expect(last).toHaveLength(1);
    expect(last[0]!.text_body).toContain('We refunded the remaining $34.00');
    expect(last[0]!.text_body).toContain('$49.00 of $49.00 refunded in all');
    expect(last[0]!.text_body).not.toContain('We refunded $49.00');
    expect(last[0]!.text_body).toContain('The placement has ended');
    expect(await mails(h, 'order_partially_refunded')).toHaveLength(2);
  });

  it('lists a partially refunded order to its owner with how much of its price came back', async () => {
    const { h, stripe, owner, listings, week } = await shop();
    const { sessionId, orderId } = await checkout(h, owner, listings[0]!.id, week.id);
    await stripe.pay(sessionId);
    const listed = async () =>
      (
        (await (await h.ownerCall(owner, 'GET', '/api/account/orders')).json()) as {
          orders: { id: number; state: string; refunded_part: string | null }[];
        }
      ).orders.find((o) => o.id === orderId);
    expect(await listed()).toMatchObject({ state: 'paid', refunded_part: null });
    await stripe.refundFromDashboard(sessionId, { amount: 500 });
    expect(await listed()).toMatchObject({ state: 'paid', refunded_part: '$5.00 of $49.00 refunded' });
    // All of it back: the state says so.
    await stripe.refundFromDashboard(sessionId);
    expect(await listed()).toMatchObject({ state: 'refunded', refunded_part: null });
  });

  it('says Stripe refused a refund (not that it did not answer) when the charge was already refunded in the dashboard', async () => {
    const { h, stripe, owner, listings, week } = await shop();
    const { sessionId, orderId } = await checkout(h, owner, listings[0]!.id, week.id);
    await stripe.pay(sessionId);
    // Refunded in Stripe's dashboard; its charge.refunded has not reached the site yet.
    const refunded = await stripe.refundFromDashboard(sessionId, { deliver: false });
    const res = await h.ownerCall(owner, 'POST', `/api/account/orders/${orderId}/refund`, {});
    expect(res.status).toBe(409);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('refund_refused');
    expect(body.error.message).toMatch(/already been refunded/);
    // The event, once it comes, closes the order.
    expect(await stripe.send(refunded)).toBe(200);
    expect((await orderRow(h, orderId)).state).toBe('refunded');
  });

  it('ends in refunded when charge.refunded arrives before checkout.session.completed', async () => {
    const { h, stripe, owner, listings, week } = await shop();
    const { sessionId, orderId } = await checkout(h, owner, listings[0]!.id, week.id);
    const [completed] = await stripe.pay(sessionId, { deliver: false });
    await stripe.refundFromDashboard(sessionId);
    expect(stripe.events.at(-1)!.status).toBe(200);
    expect((await orderRow(h, orderId)).state).toBe('refunded');
    expect(await stripe.send(completed!)).toBe(200);
    const order = await orderRow(h, orderId);
    expect(order.state).toBe('refunded');
    expect((await getServerById(h.db, listings[0]!.id))?.is_sponsored).toBe(false);
    expect(await netToday(h)).toBe(0);
  });

  it('suspends the placement on a dispute', async () => {
    const { h, stripe, owner, listings, week } = await shop();
    const { sessionId, orderId } = await checkout(h, owner, listings[0]!.id, week.id);
    await stripe.pay(sessionId);
    await stripe.dispute(sessionId);
    expect((await orderRow(h, orderId)).state).toBe('disputed');
    expect((await getServerById(h.db, listings[0]!.id))?.is_sponsored).toBe(false);
  });

  it('takes a lost dispute’s money out of revenue (no charge.refunded comes for it); a won one leaves revenue and the suspension', async () => {
    const { h, stripe, owner, listings, week } = await shop(2);
    const bought: { sessionId: string; orderId: number }[] = [];
    for (const listing of listings) {
      const c = await checkout(h, owner, listing.id, week.id);
      await stripe.pay(c.sessionId);
      await stripe.dispute(c.sessionId);
      bought.push(c);
    }
    expect(await netToday(h)).toBe(2 * week.price_cents);
    await stripe.closeDispute(bought[0]!.sessionId, 'lost');
    await stripe.closeDispute(bought[1]!.sessionId, 'won');
    expect(stripe.events.slice(-2).map((e) => e.status)).toEqual([200, 200]);
    const [lostOrder, wonOrder] = [await orderRow(h, bought[0]!.orderId), await orderRow(h, bought[1]!.orderId)];
    expect(lostOrder).toMatchObject({ state: 'refunded', refunded_cents: week.price_cents });
    expect(wonOrder).toMatchObject({ state: 'disputed', refunded_cents: 0 });
    expect(await netToday(h)).toBe(week.price_cents);
    // The payer gets no refund mail for a chargeback: the bank gave the money back, not the site.
    expect(await mails(h, 'order_refunded')).toHaveLength(0);
    for (const l of listings) expect((await getServerById(h.db, l.id))?.is_sponsored).toBe(false);
  });

  it('recovers a lost webhook with the reconcile job', async () => {
    const { h, stripe, owner, listings, week } = await shop();
    const { sessionId, orderId } = await checkout(h, owner, listings[0]!.id, week.id);
    await stripe.pay(sessionId, { deliver: false });
    expect((await orderRow(h, orderId)).state).toBe('open');
    expect(await reconcile({ db: h.db, env: h.env, rebuild: h.rebuild }, Date.now())).toBe(1);
    expect((await orderRow(h, orderId)).state).toBe('paid');
    expect((await getServerById(h.db, listings[0]!.id))?.is_sponsored).toBe(true);
    // The webhook arriving late, and a second run, change nothing.
    expect(await stripe.send(stripe.events.at(-1)!.event)).toBe(200);
    expect(await reconcile({ db: h.db, env: h.env, rebuild: h.rebuild }, Date.now())).toBe(0);
    expect(await mails(h, 'order_receipt')).toHaveLength(1);
  });

  it('closes an order whose delayed payment failed when the async_payment_failed webhook was lost, through the order machine, once; one still clearing stays open', async () => {
    const { h, stripe, owner, listings, week } = await shop();
    const { sessionId, orderId } = await checkout(h, owner, listings[0]!.id, week.id);
    const other = await checkout(
      h,
      owner,
      listings[0]!.id,
      (await h.db.select().from(plans)).find((p) => p.id !== week.id)!.id,
    );
    // Both paid by bank debit (the completed-unpaid webhooks arrive); one debit comes back, its webhook lost.
    await stripe.pay(sessionId, { delayed: true });
    await stripe.pay(other.sessionId, { delayed: true });
    const lost = await stripe.failDelayed(sessionId, { deliver: false });
    const deps = { db: h.db, env: h.env, rebuild: h.rebuild };
    expect(await reconcile(deps, Date.now())).toBe(1);
    expect((await orderRow(h, orderId)).state).toBe('failed');
    expect((await orderRow(h, orderId)).paid_at).toBeNull();
    expect((await orderRow(h, other.orderId)).state).toBe('open');
    const events = await h.db.select().from(stripeEvents).where(eq(stripeEvents.order_id, orderId));
    expect(events.map((e) => [e.id, e.outcome])).toContainEqual([`reconcile:${sessionId}:payment_failed`, 'failed']);
    // No longer asked, and no longer keeping its listing; the webhook arriving late changes nothing.
    expect(await stripe.send(lost)).toBe(200);
    expect((await orderRow(h, orderId)).state).toBe('failed');
    expect(await reconcile(deps, Date.now())).toBe(0);
    expect(await mails(h, 'order_receipt')).toHaveLength(0);
    expect((await getServerById(h.db, listings[0]!.id))?.is_sponsored).toBe(false);
  });

  it('schedules a fourth sponsored purchase in a full category when the first slot frees, and the clock starts and ends it', async () => {
    let now = Date.now();
    const { h, stripe, owner, listings, week } = await shop(4, () => now);
    const ids: number[] = [];
    for (const listing of listings.slice(0, 3)) {
      const { sessionId, orderId } = await checkout(h, owner, listing.id, week.id);
      await stripe.pay(sessionId);
      ids.push(orderId);
      now += 60_000;
    }
    const promote = (await (
      await h.ownerCall(owner, 'GET', `/api/account/listings/${listings[3]!.id}/promote`)
    ).json()) as {
      plans: { id: number; starts_at: string | null }[];
    };
    const first = await orderRow(h, ids[0]!);
    expect(promote.plans.find((p) => p.id === week.id)?.starts_at).toBe(first.ends_at);
    const fourth = await checkout(h, owner, listings[3]!.id, week.id);
    await stripe.pay(fourth.sessionId);
    const scheduled = await orderRow(h, fourth.orderId);
    expect(scheduled.state).toBe('paid');
    expect(scheduled.starts_at).toBe(first.ends_at);
    expect((await getServerById(h.db, listings[3]!.id))?.is_sponsored).toBe(false);
    // At the first slot's end the clock ends it and starts the scheduled one, with no operator.
    now = Date.parse(first.ends_at!);
    const tick = await clock({ db: h.db, env: h.env, rebuild: h.rebuild }, now);
    expect(tick.ended).toBe(1);
    expect((await orderRow(h, ids[0]!)).state).toBe('ended');
    expect((await getServerById(h.db, listings[0]!.id))?.is_sponsored).toBe(false);
    expect((await getServerById(h.db, listings[3]!.id))?.is_sponsored).toBe(true);
    expect(await mails(h, 'placement_ended')).toHaveLength(1);
  });

  it('never sells a category’s last sponsored slot twice: four payments arriving at once start three and schedule one', async () => {
    const { h, stripe, owner, listings, week } = await shop(4);
    const paid: Awaited<ReturnType<typeof stripe.pay>> = [];
    for (const listing of listings) {
      const { sessionId } = await checkout(h, owner, listing.id, week.id);
      paid.push(...(await stripe.pay(sessionId, { deliver: false })));
    }
    // Four deliveries at once, each to its own instance with its own connection to the database
    // (as on Workers): their reads and batches interleave for real.
    expect(await deliverAtOnce(h, stripe, paid)).toEqual([200, 200, 200, 200]);
    const rows = (await h.db.select().from(orders)).filter((o) => o.state === 'paid');
    expect(rows).toHaveLength(4);
    const starts = rows.map((o) => Date.parse(o.starts_at!)).sort((a, b) => a - b);
    const firstEnd = Math.min(...rows.map((o) => Date.parse(o.ends_at!)));
    // Three run now; the fourth waits for the first slot to free.
    expect(starts[3]).toBe(firstEnd);
    expect(starts[2]).toBeLessThan(firstEnd);
    const sponsored = await h.db.select().from(discordServers).where(eq(discordServers.is_sponsored, true));
    expect(sponsored).toHaveLength(3);
  });

  it('never sells a listing the same days twice: a second sponsored term, bought while one runs or paid at the same moment, follows it', async () => {
    // Room for every term in the category: only the listing's own terms decide when each starts.
    const { h, stripe, owner, listings } = await shop(2, undefined, { SPONSORED_SLOTS_PER_CATEGORY: '10' });
    const { plans } = (await (
      await h.ownerCall(owner, 'GET', `/api/account/listings/${listings[0]!.id}/promote`)
    ).json()) as { plans: { id: number; placement: string; term_days: number }[] };
    const week = plans.find((p) => p.placement === 'sponsored' && p.term_days === 7)!;
    const month = plans.find((p) => p.placement === 'sponsored' && p.term_days === 30)!;
    const premium = plans.find((p) => p.placement === 'premium')!;
    // Bought one after the other: the month starts when the week ends, and Promote says so first.
    const first = await checkout(h, owner, listings[0]!.id, week.id);
    await stripe.pay(first.sessionId);
    const weekEnd = (await orderRow(h, first.orderId)).ends_at!;
    const offer = (await (
      await h.ownerCall(owner, 'GET', `/api/account/listings/${listings[0]!.id}/promote`)
    ).json()) as { plans: { id: number; starts_at: string | null; waits_for: string | null }[] };
    expect(offer.plans.find((p) => p.id === month.id)).toMatchObject({ starts_at: weekEnd, waits_for: 'own' });
    expect(offer.plans.find((p) => p.id === premium.id)).toMatchObject({ starts_at: null, waits_for: null });
    const second = await checkout(h, owner, listings[0]!.id, month.id);
    await stripe.pay(second.sessionId);
    expect((await orderRow(h, second.orderId)).starts_at).toBe(weekEnd);
    // A premium term is another placement: it runs alongside.
    const third = await checkout(h, owner, listings[0]!.id, premium.id);
    await stripe.pay(third.sessionId);
    expect(Date.parse((await orderRow(h, third.orderId)).starts_at!)).toBeLessThan(Date.parse(weekEnd));
    // Two terms of the other listing paid at the same moment (two tabs): one follows the other.
    const both = [];
    for (const plan of [week, month]) {
      const c = await checkout(h, owner, listings[1]!.id, plan.id);
      both.push({ ...c, event: (await stripe.pay(c.sessionId, { deliver: false }))[0]! });
    }
    expect(
      await deliverAtOnce(
        h,
        stripe,
        both.map((b) => b.event),
      ),
    ).toEqual([200, 200]);
    const [a, b] = await Promise.all(both.map((c) => orderRow(h, c.orderId)));
    expect([a!.state, b!.state]).toEqual(['paid', 'paid']);
    const [earlier, later] = [a!, b!].sort((x, y) => Date.parse(x.starts_at!) - Date.parse(y.starts_at!));
    expect(later!.starts_at).toBe(earlier!.ends_at);
  });

  it('shows the owner a follow-on term’s own dates from its payment on: /account/paid before and after Stripe’s event, the order list, the receipt and Promote', async () => {
    const { h, stripe, owner, listings, week } = await shop();
    const { plans } = (await (
      await h.ownerCall(owner, 'GET', `/api/account/listings/${listings[0]!.id}/promote`)
    ).json()) as {
      plans: { id: number; placement: string; term_days: number }[];
    };
    const month = plans.find((p) => p.placement === 'sponsored' && p.term_days === 30)!;
    const first = await checkout(h, owner, listings[0]!.id, week.id);
    await stripe.pay(first.sessionId);
    const weekEnd = (await orderRow(h, first.orderId)).ends_at!;
    const monthEnd = new Date(Date.parse(weekEnd) + 30 * DAY_MS).toISOString();
    const second = await checkout(h, owner, listings[0]!.id, month.id);
    const paid = async () =>
      (await (await h.ownerCall(owner, 'GET', `/api/account/checkouts/${second.sessionId}`)).json()) as {
        outcome: string;
        starts_at: string | null;
        ends_at: string | null;
      };
    // Paid at Stripe, its event not here yet: the page must not say it starts within a minute.
    const [event] = await stripe.pay(second.sessionId, { deliver: false });
    expect(await paid()).toMatchObject({ outcome: 'confirming', starts_at: weekEnd, ends_at: monthEnd });
    expect(await stripe.send(event!)).toBe(200);
    expect(await paid()).toMatchObject({ outcome: 'scheduled', starts_at: weekEnd, ends_at: monthEnd });
    const listed = (await (await h.ownerCall(owner, 'GET', '/api/account/orders')).json()) as {
      orders: { id: number; starts_at: string; ends_at: string }[];
    };
    expect(listed.orders.find((o) => o.id === second.orderId)).toMatchObject({ starts_at: weekEnd, ends_at: monthEnd });
    const receipt = (await mails(h, 'order_receipt')).at(-1)!;
    expect(receipt.text_body).toContain(`Runs from ${weekEnd.slice(0, 10)} (UTC) until ${monthEnd.slice(0, 10)} (UTC)`);
    const offer = (await (
      await h.ownerCall(owner, 'GET', `/api/account/listings/${listings[0]!.id}/promote`)
    ).json()) as {
      plans: { id: number; starts_at: string | null; waits_for: string | null }[];
    };
    expect(offer.plans.find((p) => p.id === week.id)).toMatchObject({ starts_at: monthEnd, waits_for: 'own' });
  });

  it('mails the refund of a booked term that never started as cancelled (it will not run), not as a placement that ended', async () => {
    const { h, stripe, owner, listings, week, month } = await shop();
    const first = await checkout(h, owner, listings[0]!.id, week.id);
    await stripe.pay(first.sessionId);
    const second = await checkout(h, owner, listings[0]!.id, month.id);
    await stripe.pay(second.sessionId);
    const booked = await orderRow(h, second.orderId);
    expect(Date.parse(booked.starts_at!)).toBeGreaterThan(Date.now());
    expect((await h.ownerCall(owner, 'POST', `/api/account/orders/${second.orderId}/refund`, {})).status).toBe(200);
    const [mail] = await mails(h, 'order_refunded');
    expect(mail!.text_body).toContain(`We refunded $${(month.price_cents / 100).toFixed(2)}`);
    expect(mail!.text_body).toContain(
      `The term booked from ${booked.starts_at!.slice(0, 10)} (UTC) until ${booked.ends_at!.slice(0, 10)} (UTC) is cancelled and will not run.`,
    );
    expect(mail!.text_body).not.toContain('has ended');
    // The running term goes on.
    expect((await orderRow(h, first.orderId)).state).toBe('paid');
    expect((await getServerById(h.db, listings[0]!.id))?.is_sponsored).toBe(true);
  });

  it('starts the booked next term at once when the running one is refunded (the listing keeps its placement) and the refund mail says so', async () => {
    let now = Date.now();
    const { h, stripe, owner, listings, week, month } = await shop(1, () => now);
    const first = await checkout(h, owner, listings[0]!.id, week.id);
    await stripe.pay(first.sessionId);
    const second = await checkout(h, owner, listings[0]!.id, month.id);
    await stripe.pay(second.sessionId);
    now += 3_600_000;
    expect((await h.ownerCall(owner, 'POST', `/api/account/orders/${first.orderId}/refund`, {})).status).toBe(200);
    const at = new Date(now).toISOString();
    const until = new Date(now + 30 * DAY_MS).toISOString();
    expect(await orderRow(h, second.orderId)).toMatchObject({ state: 'paid', starts_at: at, ends_at: until });
    expect(await getServerById(h.db, listings[0]!.id)).toMatchObject({ is_sponsored: true, placement_ends_at: until });
    const [mail] = await mails(h, 'order_refunded');
    expect(mail!.text_body).toContain(
      `This term has ended. Your next Sponsored term, already paid, has started in its place: it runs from ${at.slice(0, 10)} (UTC) until ${until.slice(0, 10)} (UTC).`,
    );
    // The same payer: the refund mail says it, and no second mail does.
    expect(await mails(h, 'placement_moved')).toHaveLength(0);
    // Nothing is left for the clock to start: the flags were set with the refund.
    expect((await clock({ db: h.db, env: h.env, rebuild: h.rebuild }, now + 60_000)).synced).toBe(0);
  });

  it('tells the payer of the next term, paid from another address, its new dates when a refund moves it up; the refund mail tells the payer of the refunded term', async () => {
    let now = Date.now();
    const { h, stripe, owner, listings, week, month } = await shop(1, () => now);
    stripe.payerEmail = 'first-payer@example.com';
    const first = await checkout(h, owner, listings[0]!.id, week.id);
    await stripe.pay(first.sessionId);
    stripe.payerEmail = 'second-payer@example.com';
    const second = await checkout(h, owner, listings[0]!.id, month.id);
    await stripe.pay(second.sessionId);
    const booked = await orderRow(h, second.orderId);
    now += 3_600_000;
    expect((await h.ownerCall(owner, 'POST', `/api/account/orders/${first.orderId}/refund`, {})).status).toBe(200);
    const at = new Date(now).toISOString();
    const until = new Date(now + 30 * DAY_MS).toISOString();
    expect(await orderRow(h, second.orderId)).toMatchObject({ starts_at: at, ends_at: until });
    const [refunded] = await mails(h, 'order_refunded');
    expect(refunded!.to_address).toBe('first-payer@example.com');
    const moved = await mails(h, 'placement_moved');
    expect(moved.map((m) => [m.to_address, m.subject])).toEqual([
      ['second-payer@example.com', `${listings[0]!.name}: your Sponsored term has started early`],
    ]);
    const text = moved[0]!.text_body.replace(/\s+/g, ' ');
    expect(text).toContain("The listing's Sponsored term before this one was refunded");
    expect(text).toContain(
      `Booked: from ${booked.starts_at!.slice(0, 10)} (UTC) until ${booked.ends_at!.slice(0, 10)} (UTC)`,
    );
    expect(text).toContain(`Now: from ${at.slice(0, 10)} (UTC) until ${until.slice(0, 10)} (UTC)`);
    expect(text).toContain('Term: 30 days, as paid');
    // Stripe's own charge.refunded that follows mails no one again.
    await stripe.settled();
    expect(await mails(h, 'placement_moved')).toHaveLength(1);
  });

  it('gives the Sponsored slot a refund frees to the listing waiting for it, then moves the refunded listing’s next term up behind it: each payer told, the flags and pages with the refund', async () => {
    let now = Date.now();
    const { h, owner, listings, first, other, next } = await oneSlotQueue(() => now);
    const waiting = await orderRow(h, other.orderId);
    const booked = await orderRow(h, next.orderId);
    expect(booked.starts_at).toBe(waiting.ends_at);
    expect((await getServerById(h.db, listings[1]!.id))?.is_sponsored).toBe(false);
    now += 3_600_000;
    const requests = h.rebuild.pages.length;
    expect((await h.ownerCall(owner, 'POST', `/api/account/orders/${first.orderId}/refund`, {})).status).toBe(200);
    const day = (ms: number) => new Date(ms).toISOString();
    // The other listing's week, booked first, takes the slot at once; the listing's own month follows it.
    expect(await orderRow(h, other.orderId)).toMatchObject({ starts_at: day(now), ends_at: day(now + 7 * DAY_MS) });
    const monthStart = day(now + 7 * DAY_MS);
    const monthEnd = day(now + 37 * DAY_MS);
    expect(await orderRow(h, next.orderId)).toMatchObject({ starts_at: monthStart, ends_at: monthEnd });
    // The waiting listing is Sponsored from the refund on, and both pages are asked for.
    expect(await getServerById(h.db, listings[1]!.id)).toMatchObject({
      is_sponsored: true,
      placement_ends_at: day(now + 7 * DAY_MS),
    });
    expect((await getServerById(h.db, listings[0]!.id))?.is_sponsored).toBe(false);
    expect(h.rebuild.pages.slice(requests)).toEqual([[`/server/${listings[0]!.slug}`, `/server/${listings[1]!.slug}`]]);
    const [mail] = await mails(h, 'order_refunded');
    expect(mail!.text_body.replace(/\s+/g, ' ')).toContain(
      `Your next Sponsored term, already paid, now starts earlier: it runs from ${monthStart.slice(0, 10)} (UTC) until ${monthEnd.slice(0, 10)} (UTC), and the listing has no Sponsored placement until then.`,
    );
    // The waiting listing's payer is told (the refund mail speaks of another listing); the
    // refunded listing's next term is in the refund mail to the same address, so not mailed twice.
    const moved = await mails(h, 'placement_moved');
    expect(moved.map((m) => m.subject)).toEqual([`${listings[1]!.name}: your Sponsored term has started early`]);
    const text = moved[0]!.text_body.replace(/\s+/g, ' ');
    expect(text).toContain('A Sponsored slot of the Gaming category came free early');
    expect(text).toContain(
      `Booked: from ${waiting.starts_at!.slice(0, 10)} (UTC) until ${waiting.ends_at!.slice(0, 10)} (UTC)`,
    );
    // Nothing is left for the clock to start: the flags were set with the refund.
    expect((await clock({ db: h.db, env: h.env, rebuild: h.rebuild }, now + 60_000)).synced).toBe(0);
  });

  it('serves the freed Sponsored slot first come, first served: a listing queued earlier takes it, and the refunded listing’s next term goes ahead as booked, its mail naming the gap', async () => {
    let now = Date.now();
    const { h, stripe, owner, listings, week, month } = await shop(3, () => now, { SPONSORED_SLOTS_PER_CATEGORY: '2' });
    // Two slots: listing 0's week and listing 1's month run; listing 2's month waits for the week,
    // listing 0's month (booked after it) for listing 1's month.
    const pay = async (listing: number, plan: number) => {
      const c = await checkout(h, owner, listings[listing]!.id, plan);
      await stripe.pay(c.sessionId);
      now += 1000;
      return c.orderId;
    };
    const weekId = await pay(0, week.id);
    const runningId = await pay(1, month.id);
    const waitingId = await pay(2, month.id);
    const ownNextId = await pay(0, month.id);
    const waiting = await orderRow(h, waitingId);
    const ownNext = await orderRow(h, ownNextId);
    expect(waiting.starts_at).toBe((await orderRow(h, weekId)).ends_at);
    expect(ownNext.starts_at).toBe((await orderRow(h, runningId)).ends_at);
    now += 3_600_000;
    expect((await h.ownerCall(owner, 'POST', `/api/account/orders/${weekId}/refund`, {})).status).toBe(200);
    // Listing 2's month, queued first, takes the freed slot; listing 0's month cannot start before
    // listing 1's ends without a third slot, so it keeps its dates.
    const at = new Date(now).toISOString();
    expect(await orderRow(h, waitingId)).toMatchObject({
      starts_at: at,
      ends_at: new Date(now + 30 * DAY_MS).toISOString(),
    });
    expect(await orderRow(h, ownNextId)).toMatchObject({ starts_at: ownNext.starts_at, ends_at: ownNext.ends_at });
    expect((await getServerById(h.db, listings[2]!.id))?.is_sponsored).toBe(true);
    const [mail] = await mails(h, 'order_refunded');
    expect(mail!.text_body.replace(/\s+/g, ' ')).toContain(
      `Your next Sponsored term, already paid, goes ahead as booked: it runs from ${ownNext.starts_at!.slice(0, 10)} (UTC) until ${ownNext.ends_at!.slice(0, 10)} (UTC), and the listing has no Sponsored placement until then.`,
    );
    expect((await mails(h, 'placement_moved')).map((m) => m.subject)).toEqual([
      `${listings[2]!.name}: your Sponsored term has started early`,
    ]);
    // Never more than two at once.
    const running = (await h.db.select().from(discordServers)).filter((s) => s.is_sponsored);
    expect(running).toHaveLength(2);
  });

  it('records an owner’s refund with its audit row in one batch: an audit that fails records neither, and Stripe’s charge.refunded then applies the refund once', async () => {
    const { h, stripe, owner, listings, week } = await shop(2);
    const first = await checkout(h, owner, listings[0]!.id, week.id);
    await stripe.pay(first.sessionId);
    // Stripe's charge.refunded is held back until the app has answered the refund.
    const release = holdStripeEvents(stripe);
    await refuseRefundAudit(h);
    const res = await h.ownerCall(owner, 'POST', `/api/account/orders/${first.orderId}/refund`, {});
    expect(res.status).toBe(500);
    // Stripe refunded; the database holds neither the refund nor its audit row.
    expect(await orderRow(h, first.orderId)).toMatchObject({ state: 'paid', refunded_cents: 0 });
    expect(await h.db.select().from(orderRefunds)).toHaveLength(0);
    expect(await mails(h, 'order_refunded')).toHaveLength(0);
    expect((await h.db.select().from(auditLog)).filter((a) => a.action === 'refund')).toHaveLength(0);
    expect((await getServerById(h.db, listings[0]!.id))?.is_sponsored).toBe(true);
    // Stripe's event arrives: the refund is recorded once, with its mail; a redelivery changes nothing.
    release();
    await stripe.settled();
    const event = stripe.events.at(-1)!;
    expect([event.event.type, event.status]).toEqual(['charge.refunded', 200]);
    expect(await stripe.send(event.event)).toBe(200);
    expect(await orderRow(h, first.orderId)).toMatchObject({ state: 'refunded', refunded_cents: week.price_cents });
    expect(await h.db.select().from(orderRefunds)).toHaveLength(1);
    expect(await mails(h, 'order_refunded')).toHaveLength(1);
    expect((await getServerById(h.db, listings[0]!.id))?.is_sponsored).toBe(false);
    // With the audit allowed, a refund is recorded together with its audit row, naming Stripe's refund.
    await h.db.run(sql`DROP TRIGGER refund_audit_refused`);
    const second = await checkout(h, owner, listings[1]!.id, week.id);
    await stripe.pay(second.sessionId);
    expect((await h.ownerCall(owner, 'POST', `/api/account/orders/${second.orderId}/refund`, {})).status).toBe(200);
    const audits = (await h.db.select().from(auditLog)).filter((a) => a.action === 'refund');
    expect(audits.map((a) => [a.entity, a.entity_id])).toEqual([['order', String(second.orderId)]]);
    expect((audits[0]!.details as { refund: string }).refund).toMatch(/^re_/);
  });

  it('records the refund with its audit row when the owner presses Refund again after a failed audit: Stripe answers the same refund, and its charge.refunded then changes nothing', async () => {
    const { h, stripe, owner, listings, week } = await shop();
    const { sessionId, orderId } = await checkout(h, owner, listings[0]!.id, week.id);
    await stripe.pay(sessionId);
    // Stripe's charge.refunded is held back until the second press has been answered.
    const release = holdStripeEvents(stripe);
    await refuseRefundAudit(h);
    expect((await h.ownerCall(owner, 'POST', `/api/account/orders/${orderId}/refund`, {})).status).toBe(500);
    expect((await orderRow(h, orderId)).state).toBe('paid');
    await h.db.run(sql`DROP TRIGGER refund_audit_refused`);
    expect((await h.ownerCall(owner, 'POST', `/api/account/orders/${orderId}/refund`, {})).status).toBe(200);
    expect(await orderRow(h, orderId)).toMatchObject({ state: 'refunded', refunded_cents: week.price_cents });
    const audits = (await h.db.select().from(auditLog)).filter((a) => a.action === 'refund');
    expect(audits).toHaveLength(1);
    // One refund at Stripe (the same idempotency key), recorded once.
    const refundId = (audits[0]!.details as { refund: string }).refund;
    expect((await h.db.select().from(stripeEvents)).map((e) => e.id)).toContain(`refund:${refundId}`);
    release();
    await stripe.settled();
    const charged = stripe.events.filter((e) => e.event.type === 'charge.refunded');
    expect(charged.map((e) => e.status)).toEqual([200]);
    expect(await h.db.select().from(orderRefunds)).toHaveLength(1);
    expect(await mails(h, 'order_refunded')).toHaveLength(1);
  });

  it('keeps an ended placement’s order when its listing is removed: the money stays in revenue, the console names the listing, an admin can still refund it', async () => {
    let now = Date.now();
    const { h, stripe, owner, listings, week } = await shop(1, () => now);
    const id = listings[0]!.id;
    const { sessionId, orderId } = await checkout(h, owner, id, week.id);
    await stripe.pay(sessionId);
    now = Date.parse((await orderRow(h, orderId)).ends_at!);
    expect((await clock({ db: h.db, env: h.env, rebuild: h.rebuild }, now)).ended).toBe(1);
    expect((await orderRow(h, orderId)).state).toBe('ended');

    // Nothing held any more: the owner (signed in again a week on) removes the listing, and its order stays.
    const back = await h.signInOwner([guild(GUILDS[0]!, { owner: true })]);
    expect((await h.ownerCall(back, 'DELETE', `/api/account/listings/${id}`)).status).toBe(200);
    expect(await getServerById(h.db, id)).toBeNull();
    const kept = await orderRow(h, orderId);
    expect(kept).toMatchObject({ server_id: null, server_name: listings[0]!.name, state: 'ended' });
    expect(await netToday(h)).toBe(week.price_cents);
    const admin = await h.signIn('admin');
    const list = (await (await h.call(admin, 'GET', '/api/admin/orders')).json()) as {
      orders: { id: number; server_name: string; server_slug: string | null }[];
    };
    expect(list.orders.find((o) => o.id === orderId)).toMatchObject({
      server_name: listings[0]!.name,
      server_slug: null,
    });

    // The money-back promise outlives the listing: an admin refunds it, the payer's mail names it.
    const refund = await h.call(admin, 'POST', `/api/admin/orders/${orderId}/refund`, {});
    expect(refund.status).toBe(200);
    expect((await orderRow(h, orderId)).state).toBe('refunded');
    // Audited in the refund's own batch, naming Stripe's refund.
    const [refundAudit] = (await h.db.select().from(auditLog)).filter((a) => a.action === 'refund');
    expect(refundAudit).toMatchObject({ entity: 'order', entity_id: String(orderId) });
    expect((refundAudit!.details as { refund: string }).refund).toMatch(/^re_/);
    expect(await netToday(h)).toBe(0);
    const [refundMail] = await mails(h, 'order_refunded');
    expect(refundMail?.subject).toContain(listings[0]!.name);
  });

  it('refuses a checkout for a listing the owner no longer holds, or one not live', async () => {
    const { h, listings, week } = await shop(2);
    // The owner signs in again without the first guild: the claim goes.
    const again = await h.signInOwner([guild(GUILDS[1]!, { owner: true })]);
    const gone = await h.ownerCall(again, 'POST', `/api/account/listings/${listings[0]!.id}/checkout`, {
      plan_id: week.id,
    });
    expect(gone.status).toBe(404);
    // Nothing a browser sends sets the amount: an unknown plan is refused, naming the field.
    const bogus = await h.ownerCall(again, 'POST', `/api/account/listings/${listings[1]!.id}/checkout`, {
      plan_id: 999,
    });
    expect(bogus.status).toBe(400);
    expect(((await bogus.json()) as { error: { issues: { path: string }[] } }).error.issues[0]?.path).toBe('plan_id');
    await h.db.update(discordServers).set({ is_active: false });
    const hidden = await h.ownerCall(again, 'POST', `/api/account/listings/${listings[1]!.id}/checkout`, {
      plan_id: week.id,
    });
    expect(hidden.status).toBe(409);
    expect(await h.db.select().from(orders)).toHaveLength(0);
  });

  it("keeps the order once Stripe made its session: a database error after it is the database's, and the payment still applies", async () => {
    const { h, stripe, owner, listings, week } = await shop();
    // The checkout's session and its audit row are one batch: the audit row's insert fails here.
    await h.db.run(
      sql`CREATE TRIGGER fail_checkout_audit BEFORE INSERT ON audit_log WHEN NEW.action = 'checkout' BEGIN SELECT RAISE(ABORT, 'audit write failed'); END`,
    );
    const res = await h.ownerCall(owner, 'POST', `/api/account/listings/${listings[0]!.id}/checkout`, {
      plan_id: week.id,
    });
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('internal_error');
    // Nothing half-written (no session on the order, no audit row), and the order is still there.
    const [kept] = await h.db.select().from(orders);
    expect(kept?.state).toBe('open');
    expect(kept?.stripe_session_id).toBeNull();
    expect((await h.db.select().from(auditLog)).filter((a) => a.action === 'checkout')).toHaveLength(0);
    // Promote again once the database is back: the same session, now stored, with its audit row.
    await h.db.run(sql`DROP TRIGGER fail_checkout_audit`);
    const again = await checkout(h, owner, listings[0]!.id, week.id);
    expect(stripe.sessions.size).toBe(1);
    const [sessionId] = [...stripe.sessions.keys()];
    expect(again).toMatchObject({ sessionId, orderId: kept!.id });
    expect((await h.db.select().from(auditLog)).filter((a) => a.action === 'checkout')).toHaveLength(1);
    // Stripe's session names the order: paying it applies to that order.
    await stripe.pay(sessionId!);
    expect(stripe.events.at(-1)!.status).toBe(200);
    expect((await orderRow(h, kept!.id)).state).toBe('paid');
    expect((await getServerById(h.db, listings[0]!.id))?.is_sponsored).toBe(true);
  });

  it('drops the order when Stripe answers no session, and says it was Stripe', async () => {
    const { h, stripe, owner, listings, week } = await shop();
    await stripe.close();
    const res = await h.ownerCall(owner, 'POST', `/api/account/listings/${listings[0]!.id}/checkout`, {
      plan_id: week.id,
    });
    expect(res.status).toBe(502);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('stripe_unavailable');
    expect(await h.db.select().from(orders)).toHaveLength(0);
  });

  it('keeps a listing whose checkout is open or whose paid placement runs: neither the owner nor an admin can delete it and its order with it', async () => {
    const { h, stripe, owner, listings, week } = await shop();
    const id = listings[0]!.id;
    const admin = await h.signIn('admin');
    const refusedWith = async (res: Response, code: string, words: RegExp) => {
      expect(res.status).toBe(409);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe(code);
      expect(body.error.message).toMatch(words);
    };

    // A checkout Stripe can still take payment on.
    const { sessionId, orderId } = await checkout(h, owner, id, week.id);
    await refusedWith(await h.ownerCall(owner, 'DELETE', `/api/account/listings/${id}`), 'placement_open', /checkout/);
    await refusedWith(await h.call(admin, 'DELETE', `/api/admin/servers/${id}`), 'placement_open', /checkout/);

    // Paid: the placement runs until refunded or ended.
    await stripe.pay(sessionId);
    expect((await orderRow(h, orderId)).state).toBe('paid');
    await refusedWith(await h.ownerCall(owner, 'DELETE', `/api/account/listings/${id}`), 'placement_open', /refund/);
    await refusedWith(await h.call(admin, 'DELETE', `/api/admin/servers/${id}`), 'placement_open', /refund/);
    expect(await getServerById(h.db, id)).not.toBeNull();
    expect((await orderRow(h, orderId)).state).toBe('paid');
    expect(await netToday(h)).toBe(week.price_cents);
    const removals = await h.db.select().from(auditLog).where(eq(auditLog.entity, 'server'));
    expect(removals.filter((r) => r.action === 'remove' || r.action === 'delete')).toEqual([]);

    // Refunded: nothing is held any more, and the owner may remove the listing.
    expect((await h.ownerCall(owner, 'POST', `/api/account/orders/${orderId}/refund`, {})).status).toBe(200);
    expect((await h.ownerCall(owner, 'DELETE', `/api/account/listings/${id}`)).status).toBe(200);
    expect(await getServerById(h.db, id)).toBeNull();
    // The removal and its audit row were written together: the owner is named in it.
    const removed = (
      await h.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.entity_id, String(id)))
    ).filter((r) => r.action === 'remove');
    expect(removed).toHaveLength(1);
    expect(removed[0]!.operator_email).toMatch(/^owner /);
    expect(removed[0]!.details).toMatchObject({ owner_id: expect.any(Number), slug: listings[0]!.slug });
  });

  it('answers 503 without Stripe keys and refuses one key alone at start', async () => {
    h = await createOwnerHarness();
    const res = await h.app.request(`${SITE}/api/webhooks/stripe`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(503);
    await expect(createOwnerHarness({ STRIPE_SECRET_KEY: STAND_IN_KEYS.secretKey })).rejects.toThrow(
      /STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET/,
    );
  });

  it('gives admins the orders with their events, refunds of any order, audited plan edits for new purchases only, comps and revenue', async () => {
    const { h, stripe, owner, listings, week } = await shop(2);
    const { sessionId, orderId } = await checkout(h, owner, listings[0]!.id, week.id);
    await stripe.pay(sessionId);
    const admin = await h.signIn('admin');
    const moderator = await h.signIn('moderator');
    expect((await h.call(moderator, 'GET', '/api/admin/orders')).status).toBe(403);
    const list = (await (await h.call(admin, 'GET', '/api/admin/orders')).json()) as {
      orders: { id: number; state: string; stripe_session_id: string; events: { type: string }[] }[];
    };
    const row = list.orders.find((o) => o.id === orderId)!;
    expect(row.state).toBe('paid');
    expect(row.stripe_session_id).toBe(sessionId);
    expect(row.events.map((e) => e.type)).toEqual(['checkout.session.completed']);
    // A price change applies to new purchases only.
    const edit = await h.call(admin, 'PATCH', `/api/admin/orders/plans/${week.id}`, { price_cents: 5900 });
    expect(edit.status).toBe(200);
    expect((await orderRow(h, orderId)).amount_cents).toBe(week.price_cents);
    const audits = (await (await h.call(admin, 'GET', '/api/admin/audit')).json()) as {
      entries: { action: string; entity: string }[];
    };
    expect(audits.entries.some((e) => e.entity === 'plan' && e.action === 'update')).toBe(true);
    // An admin refunds it (past any owner window too).
    const refund = await h.call(admin, 'POST', `/api/admin/orders/${orderId}/refund`, {});
    expect(refund.status).toBe(200);
    expect((await orderRow(h, orderId)).state).toBe('refunded');
    // Audited in the refund's own batch, naming Stripe's refund.
    const [refundAudit] = (await h.db.select().from(auditLog)).filter((a) => a.action === 'refund');
    expect(refundAudit).toMatchObject({ entity: 'order', entity_id: String(orderId) });
    expect((refundAudit!.details as { refund: string }).refund).toMatch(/^re_/);
    const revenue = (await (await h.call(admin, 'GET', '/api/admin/orders/revenue')).json()) as {
      days: { paid_cents: number; refunded_cents: number; net_cents: number }[];
    };
    expect(revenue.days.at(-1)).toMatchObject({
      paid_cents: week.price_cents,
      refunded_cents: week.price_cents,
      net_cents: 0,
    });
    // The Dashboard's revenue per day is the same series (money in minus refunds), not clicks' worth.
    const dashboard = (await (await h.call(admin, 'GET', '/api/admin/dashboard')).json()) as {
      revenue: unknown[];
    };
    expect(dashboard.revenue).toEqual(revenue.days);
    // A comp: free, audited, shown as such; no money counted.
    const comp = await h.call(admin, 'POST', '/api/admin/orders/comps', {
      server_id: listings[1]!.id,
      placement: 'premium',
      term_days: 14,
      note: 'Launch partner',
    });
    expect(comp.status).toBe(201);
    const listing = await getServerById(h.db, listings[1]!.id);
    expect(listing?.is_premium).toBe(true);
    expect(listing?.placement_kind).toBe('comp');
    const audits2 = (await (await h.call(admin, 'GET', '/api/admin/audit')).json()) as {
      entries: { action: string }[];
    };
    expect(audits2.entries.some((e) => e.action === 'comp')).toBe(true);
    expect(await netToday(h)).toBe(0);
  });
});

describe('the placement clock', () => {
  it('ends its tick only once each change it asks to publish is recorded (the Worker ends the invocation after it)', async () => {
    const tdb = await createTestDb();
    try {
      const env = loadEnv({ DATABASE_URL: tdb.url });
      const now = Date.now();
      // Recording a change fails: a tick that did not wait for it would end as if it had been recorded.
      const rebuild: RebuildTrigger = {
        request: (reason) => Promise.reject(new Error(`not recorded: ${reason}`)),
        status: () => ({ state: 'idle', liveSince: null, lastDurationMs: null, lastError: null, lastReason: null }),
      };
      const placement = (name: string, startsAt: number, endsAt: number) =>
        premiumPlacement(tdb, name, startsAt, endsAt);
      // A term that is over: ended through the order machine (lib/order-events.ts).
      const ending = await placement('Clock Ending Lounge', now - 30 * DAY_MS, now - 1000);
      await tdb.client.execute({ sql: 'UPDATE discord_servers SET is_premium = 1 WHERE id = ?', args: [ending.id] });
      await expect(clock({ db: tdb.db, env, rebuild }, now)).rejects.toThrow(/not recorded: placement of/);
      // A slot that has started: its listing's flags brought in step (placement-clock.ts).
      await placement('Clock Starting Lounge', now - 1000, now + 30 * DAY_MS);
      await expect(clock({ db: tdb.db, env, rebuild }, now)).rejects.toThrow(/not recorded: placement of/);
    } finally {
      tdb.cleanup();
    }
  });
  it('changes a listing’s flags only together with the record of its page for the deploy: a record that fails leaves both for the next tick', async () => {
    const tdb = await createTestDb();
    // The Worker's trigger: each change recorded in site_changes for the deploy job, the hook called after.
    const rebuild = new HookRebuildTrigger({
      url: 'https://hooks.example.com/deploy',
      db: tdb.db,
      fetch: async () => new Response(null, { status: 204 }),
    });
    try {
      const env = loadEnv({ DATABASE_URL: tdb.url });
      const now = Date.now();
      // A slot that has started: the tick brings the listing's flags in step.
      const listing = await premiumPlacement(tdb, 'Clock Record Lounge', now - 1000, now + 30 * DAY_MS);
      const records = async () => (await tdb.db.select().from(siteChanges)).map((c) => c.page);
      // The record's write fails (a lost connection between the two writes).
      await tdb.client.execute(`CREATE TRIGGER refuse_change BEFORE INSERT ON site_changes
        BEGIN SELECT RAISE(ABORT, 'connection lost'); END`);
      await expect(clock({ db: tdb.db, env, rebuild }, now)).rejects.toThrow();
      // Neither written: the flags still out of step, so the next tick finds the change again.
      expect((await getServerById(tdb.db, listing.id))?.is_premium).toBe(false);
      expect(await records()).toEqual([]);
      await tdb.client.execute('DROP TRIGGER refuse_change');
      expect((await clock({ db: tdb.db, env, rebuild }, now + 60_000)).synced).toBe(1);
      expect((await getServerById(tdb.db, listing.id))?.is_premium).toBe(true);
      expect(await records()).toEqual([`/server/${listing.slug}`]);
      await rebuild.flush();
    } finally {
      tdb.cleanup();
    }
  });
});

describe('the reminder before a placement ends', () => {
  it('is sent once, by the scheduled placement clock and the mail sender over SMTP, 3 days before the end, and never again', async () => {
    let now = Date.now();
    const { h, stripe, owner, listings, week } = await shop(1, () => now);
    smtp = await startSmtpStandIn();
    const { sessionId, orderId } = await checkout(h, owner, listings[0]!.id, week.id);
    await stripe.pay(sessionId);
    const order = await orderRow(h, orderId);
    expect(order.state).toBe('paid');
    const endsAt = Date.parse(order.ends_at!);
    const remindAt = endsAt - REMINDER_DAYS * DAY_MS;
    // The jobs as npm start and the Worker run them: the one schedule table, the SMTP transport.
    const ctx: JobContext = {
      db: h.db,
      env: h.env,
      runtime: 'node',
      rebuild: h.rebuild,
      mail: smtpMailClient(smtp.url),
      log: () => {},
    };
    const tick = async (at: number) => {
      now = at;
      const result = (await JOBS['placement-clock'].run(ctx, at)) as { reminded: number };
      await JOBS.mail.run(ctx, at);
      return result.reminded;
    };
    // Every minute up to the last one before "3 days before the end": nothing.
    expect(await tick(Date.parse(order.starts_at!) + 60_000)).toBe(0);
    expect(await tick(remindAt - DAY_MS)).toBe(0);
    expect(await tick(remindAt - 60_000)).toBe(0);
    expect(await mails(h, 'placement_reminder')).toHaveLength(0);
    // At 3 days before the end: one reminder, delivered.
    expect(await tick(remindAt)).toBe(1);
    const [reminder] = await smtp.waitFor('payer@example.com', 2);
    const received = smtp.to('payer@example.com').filter((m) => m.subject.includes('placement ends on'));
    expect(received).toHaveLength(1);
    expect(reminder).toBeDefined();
    expect(received[0]!.text).toContain(`ends on ${order.ends_at!.slice(0, 10)} (UTC)`);
    expect(received[0]!.text).toContain('does not renew by itself');
    // The next minutes, days, and the end itself: no second reminder, in the outbox or over SMTP.
    for (const at of [remindAt + 60_000, remindAt + DAY_MS, endsAt - 60_000]) expect(await tick(at)).toBe(0);
    await tick(endsAt);
    expect((await orderRow(h, orderId)).state).toBe('ended');
    expect(await tick(endsAt + DAY_MS)).toBe(0);
    expect(await mails(h, 'placement_reminder')).toHaveLength(1);
    const all = await smtp.waitFor('payer@example.com', 3);
    expect(all.filter((m) => m.subject.includes('placement ends on'))).toHaveLength(1);
    expect(all.filter((m) => m.subject.includes('placement ended'))).toHaveLength(1);
  });

  it('comes with the owner’s Discord webhook notice, or neither is written: a tick that fails between them loses neither', async () => {
    let now = Date.now();
    const { h, stripe, owner, listings, week } = await shop(1, () => now);
    const { sessionId, orderId } = await checkout(h, owner, listings[0]!.id, week.id);
    await stripe.pay(sessionId);
    const order = await orderRow(h, orderId);
    expect(order.owner_id).not.toBeNull();
    await setOwnerWebhook(
      h.db,
      order.owner_id!,
      `https://discord.com/api/webhooks/123456789012345678/${'tOkEn_-'.repeat(10)}`,
    );
    now = Date.parse(order.ends_at!) - REMINDER_DAYS * DAY_MS;
    // The database refuses the webhook notice once (a crash, a lost connection after the mail was written).
    await h.client.execute(`CREATE TRIGGER refuse_notice BEFORE INSERT ON webhook_outbox
      BEGIN SELECT RAISE(ABORT, 'connection lost'); END`);
    await expect(clock({ db: h.db, env: h.env, rebuild: h.rebuild }, now)).rejects.toThrow();
    await h.client.execute('DROP TRIGGER refuse_notice');
    // The next minute's tick writes both, once.
    now += 60_000;
    expect((await clock({ db: h.db, env: h.env, rebuild: h.rebuild }, now)).reminded).toBe(1);
    expect(await mails(h, 'placement_reminder')).toHaveLength(1);
    const notices = await h.db.select().from(webhookOutbox).where(eq(webhookOutbox.event, 'placement_ending'));
    expect(notices.map((n) => n.dedupe_key)).toEqual([`placement-ending:${orderId}:${order.owner_id}`]);
    expect((await clock({ db: h.db, env: h.env, rebuild: h.rebuild }, now + 60_000)).reminded).toBe(0);
  });

  it('is not sent for a term of 3 days or less, which starts inside the window', async () => {
    let now = Date.now();
    const { h, stripe, owner, listings } = await shop(1, () => now);
    // An operator's plan of REMINDER_DAYS days: the reminder would come with the receipt.
    const [short] = await h.db
      .insert(plans)
      .values({
        name: 'Sponsored short',
        placement: 'sponsored',
        term_days: REMINDER_DAYS,
        price_cents: 1900,
        currency: 'usd',
      })
      .returning();
    const { sessionId, orderId } = await checkout(h, owner, listings[0]!.id, short!.id);
    await stripe.pay(sessionId);
    const order = await orderRow(h, orderId);
    expect(order.state).toBe('paid');
    for (const at of [Date.parse(order.starts_at!) + 60_000, Date.parse(order.ends_at!) - 60_000]) {
      now = at;
      expect((await clock({ db: h.db, env: h.env, rebuild: h.rebuild }, at)).reminded).toBe(0);
    }
    expect(await mails(h, 'placement_reminder')).toHaveLength(0);
  });

  it('is not sent for a term the owner’s next one follows, whose end mail says the next one runs on; that one is reminded before its own end', async () => {
    let now = Date.now();
    const { h, stripe, owner, listings, week } = await shop(1, () => now);
    const { plans } = (await (
      await h.ownerCall(owner, 'GET', `/api/account/listings/${listings[0]!.id}/promote`)
    ).json()) as { plans: { id: number; placement: string; term_days: number }[] };
    const month = plans.find((p) => p.placement === 'sponsored' && p.term_days === 30)!;
    const first = await checkout(h, owner, listings[0]!.id, week.id);
    await stripe.pay(first.sessionId);
    const second = await checkout(h, owner, listings[0]!.id, month.id);
    await stripe.pay(second.sessionId);
    const weekEnd = Date.parse((await orderRow(h, first.orderId)).ends_at!);
    const monthEnd = (await orderRow(h, second.orderId)).ends_at!;
    const tick = (at: number) => clock({ db: h.db, env: h.env, rebuild: h.rebuild }, at);
    // Inside the first term's last 3 days: its placement does not end then, so nothing says buy again.
    now = weekEnd - REMINDER_DAYS * DAY_MS + 60_000;
    expect((await tick(now)).reminded).toBe(0);
    expect(await mails(h, 'placement_reminder')).toHaveLength(0);
    // The first term ends and the next starts in the same tick: the mail says so, not "ended".
    now = weekEnd;
    expect((await tick(now)).ended).toBe(1);
    expect((await getServerById(h.db, listings[0]!.id))?.is_sponsored).toBe(true);
    const [ended] = await mails(h, 'placement_ended');
    expect(ended!.text_body).not.toContain('organic rank');
    expect(ended!.text_body).toContain(`runs on until ${monthEnd.slice(0, 10)}`);
    // The next term's own reminder, 3 days before its end.
    now = Date.parse(monthEnd) - REMINDER_DAYS * DAY_MS + 60_000;
    expect((await tick(now)).reminded).toBe(1);
    expect((await mails(h, 'placement_reminder'))[0]!.text_body).toContain(monthEnd.slice(0, 10));
  });

  it('does not ask to buy again when the next term, already paid, waits for a Sponsored slot: it and the end mail say when that term starts', async () => {
    let now = Date.now();
    const { h, first, next } = await oneSlotQueue(() => now);
    const firstEnd = (await orderRow(h, first.orderId)).ends_at!;
    const nextStart = (await orderRow(h, next.orderId)).starts_at!;
    expect(Date.parse(nextStart)).toBeGreaterThan(Date.parse(firstEnd));
    const ownerId = (await orderRow(h, first.orderId)).owner_id!;
    await setOwnerWebhook(h.db, ownerId, `https://discord.com/api/webhooks/123456789012345678/${'tOkEn_-'.repeat(10)}`);
    const tick = (at: number) => clock({ db: h.db, env: h.env, rebuild: h.rebuild }, at);
    now = Date.parse(firstEnd) - REMINDER_DAYS * DAY_MS + 60_000;
    expect((await tick(now)).reminded).toBe(1);
    const [reminder] = await mails(h, 'placement_reminder');
    expect(reminder!.text_body).not.toContain('buy a new term');
    expect(reminder!.text_body).toContain(
      `Your next term, already paid, starts on ${nextStart.slice(0, 10)} (UTC), the first day a Sponsored slot of its category is free`,
    );
    const [notice] = await h.db.select().from(webhookOutbox).where(eq(webhookOutbox.event, 'placement_ending'));
    expect(notice!.payload.content).toContain(
      `Its next term, already paid, starts ${nextStart.slice(0, 16).replace('T', ' ')} UTC.`,
    );
    now = Date.parse(firstEnd);
    expect((await tick(now)).ended).toBe(1);
    const [ended] = await mails(h, 'placement_ended');
    expect(ended!.text_body).toContain(`Your next term, already paid, starts on ${nextStart.slice(0, 10)} (UTC)`);
  });

  it('is not sent for a placement refunded before its last 3 days', async () => {
    let now = Date.now();
    const { h, stripe, owner, listings, week } = await shop(1, () => now);
    const { sessionId, orderId } = await checkout(h, owner, listings[0]!.id, week.id);
    await stripe.pay(sessionId);
    const termEnd = Date.parse((await orderRow(h, orderId)).ends_at!);
    const refund = await h.ownerCall(owner, 'POST', `/api/account/orders/${orderId}/refund`, {});
    expect(refund.status).toBe(200);
    expect((await orderRow(h, orderId)).state).toBe('refunded');
    now = termEnd - REMINDER_DAYS * DAY_MS;
    expect((await clock({ db: h.db, env: h.env, rebuild: h.rebuild }, now)).reminded).toBe(0);
    expect(await mails(h, 'placement_reminder')).toHaveLength(0);
  });
});
