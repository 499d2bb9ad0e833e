// A loopback stand-in for the parts of Stripe's API the app uses (#30), written from Stripe's API
// reference (docs.stripe.com/api): Checkout Sessions (create, retrieve with its payment intent
// expandable, list by payment_intent),
// Refunds (create), form-encoded bodies, Bearer keys, Idempotency-Key, `{ error: { type, message } }`
// answers. Its hosted checkout page "pays" when its button is pressed, then sends the signed
// events to the webhook URL as Stripe does (`Stripe-Signature: t=…,v1=HMAC-SHA256(secret, "t.body")`).
// Tests also drive it directly: pay without delivering (a lost webhook), expire, dispute, redeliver.
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The keys a test configures the app with. */
export const STAND_IN_KEYS = {
  secretKey: 'sk_test_stand_in_0123456789abcdefghijklmnop',
  webhookSecret: 'whsec_stand_in_0123456789abcdefghijklmnop',
} as const;

/** A Checkout session as the stand-in keeps it (Stripe's field names). */
export interface StandInSession {
  id: string;
  object: 'checkout.session';
  mode: 'payment';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  payment_intent: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  /** Before discounts and tax. */
  amount_subtotal: number;
  /** After discounts and tax: what the payer pays. */
  amount_total: number;
  total_details: { amount_discount: number; amount_shipping: number; amount_tax: number };
  currency: string;
  customer_details: { email: string } | null;
  customer_email: string | null;
  success_url: string;
  cancel_url: string;
  url: string | null;
  expires_at: number;
  created: number;
  automatic_tax: { enabled: boolean };
  line_items_name: string;
}

/** A charge behind a paid session. */
interface StandInCharge {
  id: string;
  object: 'charge';
  amount: number;
  amount_refunded: number;
  refunded: boolean;
  currency: string;
  payment_intent: string;
  created: number;
}

/** The payment intent of a paid session (the fields the app reads when it expands one). */
interface StandInPaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  /** 'succeeded' (a card), 'processing' (a delayed payment clearing), 'requires_payment_method' (one that failed). */
  status: 'succeeded' | 'processing' | 'requires_payment_method';
  last_payment_error: { code: string; message: string } | null;
}

/** An event as Stripe sends it. */
export interface StandInEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  type: string;
  data: { object: Record<string, unknown> };
}

/** How the stand-in hands an event to the app: an HTTP POST to the webhook URL unless a test replaces it. */
export type Deliver = (body: string, headers: Record<string, string>) => Response | Promise<Response>;

export interface StripeStandIn {
  /** STRIPE_API_BASE: `http://127.0.0.1:PORT`. */
  url: string;
  sessions: Map<string, StandInSession>;
  /** Every event made, in order, with the status the app answered (null: not delivered). */
  events: { event: StandInEvent; status: number | null }[];
  /** Where the signed events go (`{site}/api/webhooks/stripe`); set once the app's port is known. */
  webhookUrl: string | null;
  /** Replaces the HTTP delivery (tests of the in-process app). */
  deliver: Deliver | null;
  /** The email the checkout page "pays" with. */
  payerEmail: string;
  /**
   * Pays a session as the checkout page does; `deliver: false` loses the webhook. `delayed: true`
   * pays with a delayed method (a bank debit): the session completes unpaid and the payment is
   * still pending (Stripe's async_payment_* event would decide). Answers the events.
   */
  pay(sessionId: string, opts?: { deliver?: boolean; delayed?: boolean }): Promise<StandInEvent[]>;
  /**
   * Fails a session's pending delayed payment (a bank debit returned): its payment intent goes back
   * to `requires_payment_method`, and checkout.session.async_payment_failed is sent (`deliver: false` loses it).
   */
  failDelayed(sessionId: string, opts?: { deliver?: boolean }): Promise<StandInEvent>;
  /** Sessions whose retrieve answers 500, not to be retried (Stripe failing for them). */
  failing: Set<string>;
  /** The session id of every retrieve Stripe was asked, in order. */
  retrieved: string[];
  /**
   * Sessions whose next N retrieves answer 500 without Stripe-Should-Retry (a passing fault Stripe's
   * libraries retry by themselves), by how many are left; the one after answers.
   */
  failNext: Map<string, number>;
  /**
   * Holds back the answer of the next Checkout Session create once Stripe has made it (a slow
   * answer on the way back): `arrived` resolves when it is made, `release()` sends it.
   */
  holdNextCreate(): { arrived: Promise<void>; release: () => void };
  /** Lets an open session expire and sends checkout.session.expired. */
  expire(sessionId: string, opts?: { deliver?: boolean }): Promise<StandInEvent>;
  /**
   * Refunds a paid session's charge from Stripe's side (the dashboard) and sends charge.refunded:
   * the rest of it, or `amount` of it (a partial refund; the event carries the running total).
   */
  refundFromDashboard(sessionId: string, opts?: { deliver?: boolean; amount?: number }): Promise<StandInEvent>;
  /** Opens a dispute on a paid session's charge and sends charge.dispute.created. */
  dispute(sessionId: string): Promise<StandInEvent>;
  /**
   * Closes the session's dispute as the card's bank decided and sends charge.dispute.closed: `lost`
   * keeps the money withdrawn at the dispute's opening with the cardholder (no charge.refunded
   * follows: the charge is not refunded), `won` gives it back to the account.
   */
  closeDispute(sessionId: string, status: 'won' | 'lost'): Promise<StandInEvent>;
  /** Sends an event (again), signed at `timestamp` (Unix seconds; now by default) with `secret`. */
  send(event: StandInEvent, opts?: { timestamp?: number; secret?: string }): Promise<number>;
  /** Waits until every event sent in the background has been answered. */
  settled(): Promise<void>;
  /** The Stripe-Signature header of `body`. */
  sign(body: string, timestamp: number, secret?: string): string;
  close(): Promise<void>;
}

