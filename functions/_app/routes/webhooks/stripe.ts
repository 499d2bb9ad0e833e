import { Hono } from 'hono';
import type Stripe from 'stripe';
import type { OrderEventInput } from '../../../../db/queries/orders';
import { stripeFor, toCheckoutSession } from '../../clients/stripe';
import type { AppDeps, AppEnv } from '../../context';
import { ApiError } from '../../lib/errors';
import { applyEvent, chargeEventInput, sessionEventInput } from '../../lib/order-events';
import { bodyLimit } from '../../middleware/body-limit';

/** Stripe's events are larger than the app's forms; a checkout or charge event is a few kB. */
const WEBHOOK_BODY_LIMIT = 256 * 1024;

/** The Checkout events the endpoint acts on; every other event is recorded and answered 200. */
const SESSION_EVENTS = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
]);
const CHARGE_EVENTS = new Set(['charge.refunded', 'charge.dispute.created', 'charge.dispute.closed']);

/**
 * `POST /api/webhooks/stripe` (#30): Stripe's signed events. The signature is checked by the
 * library over the raw body (300 s tolerance) before anything is read; then the event goes through
 * the order machine once (its id in the ledger: a replay changes nothing and answers 200), in one
 * batch with its effects. Answers 200 once stored, 400 for a bad signature, 5xx (Stripe retries)
 * when the database or Stripe's API cannot be reached.
 */
export const stripeWebhookRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>().post(
    '/',
    bodyLimit({
      maxSize: WEBHOOK_BODY_LIMIT,
      onError: () => {
        throw new ApiError(413, 'payload_too_large', 'The event is too large');
      },
    }),
    async (c) => {
      const stripe = stripeFor(deps);
      if (!stripe) throw new ApiError(503, 'payments_not_configured', 'Payments are not configured on this site');
      const signature = c.req.header('stripe-signature');
      if (!signature) throw new ApiError(400, 'signature_missing', 'The Stripe-Signature header is missing');
      const raw = await c.req.text();
      const at = deps.now?.() ?? Date.now();
      let event: Awaited<ReturnType<typeof stripe.verifyEvent>>;
      try {
        event = await stripe.verifyEvent(raw, signature, at);
      } catch {
        throw new ApiError(400, 'signature_invalid', 'The signature does not match, or the event is too old');
      }
      const object = event.data.object as unknown as Record<string, unknown>;
      let input: OrderEventInput;
      if (SESSION_EVENTS.has(event.type)) {
        const session = toCheckoutSession(object as unknown as Stripe.Checkout.Session);
        input = await sessionEventInput(deps, event.id, event.type, session, at);
      } else if (CHARGE_EVENTS.has(event.type)) {
        input = await chargeEventInput(deps, stripe, event.id, event.type, object, at);
      } else {
        input = { eventId: event.id, type: event.type, orderId: null, event: null, at };
      }
      const outcome = await applyEvent(deps, input);
      return c.json({
        received: true as const,
        outcome: outcome.kind,
        ...(outcome.kind === 'applied' ? { state: outcome.order.state } : {}),
      });
    },
  );
