import { openOrdersWithSessions } from '../../../db/queries/orders';
import { stripeFor } from '../clients/stripe';
import type { AppDeps } from '../context';
import { applyEvent, sessionEventInput } from '../lib/order-events';

/** The Worker's Cron Trigger of the reconcile job (wrangler.toml): hourly, at minute 17. */
export const ORDER_RECONCILE_CRON = '17 * * * *';

export type OrderReconcileDeps = Pick<AppDeps, 'db' | 'env' | 'rebuild' | 'fetch'>;

/**
 * One pass of the reconcile job (#30): asks Stripe for the Checkout session of every open order
 * and applies what its webhook would have (paid, expired), so an event Stripe never delivered (or
 * gave up on) loses nothing. Each finding is an event of its own id (`reconcile:{session}:{status}`)
 * in the same ledger, so a webhook arriving afterwards, or a second runner, changes nothing.
 * Returns how many orders changed.
 */
export async function run(
  deps: OrderReconcileDeps,
  now: number,
  opts: { log?: (line: string) => void; limit?: number } = {},
): Promise<number> {
  const stripe = stripeFor(deps);
  if (!stripe) return 0;
  let changed = 0;
  // The oldest first: their sessions are the ones Stripe has closed (paid or expired).
  for (const order of await openOrdersWithSessions(deps.db, opts.limit)) {
    try {
      const session = await stripe.retrieveSession(order.stripe_session_id!);
      const type =
        session.status === 'complete' && session.payment_status === 'paid'
          ? 'checkout.session.completed'
          : session.status === 'expired'
            ? 'checkout.session.expired'
            : null;
      if (!type) continue;
      const input = await sessionEventInput(deps, `reconcile:${session.id}:${session.status}`, type, session, now);
      const outcome = await applyEvent(deps, { ...input, type: `reconcile:${type}` });
      if (outcome.kind === 'applied' && outcome.order.state !== order.state) changed++;
    } catch (error) {
      opts.log?.(`Reconcile of order ${order.id} failed: ${String(error)}`);
    }
  }
  return changed;
}