/** The tax rate the stand-in's Stripe Tax charges on top of the price when `automatic_tax` is on. */
export const TAX_RATE = 0.1;

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const nowS = () => Math.floor(Date.now() / 1000);

/** Stripe's form encoding: `a[b][0][c]=1` into nested objects and arrays. */
export function parseForm(body: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.split(/\[|\]\[|\]/).filter((p) => p !== '');
    let node: Record<string, unknown> = out;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else {
        node[part] ??= {};
        node = node[part] as Record<string, unknown>;
      }
    });
  }
  return out;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startStripeStandIn(opts: { port?: number } = {}): Promise<StripeStandIn> {
  const sessions = new Map<string, StandInSession>();
  const charges = new Map<string, StandInCharge>();
  const intents = new Map<string, StandInPaymentIntent>();
  /** Session id → its charge's dispute. */
  const disputes = new Map<string, Record<string, unknown> & { status: string }>();
  /** Idempotency-Key → the request's parameters and Stripe's saved answer (docs.stripe.com/api/idempotent_requests). */
  const idempotent = new Map<string, { params: string; answer: string }>();
  let createHold: { made: () => void; gate: Promise<void> } | null = null;
  const events: StripeStandIn['events'] = [];
  let origin = '';

  const sign = (body: string, timestamp: number, secret: string = STAND_IN_KEYS.webhookSecret) =>
    `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

  const event = (type: string, object: object): StandInEvent => ({
    id: id('evt'),
    object: 'event',
    api_version: '2026-10-28.endive',
    created: nowS(),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object: JSON.parse(JSON.stringify(object)) as Record<string, unknown> },
  });

  async function send(e: StandInEvent, o: { timestamp?: number; secret?: string } = {}): Promise<number> {
    const body = JSON.stringify(e);
    const headers = {
      'content-type': 'application/json; charset=utf-8',
      'stripe-signature': sign(body, o.timestamp ?? nowS(), o.secret),
      'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
    };
    let status: number;
    if (standIn.deliver) status = (await standIn.deliver(body, headers)).status;
    else {
      if (!standIn.webhookUrl) throw new Error('stripe stand-in: no webhookUrl to deliver to');
      const res = await fetch(standIn.webhookUrl, { method: 'POST', body, headers });
      await res.arrayBuffer();
      status = res.status;
    }
    const row = events.find((r) => r.event.id === e.id);
    if (row) row.status = status;
    return status;
  }

  const inflight = new Set<Promise<unknown>>();
  /** Makes an event; delivers it now, in the background (as Stripe does after answering an API call), or not at all. */
  async function emit(type: string, object: object, deliver: boolean | 'background' = true): Promise<StandInEvent> {
    const e = event(type, object);
    events.push({ event: e, status: null });
    if (deliver === 'background') {
      const p = send(e).catch(() => undefined);
      inflight.add(p);
      void p.finally(() => inflight.delete(p));
    } else if (deliver) await send(e);
    return e;
  }

  const sessionOrThrow = (sessionId: string) => {
    const s = sessions.get(sessionId);
    if (!s) throw new Error(`stripe stand-in: no session ${sessionId}`);
    return s;
  };

  async function pay(sessionId: string, o: { deliver?: boolean; delayed?: boolean } = {}) {
    const s = sessionOrThrow(sessionId);
    if (s.status !== 'open') return [];
    if (s.automatic_tax.enabled) {
      // Stripe Tax adds the payer's tax once the address is known, on top of the price (exclusive).
      const tax = Math.round(s.amount_subtotal * TAX_RATE);
      s.total_details = { ...s.total_details, amount_tax: tax };
      s.amount_total = s.amount_subtotal + tax;
    }
    const pi = id('pi');
    const charge: StandInCharge = {
      id: id('ch'),
      object: 'charge',
      amount: s.amount_total,
      amount_refunded: 0,
      refunded: false,
      currency: s.currency,
      payment_intent: pi,
      created: nowS(),
    };
    charges.set(pi, charge);
    intents.set(pi, {
      id: pi,
      object: 'payment_intent',
      amount: s.amount_total,
      currency: s.currency,
      status: o.delayed ? 'processing' : 'succeeded',
      last_payment_error: null,
    });
    Object.assign(s, {
      status: 'complete',
      payment_status: o.delayed ? 'unpaid' : 'paid',
      payment_intent: pi,
      customer_details: { email: standIn.payerEmail },
      url: null,
    });
    return [await emit('checkout.session.completed', s, o.deliver ?? true)];
  }

  /** Refunds `amount` of a charge (the rest of it by default), as Stripe's Refunds API does. */
  async function refundCharge(pi: string, deliver: boolean | 'background', amount?: number) {
    const charge = charges.get(pi);
    if (!charge) throw new Error(`stripe stand-in: no charge for ${pi}`);
    const rest = charge.amount - charge.amount_refunded;
    if (amount !== undefined && (amount < 1 || amount > rest))
      throw new Error(`stripe stand-in: cannot refund ${amount} of ${rest}`);
    const refund = {
      id: id('re'),
      object: 'refund',
      amount: amount ?? rest,
      charge: charge.id,
      payment_intent: pi,
      currency: charge.currency,
      status: 'succeeded',
      created: nowS(),
    };
    // `amount_refunded` is the running total; `refunded` is true only once all of it is.
    const total = charge.amount_refunded + refund.amount;
    Object.assign(charge, { amount_refunded: total, refunded: total === charge.amount });
    await emit('charge.refunded', charge, deliver);
    return refund;
  }

  const standIn: StripeStandIn = {
    url: '',
    sessions,
    events,
    webhookUrl: null,
    deliver: null,
    payerEmail: 'payer@example.com',
    pay,
    failing: new Set(),
    retrieved: [],
    failNext: new Map(),
    holdNextCreate() {
      let made!: () => void;
      let release!: () => void;
      const arrived = new Promise<void>((ok) => {
        made = ok;
      });
      const gate = new Promise<void>((ok) => {
        release = ok;
      });
      createHold = { made, gate };
      return { arrived, release };
    },
    async failDelayed(sessionId, o = {}) {
      const s = sessionOrThrow(sessionId);
      const intent = intents.get(s.payment_intent!);
      if (intent?.status !== 'processing') throw new Error(`stripe stand-in: no pending payment on ${sessionId}`);
      Object.assign(intent, {
        status: 'requires_payment_method',
        last_payment_error: { code: 'payment_method_provider_decline', message: 'The bank returned the debit.' },
      });
      charges.delete(intent.id);
      return emit('checkout.session.async_payment_failed', s, o.deliver ?? true);
    },
    async expire(sessionId, o = {}) {
      const s = sessionOrThrow(sessionId);
      Object.assign(s, { status: 'expired', url: null });
      return emit('checkout.session.expired', s, o.deliver ?? true);
    },
    async refundFromDashboard(sessionId, o = {}) {
      const s = sessionOrThrow(sessionId);
      await refundCharge(s.payment_intent!, o.deliver ?? true, o.amount);
      return events.at(-1)!.event;
    },
    async dispute(sessionId) {
      const s = sessionOrThrow(sessionId);
      const charge = charges.get(s.payment_intent!)!;
      const dispute = {
        id: id('dp'),
        object: 'dispute',
        amount: charge.amount,
        charge: charge.id,
        payment_intent: charge.payment_intent,
        currency: charge.currency,
        reason: 'fraudulent',
        status: 'needs_response',
        created: nowS(),
      };
      disputes.set(sessionId, dispute);
      return emit('charge.dispute.created', dispute);
    },
    async closeDispute(sessionId, status) {
      const dispute = disputes.get(sessionId);
      if (!dispute) throw new Error(`stripe stand-in: no dispute on ${sessionId}`);
      dispute.status = status;
      return emit('charge.dispute.closed', dispute);
    },
    send,
    sign,
    async settled() {
      while (inflight.size > 0) await Promise.all([...inflight]);
    },
    // The deliveries still in flight end first (a background refund's event to an app about to close).
    close: async () => {
      await Promise.allSettled([...inflight]);
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
    res.end(JSON.stringify(body));
  };
  const invalid = (res: ServerResponse, message: string, param?: string) =>
    json(res, 400, { error: { type: 'invalid_request_error', message, ...(param ? { param } : {}) } });

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  function createSession(form: Record<string, unknown>): StandInSession | string {
    if (form.mode !== 'payment') return 'mode: only payment is supported here';
    const items = form.line_items as Record<string, Record<string, unknown>> | undefined;
    const item = items?.['0'];
    const price = item?.price_data as Record<string, unknown> | undefined;
    const amount = Number(price?.unit_amount);
    const currency = String(price?.currency ?? '');
    if (!item || !price || !Number.isInteger(amount) || amount < 1 || !/^[a-z]{3}$/.test(currency))
      return 'line_items[0][price_data]: unit_amount and currency are required';
    if (typeof form.success_url !== 'string' || typeof form.cancel_url !== 'string')
      return 'success_url and cancel_url are required';
    const expires = form.expires_at ? Number(form.expires_at) : nowS() + 86_400;
    if (expires < nowS() + 1800 - 5 || expires > nowS() + 86_400 + 5)
      return 'expires_at: must be between 30 minutes and 24 hours from now';
    const sessionId = id('cs_test');
    const product = (price.product_data as Record<string, unknown> | undefined)?.name;
    return {
      id: sessionId,
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      payment_intent: null,
      client_reference_id: typeof form.client_reference_id === 'string' ? form.client_reference_id : null,
      metadata: (form.metadata as Record<string, string>) ?? {},
      amount_subtotal: amount * Number(item.quantity ?? 1),
      amount_total: amount * Number(item.quantity ?? 1),
      total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
      currency,
      customer_details: null,
      customer_email: typeof form.customer_email === 'string' ? form.customer_email : null,
      success_url: form.success_url,
      cancel_url: form.cancel_url,
      url: `${origin}/c/pay/${sessionId}`,
      expires_at: expires,
      created: nowS(),
      automatic_tax: { enabled: (form.automatic_tax as { enabled?: string } | undefined)?.enabled === 'true' },
      line_items_name: String(product ?? ''),
    };
  }

  /** The session as the API answers it (without the stand-in's own field). */
  const api = (s: StandInSession) => {
    const { line_items_name: _, ...rest } = s;
    return rest;
  };

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', origin);
      const path = url.pathname;
      // The hosted checkout page: a form whose button pays (no key needed: it is the buyer's page).
      const pageMatch = /^\/c\/pay\/([\w]+)$/.exec(path);
      if (pageMatch) {
        const s = sessions.get(pageMatch[1]!);
        if (!s) return void res.writeHead(404).end('No such checkout');
        if (req.method === 'POST') {
          await readBody(req);
          if (s.status === 'open') await pay(s.id);
          res.writeHead(303, { location: s.success_url.replace('{CHECKOUT_SESSION_ID}', s.id) });
          return void res.end();
        }
        const amount = (s.amount_total / 100).toFixed(2);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return void res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Stripe stand-in checkout</title></head><body><main><h1>Stripe stand-in checkout</h1>
<p>${escapeHtml(s.line_items_name)}</p><p>Total: <strong>${amount} ${s.currency.toUpperCase()}</strong></p>
${s.status === 'open' ? `<form method="post"><button type="submit">Pay ${amount} ${s.currency.toUpperCase()}</button></form><p><a href="${escapeHtml(s.cancel_url)}">Cancel and go back</a></p>` : `<p>This checkout is ${s.status}.</p>`}
</main></body></html>`);
      }

      if (!path.startsWith('/v1/'))
        return json(res, 404, { error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } });
      if (req.headers.authorization !== `Bearer ${STAND_IN_KEYS.secretKey}`)
        return json(res, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      const body = req.method === 'POST' ? await readBody(req) : '';
      const key = req.headers['idempotency-key'];
      const idemKey = typeof key === 'string' ? `${path}:${key}` : null;
      const saved = idemKey ? idempotent.get(idemKey) : undefined;
      // A key used again answers the first request's saved answer, but only for the same
      // parameters: other parameters are an idempotency_error (400).
      if (saved && saved.params !== body)
        return json(res, 400, {
          error: {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${String(key)}' if you meant to execute a different request.`,
          },
        });
      if (saved) {
        res.writeHead(200, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
        return void res.end(saved.answer);
      }
      const answer = (status: number, value: unknown) => {
        if (idemKey && status === 200) idempotent.set(idemKey, { params: body, answer: JSON.stringify(value) });
        json(res, status, value);
      };

      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        const made = createSession(parseForm(body));
        if (typeof made === 'string') return invalid(res, made);
        sessions.set(made.id, made);
        const hold = createHold;
        createHold = null;
        if (hold) {
          // Made and saved under its key; the answer is on its way back slowly.
          idempotent.set(`${path}:${String(key)}`, { params: body, answer: JSON.stringify(api(made)) });
          hold.made();
          await hold.gate;
        }
        return answer(200, api(made));
      }
      const one = /^\/v1\/checkout\/sessions\/([\w]+)$/.exec(path);
      if (req.method === 'GET' && one) {
        standIn.retrieved.push(one[1]!);
        if (standIn.failing.has(one[1]!)) {
          // Told not to retry (Stripe's Stripe-Should-Retry header), so the library throws at once.
          res.writeHead(500, { 'content-type': 'application/json', 'stripe-should-retry': 'false' });
          return void res.end(JSON.stringify({ error: { type: 'api_error', message: 'An unknown error occurred' } }));
        }
        const left = standIn.failNext.get(one[1]!) ?? 0;
        if (left > 0) {
          standIn.failNext.set(one[1]!, left - 1);
          return json(res, 500, { error: { type: 'api_error', message: 'An unknown error occurred' } });
        }
        const s = sessions.get(one[1]!);
        if (!s)
          return json(res, 404, {
            error: {
              type: 'invalid_request_error',
              code: 'resource_missing',
              message: `No such checkout.session: '${one[1]}'`,
            },
          });
        // Stripe expires an open session at its expires_at.
        if (s.status === 'open' && s.expires_at <= nowS()) await standIn.expire(s.id);
        // `expand[]=payment_intent` (the library sends `expand[0]`): the intent's object in place of its id.
        const expand = [...url.searchParams].filter(([k]) => /^expand\[\d*\]$/.test(k)).map(([, v]) => v);
        const intent = s.payment_intent ? intents.get(s.payment_intent) : undefined;
        if (expand.includes('payment_intent') && intent) return json(res, 200, { ...api(s), payment_intent: intent });
        return json(res, 200, api(s));
      }
      if (req.method === 'GET' && path === '/v1/checkout/sessions') {
        const pi = url.searchParams.get('payment_intent');
        const data = [...sessions.values()].filter((s) => !pi || s.payment_intent === pi).reverse();
        const limit = Number(url.searchParams.get('limit') ?? 10);
        return json(res, 200, {
          object: 'list',
          url: '/v1/checkout/sessions',
          has_more: data.length > limit,
          data: data.slice(0, limit).map(api),
        });
      }
      if (req.method === 'POST' && path === '/v1/refunds') {
        const form = parseForm(body);
        const pi = String(form.payment_intent ?? '');
        const charge = charges.get(pi);
        if (!charge) return invalid(res, `No such payment_intent: '${pi}'`, 'payment_intent');
        if (charge.refunded)
          return json(res, 400, {
            error: {
              type: 'invalid_request_error',
              code: 'charge_already_refunded',
              message: `Charge ${charge.id} has already been refunded.`,
            },
          });
        return answer(200, await refundCharge(pi, 'background'));
      }
      return json(res, 404, {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path})` },
      });
    } catch (error) {
      json(res, 500, { error: { type: 'api_error', message: String(error) } });
    }
  });
  await new Promise<void>((ok) => server.listen(opts.port ?? 0, '127.0.0.1', () => ok()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standIn.url = origin;
  return standIn;
}
