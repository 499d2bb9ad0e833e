import { takeOrdersToReconcile } from '../../../db/queries/orders';
import { missingSessionClosable, sessionFinding } from '../../../src/lib/pricing/checkout';
import { stripeFor } from '../clients/stripe';
import type { AppDeps } from '../context';
import { applyEvent, sessionEventInput } from '../lib/order-events';

/** The Worker's Cron Trigger of the reconcile job (wrangler.toml): hourly, at minute 17. */
export const ORDER_RECONCILE_CRON = '17 * * * *';

export type OrderReconcileDeps = Pick<AppDeps, 'db' | 'env' | 'rebuild' | 'fetch'>;

/**
 * One pass of the reconcile job (#30): asks Stripe for the Checkout session of open orders and
 * applies what its webhook would have (paid, a delayed payment failed, expired), so an event
 * Stripe never delivered (or gave up on) loses nothing. Each finding is an event of its own id
 * (`reconcile:{session}:{finding}`, sessionFinding) in the same ledger, so a webhook arriving
 * afterwards, or a second runner, changes nothing.
 * Orders take turns (takeOrdersToReconcile): one Stripe cannot settle yet waits behind the others.
 * A session Stripe does not know (404) closes its order as expired once no session of it could
 * still be paid (missingSessionClosable). Returns how many orders changed.
 */
export async function run(
  deps: OrderReconcileDeps,
  now: number,
  opts: {
    log?: (line: string) => void;
    /**
     * Orders asked per pass, and Stripe calls made at most (the Worker's: each is a subrequest).
     * With it the library retries nothing: a failed call waits for the next pass, which is its
     * retry, instead of adding up to two subrequests each (a pass of calls that failed and then
     * answered went past the invocation's 50).
     */
    limit?: number;
  } = {},
): Promise<number> {
  let calls = 0;
  const send = deps.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const counted: typeof fetch = (...args) => {
    calls++;
    return send(...args);
  };
  const stripe = stripeFor({ env: deps.env, fetch: counted }, opts.limit === undefined ? {} : { maxNetworkRetries: 0 });
  if (!stripe) return 0;
  let changed = 0;
  for (const order of await takeOrdersToReconcile(deps.db, now, opts.limit)) {
    // Within the pass's calls even if the library retried one anyway (a closed connection, once).
    if (opts.limit !== undefined && calls >= opts.limit) break;
    const sessionId = order.stripe_session_id!;
    try {
      const session = await stripe.retrieveSession(sessionId);
      if (!session) {
        if (!missingSessionClosable(order, now)) continue;
        // No payment can reach this order any more: closed as Stripe would have expired it.
        const outcome = await applyEvent(deps, {
          eventId: `reconcile:${sessionId}:missing`,
          type: 'reconcile:session_missing',
          orderId: order.id,
          event: 'expired',
          at: now,
        });
        if (outcome.kind === 'applied' && outcome.order.state !== order.state) changed++;
        opts.log?.(`Reconcile: Stripe has no session ${sessionId} of order ${order.id}; closed as expired`);
        continue;
      }
      const found = sessionFinding(session);
      if (!found) continue;
      const { type } = found;
      const input = await sessionEventInput(deps, `reconcile:${session.id}:${found.finding}`, type, session, now);
      const outcome = await applyEvent(deps, { ...input, type: `reconcile:${type}` });
      if (outcome.kind === 'applied' && outcome.order.state !== order.state) changed++;
    } catch (error) {
      opts.log?.(`Reconcile of order ${order.id} failed: ${String(error)}`);
    }
  }
  return changed;
}
