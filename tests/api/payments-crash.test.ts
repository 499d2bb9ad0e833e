// Paid placement (#30): a kill -9 of the server in the middle of a burst of webhook deliveries
// loses no paid order. Every event the server answered 200 has its effect stored (the order paid,
// the listing sponsored, the event in the ledger); the ones it never answered are delivered again
// after a restart, as Stripe retries, and then every order is paid exactly once.
import { type ChildProcess, spawn } from 'node:child_process';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { attachSession, openOrder } from '../../db/queries/orders';
import { upsertOwner } from '../../db/queries/owners';
import { discordServers, mailOutbox, orders, plans, stripeEvents } from '../../db/schema';
import { createTestDb, type TestDb } from '../helpers/db';
import { STAND_IN_KEYS, type StripeStandIn, startStripeStandIn } from '../helpers/stripe-stand-in';
import { seedServer } from './api-harness';

let tdb: TestDb | undefined;
let stripe: StripeStandIn | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  child?.kill('SIGKILL');
  await stripe?.close();
  tdb?.cleanup();
  child = tdb = stripe = undefined;
});

/** Starts the app in its own process on the test database; answers its port once it listens. */
function startServer(db: TestDb, standIn: StripeStandIn): Promise<{ proc: ChildProcess; port: number }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'tests/helpers/app-server.ts'], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      SITE_URL: 'http://localhost:4321',
      RATE_LIMITS: 'false',
      REFRESH_ENABLED: 'false',
      STRIPE_SECRET_KEY: STAND_IN_KEYS.secretKey,
      STRIPE_WEBHOOK_SECRET: STAND_IN_KEYS.webhookSecret,
      STRIPE_API_BASE: standIn.url,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((ok, fail) => {
    let out = '';
    let err = '';
    proc.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) ok({ proc, port: Number(m[1]) });
    });
    proc.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
    });
    proc.once('exit', (code) => fail(new Error(`app server exited (${code}): ${err}`)));
  });
}

const N = 12;

describe('a crash during a burst of webhooks', () => {
  it('loses no paid order: every 200-answered event is stored, and redelivery completes the rest once', async () => {
    tdb = await createTestDb();
    stripe = await startStripeStandIn();
    // N listings in N categories' worth of room (premium: no slot cap), each with an open checkout.
    const [plan] = await tdb.db.select().from(plans).where(eq(plans.placement, 'premium'));
    const owner = await upsertOwner(tdb.db, {
      id: '830000000000000001',
      username: 'crash',
      global_name: null,
      avatar: null,
    });
    const sessions: string[] = [];
    for (let i = 0; i < N; i++) {
      const listing = await seedServer(tdb.db, { name: `Crash Guild ${i}`, invite_status: 'ok' });
      const { order } = await openOrder(tdb.db, {
        serverId: listing.id,
        ownerId: owner.id,
        plan: plan!,
        category: listing.category,
        checkoutExpiresAt: Date.now() + 3_600_000,
      });
      const res = await fetch(`${stripe.url}/v1/checkout/sessions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${STAND_IN_KEYS.secretKey}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({
          mode: 'payment',
          client_reference_id: String(order.id),
          'line_items[0][quantity]': '1',
          'line_items[0][price_data][currency]': order.currency,
          'line_items[0][price_data][unit_amount]': String(order.amount_cents),
          'line_items[0][price_data][product_data][name]': 'Premium month',
          success_url: 'http://localhost:4321/account/paid',
          cancel_url: 'http://localhost:4321/account/cancelled',
        }),
      });
      const session = (await res.json()) as { id: string; url: string; expires_at: number };
      await attachSession(tdb.db, order.id, session);
      sessions.push(session.id);
    }

    const first = await startServer(tdb, stripe);
    child = first.proc;
    stripe.webhookUrl = `http://127.0.0.1:${first.port}/api/webhooks/stripe`;
    // The burst: every session paid at once; the server is killed once a few answers came back.
    const burst = sessions.map((id) => stripe!.pay(id).catch(() => []));
    while (stripe.events.filter((e) => e.status === 200).length < 3) await new Promise((r) => setTimeout(r, 5));
    first.proc.kill('SIGKILL');
    await Promise.all(burst);

    const answered = stripe.events.filter((e) => e.status === 200).map((e) => e.event);
    expect(answered.length).toBeGreaterThanOrEqual(3);
    const ledger = new Set((await tdb.db.select().from(stripeEvents)).map((e) => e.id));
    const byId = new Map((await tdb.db.select().from(orders)).map((o) => [o.id, o]));
    for (const e of answered) {
      expect(ledger.has(e.id)).toBe(true);
      const order = byId.get(Number((e.data.object as { client_reference_id: string }).client_reference_id))!;
      expect(order.state).toBe('paid');
    }

    // Stripe retries what was not answered 200 (and may resend some that were): after a restart, all paid once.
    const second = await startServer(tdb, stripe);
    child = second.proc;
    stripe.webhookUrl = `http://127.0.0.1:${second.port}/api/webhooks/stripe`;
    for (const row of [...stripe.events])
      if (row.status !== 200 || row === stripe.events[0]) expect(await stripe.send(row.event)).toBe(200);
    const all = await tdb.db.select().from(orders);
    expect(all.filter((o) => o.state === 'paid')).toHaveLength(N);
    expect((await tdb.db.select().from(discordServers)).filter((s) => s.is_premium)).toHaveLength(N);
    expect(await tdb.db.select().from(stripeEvents)).toHaveLength(N);
    expect((await tdb.db.select().from(mailOutbox)).filter((m) => m.kind === 'order_receipt')).toHaveLength(N);
    // 16 s alone when idle; over 60 s on the loaded 2-core machine (two full vitest runs beside other work).
  }, 180_000);
});
