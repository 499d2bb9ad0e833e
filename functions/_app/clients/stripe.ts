import type Stripe from 'stripe';
import type { AppDeps } from '../context';
import type { Env } from '../env';

/** Seconds between an event's signing time and its arrival that the webhook accepts (Stripe's libraries' default). */
export const WEBHOOK_TOLERANCE_S = 300;

/** A Checkout session as the app reads it. */
export interface CheckoutSession {
  id: string;
  /** 'open', 'complete' or 'expired'. */
  status: string | null;
  /** 'paid', 'unpaid' or 'no_payment_required'. */
  payment_status: string;
  payment_intent: string | null;
  /** The payment intent's status when it came expanded (the reconcile job's retrieve), else null. */
  payment_intent_status: string | null;
  customer_email: string | null;
  /** The order id the app put in `client_reference_id`. */
  order_id: number | null;
  url: string | null;
  /** Unix seconds. */
  expires_at: number;
  /** Before discounts and tax: the price the app asked for. */
  amount_subtotal: number | null;
  /** After discounts and tax (Stripe Tax adds exclusive tax on top): what the payer paid. */
  amount_total: number | null;
  currency: string | null;
}

/** What the app asks Checkout for: one line, its amount and currency from the plans table, never from a browser. */
export interface CheckoutInput {
  orderId: number;
  listingId: number;
  productName: string;
  description: string;
  amountCents: number;
  currency: string;
  successUrl: string;
  cancelUrl: string;
  /** Unix seconds: Stripe allows 30 minutes to 24 hours from now. */
  expiresAt: number;
}

/** The calls the app makes to Stripe (#30), and the webhook's signature check. */
export interface StripeClient {
  createCheckout(input: CheckoutInput): Promise<CheckoutSession>;
  /**
   * A Checkout session with its payment intent expanded (in the same call: whether a delayed
   * payment failed), or null when Stripe answers 404 `resource_missing` ("No such
   * checkout.session": this key's account and mode have none of that id, e.g. one made with a
   * test key when the site now runs live, or with another account's key). Other errors throw.
   */
  retrieveSession(id: string): Promise<CheckoutSession | null>;
  /** The Checkout session that made a payment intent, or null (a charge not from this site's checkout). */
  sessionOfPaymentIntent(paymentIntent: string): Promise<CheckoutSession | null>;
  /** Refunds a payment in full; answers the refund's id and amount; throws StripeRefusal when Stripe refuses it. */
  refund(paymentIntent: string, orderId: number): Promise<{ id: string; amount: number }>;
  /**
   * The event of a webhook delivery, verified with the library (HMAC-SHA256 over the raw body on
   * WebCrypto, so the same code runs on the Worker); throws on a bad signature or an old timestamp.
   */
  verifyEvent(rawBody: string, signature: string, nowMs: number): Promise<Stripe.Event>;
}

/** A Checkout session of the API or of an event, as the app reads it. */
export const toCheckoutSession = (s: Stripe.Checkout.Session): CheckoutSession => {
  const ref = Number(s.client_reference_id ?? s.metadata?.order_id);
  return {
    id: s.id,
    status: s.status ?? null,
    payment_status: s.payment_status,
    payment_intent: typeof s.payment_intent === 'string' ? s.payment_intent : (s.payment_intent?.id ?? null),
    payment_intent_status: typeof s.payment_intent === 'object' && s.payment_intent ? s.payment_intent.status : null,
    customer_email: s.customer_details?.email ?? s.customer_email ?? null,
    order_id: Number.isSafeInteger(ref) && ref > 0 ? ref : null,
    url: s.url ?? null,
    expires_at: s.expires_at ?? 0,
    amount_subtotal: s.amount_subtotal ?? null,
    amount_total: s.amount_total ?? null,
    currency: s.currency ?? null,
  };
};

/**
 * Stripe's refusal of a request it read (a 4xx invalid_request_error: a charge already refunded, a
 * disputed charge it will not refund), with its message: not a Stripe that did not answer.
 */
export class StripeRefusal extends Error {
  constructor(
    message: string,
    readonly code: string | null,
  ) {
    super(message);
    this.name = 'StripeRefusal';
  }
}

/** Stripe's answer that an object of that id does not exist for this key (HTTP 404, code `resource_missing`). */
const isResourceMissing = (error: unknown): boolean => {
  const e = error as { statusCode?: unknown; code?: unknown } | null;
  return e?.statusCode === 404 && e.code === 'resource_missing';
};

