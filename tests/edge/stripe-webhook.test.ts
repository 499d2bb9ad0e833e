// Paid placement (#30) on the Cloudflare entry: the webhook in workerd (the stripe library on its
// fetch client, constructEventAsync on WebCrypto) against the loopback Stripe stand-in and a
// libSQL database over HTTP, as on Turso.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachSession, openOrder } from '../../db/queries/orders';
import { upsertOwner } from '../../db/queries/owners';
import { createServer, getServerById } from '../../db/queries/servers';
import { orders, plans, stripeEvents } from '../../db/schema';
import { randomSecret } from '../../functions/_app/env';
import { type LibsqlHttpServer, startLibsqlHttpServer } from '../fixtures/libsql-http-server';
import { createTestDb, type TestDb } from '../helpers/db';
import { STAND_IN_KEYS, type StripeStandIn, startStripeStandIn } from '../helpers/stripe-stand-in';
import { startWranglerDev, type WranglerDev } from '../helpers/wrangler-dev';

let tdb: TestDb;
let libsql: LibsqlHttpServer;
let worker: WranglerDev;
let stripe: StripeStandIn;

/** A listing with an open sponsored-week checkout on the stand-in: its order id, session id and listing id. */
async function openCheckout(name: string) {
  const [plan] = await tdb.db.select().from(plans).where(eq(plans.name, 'Sponsored week'));
  const listing = await createServer(tdb.db, { name, category: 'Crypto', affiliate_link: 'https://discord.gg/edge' });
  const owner = await upsertOwner(tdb.db, { id: `95${Date.now()}`, username: name, global_name: null, avatar: null });
  const { order } = await openOrder(tdb.db, {
    serverId: listing.id,
    ownerId: owner.id,
    plan: plan!,
    category: 'Crypto',
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
      'line_items[0][price_data][product_data][name]': 'Sponsored week',
      success_url: 'http://localhost/account/paid',
      cancel_url: 'http://localhost/account/cancelled',
    }),
  });
  const session = (await res.json()) as { id: string; url: string; expires_at: number };
  await attachSession(tdb.db, order.id, session);
  return { orderId: order.id, sessionId: session.id, listingId: listing.id };
}

/**
 * Sends as Stripe does: a 5xx (the database over HTTP briefly locked by this test's own connection
 * to the same file) is retried; anything else is the answer.
 */
async function deliver(event: Parameters<StripeStandIn['send']>[0], opts: Parameters<StripeStandIn['send']>[1] = {}) {
  for (let attempt = 0; ; attempt++) {
    const status = await stripe.send(event, opts);
    if (status < 500 || attempt >= 5) return status;
    await new Promise((r) => setTimeout(r, 200 * (attempt + 1)));
  }
}

const stateOf = async (id: number) => (await tdb.db.select().from(orders).where(eq(orders.id, id)))[0]!.state;

beforeAll(async () => {
  const token = randomSecret();
  tdb = await createTestDb();
  libsql = await startLibsqlHttpServer({ file: tdb.url.replace(/^file:/, ''), authToken: token });
  stripe = await startStripeStandIn();
  mkdirSync(join(tdb.dir, 'assets'), { recursive: true });
  worker = await startWranglerDev({
    dir: join(tdb.dir, 'wrangler'),
    assets: join(tdb.dir, 'assets'),
    vars: {
      DATABASE_URL: libsql.url,
      DATABASE_AUTH_TOKEN: token,
      IP_HASH_SECRET: randomSecret(),
      SESSION_SECRET: randomSecret(),
      STRIPE_SECRET_KEY: STAND_IN_KEYS.secretKey,
      STRIPE_WEBHOOK_SECRET: STAND_IN_KEYS.webhookSecret,
      STRIPE_API_BASE: stripe.url,
    },
  });
  stripe.webhookUrl = `${worker.url}/api/webhooks/stripe`;
}, 240_000);

afterAll(async () => {
  if (process.env.DEBUG_EDGE) console.log(worker?.output().slice(-4000));
  await worker?.stop();
  await libsql?.stop();
  await stripe?.close();
  tdb?.cleanup();
});

describe('the Stripe webhook in workerd', () => {
  it('verifies the signature on WebCrypto, activates once, refuses a bad signature, and finds a refund’s order through the API', async () => {
    const paid = await openCheckout('Edge Paid');
    const [event] = await stripe.pay(paid.sessionId, { deliver: false });
    expect(await deliver(event!, { secret: 'whsec_not_the_endpoint_secret_0123456789' })).toBe(400);
    expect(await deliver(event!, { timestamp: Math.floor(Date.now() / 1000) - 400 })).toBe(400);
    expect(await stateOf(paid.orderId)).toBe('open');
    expect(await deliver(event!)).toBe(200);
    expect(await deliver(event!)).toBe(200);
    expect(await stateOf(paid.orderId)).toBe('paid');
    expect((await getServerById(tdb.db, paid.listingId))?.is_sponsored).toBe(true);
    expect((await tdb.db.select().from(stripeEvents)).filter((e) => e.id === event!.id)).toHaveLength(1);

    // A refund before the completion: the Worker asks Stripe (the stand-in) which session made the payment.
    const early = await openCheckout('Edge Early Refund');
    const [completed] = await stripe.pay(early.sessionId, { deliver: false });
    const refunded = await stripe.refundFromDashboard(early.sessionId, { deliver: false });
    expect(await deliver(refunded)).toBe(200);
    expect(await stateOf(early.orderId)).toBe('refunded');
    expect(await deliver(completed!)).toBe(200);
    expect(await stateOf(early.orderId)).toBe('refunded');
    expect((await getServerById(tdb.db, early.listingId))?.is_sponsored).toBe(false);
  });
});
