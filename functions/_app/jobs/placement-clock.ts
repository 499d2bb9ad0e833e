import { enqueueMail } from '../../../db/queries/mail';
import {
  listingsOutOfStep,
  nextTermOf,
  ordersDueToEnd,
  ordersToRemind,
  syncListings,
} from '../../../db/queries/orders';
import { getServerById } from '../../../db/queries/servers';
import { notifyOwner } from '../../../db/queries/webhooks';
import { REMINDER_DAYS } from '../../../src/lib/pricing/plans';
import type { AppDeps } from '../context';
import { applyEvent } from '../lib/order-events';
import { preparePublish } from '../lib/site-changes';
import { placementReminderMail } from '../mail/orders';
import { mailSite } from '../mail/site';

export type PlacementClockDeps = Pick<AppDeps, 'db' | 'env' | 'rebuild'>;

/**
 * One tick of the placement clock (#30), so expiry needs no operator: ends the paid orders whose
 * term is over (the order machine's `ended`: the end mail, the listing's flags), starts scheduled
 * slots whose time has come (flags brought in step with the orders, in one batch with the record
 * of the pages they change for the rebuild), and queues the reminder 3 days before a slot ends
 * (mail and webhook notice together). Idempotent: ends are events of their own id
 * (`clock:ended:{order}`), reminders have their outbox key.
 */
export async function run(
  deps: PlacementClockDeps,
  now: number,
): Promise<{ ended: number; synced: number; reminded: number }> {
  let ended = 0;
  const at = new Date(now).toISOString();
  for (const order of await ordersDueToEnd(deps.db, at)) {
    const outcome = await applyEvent(deps, {
      eventId: `clock:ended:${order.id}`,
      type: 'clock',
      orderId: order.id,
      event: 'ended',
      at: now,
    });
    if (outcome.kind === 'applied') ended++;
  }
  const stale = await listingsOutOfStep(deps.db, at);
  if (stale.length > 0) {
    // The flags and the record of the pages they change in one batch: a record written after them
    // could fail and leave the change unpublished for good (the next tick finds them in step).
    const reason =
      stale.length <= 3
        ? `placement of ${stale.map((s) => s.slug).join(', ')} started or ended`
        : `placements of ${stale.length} listings started or ended`;
    const pages = stale.map((s) => `/server/${s.slug}`);
    const change = preparePublish(deps.rebuild, deps.db, reason, pages);
    await syncListings(
      deps.db,
      stale.map((s) => s.id),
      at,
      change.statements,
    );
    // Each change recorded before the tick ends: the Worker's invocation may end right after it.
    await change.requested();
  }
  const site = mailSite(deps.env);
  let reminded = 0;
  for (const order of await ordersToRemind(deps.db, now, REMINDER_DAYS)) {
    const listing = order.server_id === null ? null : await getServerById(deps.db, order.server_id);
    if (!listing) continue;
    // A next term booked to start later (waiting for a Sponsored slot): the reminder says when, not "buy again".
    const next = await nextTermOf(deps.db, order);
    // The mail and the buyer's Discord webhook notice (#32) in one batch: the mail's key is what
    // marks the order reminded (ordersToRemind), so a notice written after it could be lost for good.
    await deps.db.batch([
      enqueueMail(deps.db, {
        kind: 'placement_reminder',
        dedupeKey: `placement_reminder:${order.id}`,
        to: order.customer_email!,
        mail: placementReminderMail(site, order, listing, next),
      }),
      ...(order.owner_id !== null && order.ends_at
        ? [
            notifyOwner(
              deps.db,
              { ownerId: order.owner_id },
              {
                kind: 'placement_ending',
                serverName: listing.name,
                endsAt: order.ends_at,
                nextStartsAt: next?.starts_at ?? null,
              },
              `placement-ending:${order.id}`,
            ),
          ]
        : []),
    ]);
    reminded++;
  }
  return { ended, synced: stale.length, reminded };
}