/** Whether payments are configured: both Stripe secrets are set (env.ts refuses one alone). */
export const paymentsConfigured = (env: Pick<Env, 'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET'>): boolean =>
  Boolean(env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET);

/**
 * Stripe's SDK, imported at its first use: about 475 modules, which every process that loads the
 * app (the server, each job and script) would otherwise load at start whether it takes a payment or not.
 */
let sdk: Promise<typeof Stripe> | undefined;
const loadSdk = (): Promise<typeof Stripe> => {
  sdk ??= import('stripe').then((m) => m.default);
  return sdk;
};

/** Retries of a failed call the library makes by itself (a 5xx, a 409, a lost connection), with backoff. */
const STRIPE_NETWORK_RETRIES = 2;

/**
 * The Stripe client from STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_API_BASE, or null
 * without keys. The library runs on its fetch HTTP client and WebCrypto on Node and the Worker alike.
 * `maxNetworkRetries`: the library's own retries of a failed call (STRIPE_NETWORK_RETRIES by
 * default); each is one more subrequest on the Worker.
 */
export function stripeFor(
  deps: Pick<AppDeps, 'env' | 'fetch'>,
  opts: { maxNetworkRetries?: number } = {},
): StripeClient | null {
  const { STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_API_BASE, STRIPE_AUTOMATIC_TAX } = deps.env;
  if (!STRIPE_SECRET_KEY || !STRIPE_WEBHOOK_SECRET) return null;
  const base = new URL(STRIPE_API_BASE);
  let made: Promise<{ stripe: Stripe; crypto: Stripe.CryptoProvider }> | undefined;
  const sdkClient = () => {
    made ??= loadSdk().then((StripeSdk) => ({
      stripe: new StripeSdk(STRIPE_SECRET_KEY, {
        httpClient: StripeSdk.createFetchHttpClient(deps.fetch ?? fetch),
        host: base.hostname,
        port: base.port || (base.protocol === 'http:' ? 80 : 443),
        protocol: base.protocol === 'http:' ? 'http' : 'https',
        maxNetworkRetries: opts.maxNetworkRetries ?? STRIPE_NETWORK_RETRIES,
        timeout: 20_000,
        telemetry: false,
      }),
      crypto: StripeSdk.createSubtleCryptoProvider(),
    }));
    return made;
  };
  return {
    async createCheckout(input) {
      const { stripe } = await sdkClient();
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          client_reference_id: String(input.orderId),
          metadata: { order_id: String(input.orderId), listing_id: String(input.listingId) },
          payment_intent_data: { metadata: { order_id: String(input.orderId) } },
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: input.currency,
                unit_amount: input.amountCents,
                product_data: { name: input.productName, description: input.description },
              },
            },
          ],
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          expires_at: input.expiresAt,
          ...(STRIPE_AUTOMATIC_TAX ? { automatic_tax: { enabled: true } } : {}),
        },
        // A retried create (a lost answer) gives the same session, never a second one.
        { idempotencyKey: `checkout-order-${input.orderId}` },
      );
      return toCheckoutSession(session);
    },
    async retrieveSession(id) {
      const { stripe } = await sdkClient();
      try {
        return toCheckoutSession(await stripe.checkout.sessions.retrieve(id, { expand: ['payment_intent'] }));
      } catch (error) {
        if (isResourceMissing(error)) return null;
        throw error;
      }
    },
    async sessionOfPaymentIntent(paymentIntent) {
      const { stripe } = await sdkClient();
      const list = await stripe.checkout.sessions.list({ payment_intent: paymentIntent, limit: 1 });
      const first = list.data[0];
      return first ? toCheckoutSession(first) : null;
    },
    async refund(paymentIntent, orderId) {
      const { stripe } = await sdkClient();
      try {
        const refund = await stripe.refunds.create(
          { payment_intent: paymentIntent, metadata: { order_id: String(orderId) } },
          { idempotencyKey: `refund-order-${orderId}` },
        );
        return { id: refund.id, amount: refund.amount };
      } catch (error) {
        const e = error as { type?: unknown; message?: unknown; code?: unknown } | null;
        if (e?.type === 'StripeInvalidRequestError' && typeof e.message === 'string')
          throw new StripeRefusal(e.message, typeof e.code === 'string' ? e.code : null);
        throw error;
      }
    },
    async verifyEvent(rawBody, signature, nowMs) {
      const { stripe, crypto } = await sdkClient();
      return stripe.webhooks.constructEventAsync(
        rawBody,
        signature,
        STRIPE_WEBHOOK_SECRET,
        WEBHOOK_TOLERANCE_S,
        crypto,
        nowMs,
      );
    },
  };
}
