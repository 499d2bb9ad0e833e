// Paid placement (#30): plans, orders, the Stripe event ledger, and the listing flags that follow
// the orders. Every event (a webhook, a refund made through the API, the reconcile job, the clock)
// goes through applyOrderEvent: the order machine's transition and its effects in ONE batch,
// applied only over the order version it was computed from, with the event id recorded once.
import { and, asc, desc, eq, gt, inArray, isNotNull, lte, ne, or, type SQL, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { MailKind, OrderState, Placement } from '../../src/lib/enums';
import type { SlotHolder } from '../../src/lib/pricing/category-change';
import {
  MAIL_EFFECTS,
  type MailEffect,
  MONEY_HELD_STATES,
  type OrderEffect,
  type OrderEvent,
  transition,
} from '../../src/lib/pricing/order-machine';
import { DAY_MS, refundedPriceCents } from '../../src/lib/pricing/plans';
import {
  type BookedTerm,
  type ListingTerm,
  movedUp,
  nextSlotStart,
  overlapping,
  type Slot,
} from '../../src/lib/pricing/slots';
import type { Db } from '../client';
import {
  dailyRevenue,
  discordServers,
  type OrderRow,
  orderRefunds,
  orders,
  type PlanRow,
  plans,
  stripeEvents,
} from '../schema';
import { type AuditWrite, withAudit } from './audit';
import { enqueueMailWhen, type RenderedMail } from './mail';
import { type ownerAuditRow, ownerAuditRowWhen } from './owners';

const iso = (ms: number) => new Date(ms).toISOString();
const newVersion = () => crypto.randomUUID();

// ---------------------------------------------------------------- plans

/** The plans, cheapest first within each placement; `activeOnly` for what can be bought. */
export async function listPlans(db: Db, opts: { activeOnly?: boolean } = {}): Promise<PlanRow[]> {
  return db
    .select()
    .from(plans)
    .where(opts.activeOnly ? eq(plans.active, true) : undefined)
    .orderBy(asc(plans.placement), asc(plans.term_days), asc(plans.id));
}

export async function getPlan(db: Db, id: number): Promise<PlanRow | null> {
  const [row] = await db.select().from(plans).where(eq(plans.id, id));
  return row ?? null;
}

/** An admin's change of a plan; orders already made keep the price and term they were sold at. */
/** Changes a plan; `audit`, the operator's audit row, in the same batch. */
export async function updatePlan(
  db: Db,
  id: number,
  changes: { [K in 'name' | 'term_days' | 'price_cents' | 'currency' | 'active']?: PlanRow[K] | undefined },
  audit?: AuditWrite,
): Promise<PlanRow | null> {
  const update = db
    .update(plans)
    .set({ ...changes, updated_at: sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))` })
    .where(eq(plans.id, id))
    .returning();
  const [row] = await withAudit(db, update, audit);
  return row ?? null;
}

/** Adds a plan; `audit`, the operator's audit row (its entity: INSERTED_ID), in the same batch. */
export async function createPlan(
  db: Db,
  input: Pick<PlanRow, 'name' | 'placement' | 'term_days' | 'price_cents' | 'currency'>,
  audit?: AuditWrite,
): Promise<PlanRow> {
  const [row] = await withAudit(db, db.insert(plans).values(input).returning(), audit);
  return row!;
}

// ---------------------------------------------------------------- orders

export async function getOrder(db: Db, id: number): Promise<OrderRow | null> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id));
  return row ?? null;
}

export async function orderBySession(db: Db, sessionId: string): Promise<OrderRow | null> {
  const [row] = await db.select().from(orders).where(eq(orders.stripe_session_id, sessionId));
  return row ?? null;
}

export async function orderByPaymentIntent(db: Db, paymentIntent: string): Promise<OrderRow | null> {
  const [row] = await db.select().from(orders).where(eq(orders.stripe_payment_intent, paymentIntent));
  return row ?? null;
}

/** The open checkout of a listing and plan, if any (at most one: a partial unique index). */
export async function openOrderFor(db: Db, serverId: number, planId: number): Promise<OrderRow | null> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.server_id, serverId), eq(orders.plan_id, planId), eq(orders.state, 'open')));
  return row ?? null;
}

/** The orders of a listing that may still hold money (open, paid or disputed): what keeps it from deletion (removalRefusal). */
export async function ordersHoldingListing(
  db: Db,
  serverId: number,
): Promise<Pick<OrderRow, 'id' | 'state' | 'kind'>[]> {
  return db
    .select({ id: orders.id, state: orders.state, kind: orders.kind })
    .from(orders)
    .where(and(eq(orders.server_id, serverId), holdsMoney));
}

/**
 * An order that may still hold money or take it (MONEY_HELD_STATES), checkouts only: comps hold
 * none, and an open order whose Checkout session was never made can take none. deleteServer keeps
 * a listing while one of its orders is such; ordersHoldingListing says which.
 */
export const holdsMoney = sql`(${orders.kind} = 'checkout' AND ${orders.state} IN (${sql.join(
  MONEY_HELD_STATES.map((s) => sql`${s}`),
  sql`, `,
)}) AND (${orders.state} <> 'open' OR ${orders.stripe_session_id} IS NOT NULL))`;

/** The listing's name as the order keeps it (read in the INSERT: the order outlives the listing). */
const listingName = (serverId: number) =>
  sql`coalesce((SELECT name FROM ${discordServers} WHERE id = ${serverId}), '')`;

/**
 * Opens the order of a checkout, with the plan's price and term copied and its session's expiry
 * fixed (`checkoutExpiresAt`, ms, whole seconds), so every request for this order asks Stripe for
 * the same session; the existing open order instead when there is one (two clicks or two tabs make
 * one checkout).
 */
export async function openOrder(
  db: Db,
  input: { serverId: number; ownerId: number; plan: PlanRow; category: string; checkoutExpiresAt: number },
): Promise<{ order: OrderRow; created: boolean }> {
  const [row] = await db
    .insert(orders)
    .values({
      server_id: input.serverId,
      server_name: listingName(input.serverId),
      owner_id: input.ownerId,
      plan_id: input.plan.id,
      kind: 'checkout',
      placement: input.plan.placement,
      category: input.category,
      term_days: input.plan.term_days,
      amount_cents: input.plan.price_cents,
      currency: input.plan.currency,
      state: 'open',
      checkout_expires_at: iso(input.checkoutExpiresAt),
      version: newVersion(),
    })
    .onConflictDoNothing()
    .returning();
  if (row) return { order: row, created: true };
  const existing = await openOrderFor(db, input.serverId, input.plan.id);
  if (!existing) throw new Error('open order vanished');
  return { order: existing, created: false };
}

/**
 * Stores the Checkout session of an open order (its id, page and expiry); false when the order is
 * no longer open or holds another session (a click racing this one closed it), and nothing is written.
 */
export async function attachSession(
  db: Db,
  orderId: number,
  session: { id: string; url: string | null; expires_at: number },
  /** The owner's audit row of the checkout, written in the same batch. */
  audit?: { owner: Parameters<typeof ownerAuditRow>[1]; entry: Parameters<typeof ownerAuditRow>[2] },
): Promise<boolean> {
  const attach = db
    .update(orders)
    .set({
      stripe_session_id: session.id,
      checkout_url: session.url,
      checkout_expires_at: iso(session.expires_at * 1000),
      version: newVersion(),
    })
    .where(
      and(
        eq(orders.id, orderId),
        eq(orders.state, 'open'),
        sql`(${orders.stripe_session_id} IS NULL OR ${orders.stripe_session_id} = ${session.id})`,
      ),
    );
  if (!audit) return (await attach).rowsAffected === 1;
  // The audit row only with the session stored: changes() is the UPDATE's count in this batch.
  const [attached] = await db.batch([attach, ownerAuditRowWhen(db, audit.owner, audit.entry, sql`changes() = 1`)]);
  return attached.rowsAffected === 1;
}

/** Removes an open order whose checkout could not be created (nothing was sold). */
export async function dropUnstartedOrder(db: Db, orderId: number): Promise<void> {
  await db.delete(orders).where(and(eq(orders.id, orderId), eq(orders.state, 'open'), sql`stripe_session_id IS NULL`));
}

/**
 * The listing's Sponsored orders that hold a slot of a category other than `category` from `atIso`
 * on (paid, running or booked, as takenSlots counts them), or may still take one (an open checkout
 * whose session Stripe can still be paid on): a change of the listing's category to `category`
 * would move their card away from their slot (categoryChangeRefusal). Premium is capped nowhere.
 */
function slotsElsewhere(serverId: number, category: string, atIso: string): SQL {
  return and(
    eq(orders.server_id, serverId),
    eq(orders.placement, 'sponsored'),
    ne(orders.category, category),
    or(
      and(eq(orders.state, 'paid'), gt(orders.ends_at, atIso)),
      and(eq(orders.state, 'open'), eq(orders.kind, 'checkout'), isNotNull(orders.stripe_session_id)),
    ),
  )!;
}

/** The orders slotsElsewhere names, for the refusal's words. */
export async function sponsoredSlotsElsewhere(
  db: Db,
  serverId: number,
  category: string,
  atIso: string,
): Promise<SlotHolder[]> {
  const rows = await db
    .select({ kind: orders.kind, state: orders.state, category: orders.category, ends_at: orders.ends_at })
    .from(orders)
    .where(slotsElsewhere(serverId, category, atIso));
  return rows.filter((r): r is SlotHolder => r.state === 'paid' || r.state === 'open');
}

/** Holds while no order slotsElsewhere names exists: the guard of a listing's category change, in its UPDATE. */
export const noSlotsElsewhere = (serverId: number, category: string, atIso: string): SQL =>
  sql`NOT EXISTS (SELECT 1 FROM ${orders} WHERE ${slotsElsewhere(serverId, category, atIso)})`;

/** Sponsored slots taken (paid, running or scheduled) in a category from `fromIso` on, other than `exceptId`'s. */
export async function takenSlots(db: Db, category: string, fromIso: string, exceptId = 0): Promise<Slot[]> {
  const rows = await db
    .select({ starts_at: orders.starts_at, ends_at: orders.ends_at })
    .from(orders)
    .where(
      and(
        eq(orders.placement, 'sponsored'),
        eq(orders.category, category),
        eq(orders.state, 'paid'),
        // A deleted listing's order (a comp it had) shows nothing: it holds no slot.
        isNotNull(orders.server_id),
        gt(orders.ends_at, fromIso),
        ne(orders.id, exceptId),
      ),
    );
  return rows
    .filter((r) => r.starts_at && r.ends_at)
    .map((r) => ({ start: Date.parse(r.starts_at!), end: Date.parse(r.ends_at!) }));
}

/**
 * When a listing's paid terms of `placement` that run or are scheduled after `fromIso` end (ms),
 * other than `exceptId`'s, or null: a new term of the same placement starts then, never paying for
 * the same days twice.
 */
export async function listingTermEnd(
  db: Db,
  serverId: number,
  placement: Placement,
  fromIso: string,
  exceptId = 0,
): Promise<number | null> {
  const [row] = await db
    .select({ end: sql<string | null>`max(${orders.ends_at})` })
    .from(orders)
    .where(
      and(
        eq(orders.server_id, serverId),
        eq(orders.placement, placement),
        eq(orders.state, 'paid'),
        gt(orders.ends_at, fromIso),
        ne(orders.id, exceptId),
      ),
    );
  return row?.end ? Date.parse(row.end) : null;
}

/**
 * What an order's activation at `at` needs, in one read (the Worker counts each query): the
 * sponsored slots taken in its category (as takenSlots reads them) and the ends of its listing's
 * other paid terms of its placement that run or are booked after `at` (as listingTermEnd reads them).
 */
async function placementFacts(
  db: Db,
  order: OrderRow,
  at: string,
): Promise<{ taken: BookedTerm[]; own: BookedTerm[] }> {
  const sameSlots =
    order.placement === 'sponsored'
      ? sql`(${orders.placement} = 'sponsored' AND ${orders.category} = ${order.category} AND ${orders.server_id} IS NOT NULL)`
      : sql`0`;
  const sameListing =
    order.server_id === null
      ? sql`0`
      : sql`(${orders.server_id} = ${order.server_id} AND ${orders.placement} = ${order.placement})`;
  const rows = await db
    .select({
      id: orders.id,
      server_id: orders.server_id,
      placement: orders.placement,
      category: orders.category,
      starts_at: orders.starts_at,
      ends_at: orders.ends_at,
    })
    .from(orders)
    .where(
      and(
        eq(orders.state, 'paid'),
        gt(orders.ends_at, at),
        ne(orders.id, order.id),
        sql`(${sameSlots} OR ${sameListing})`,
      ),
    );
  const dated = rows
    .filter((r) => r.starts_at && r.ends_at)
    .map((r) => ({ ...r, start: Date.parse(r.starts_at!), end: Date.parse(r.ends_at!) }));
  const taken =
    order.placement === 'sponsored'
      ? dated
          .filter((r) => r.placement === 'sponsored' && r.category === order.category && r.server_id !== null)
          .map((r) => ({ id: r.id, start: r.start, end: r.end }))
      : [];
  const own = dated
    .filter((r) => r.server_id !== null && r.server_id === order.server_id && r.placement === order.placement)
    .map((r) => ({ id: r.id, start: r.start, end: r.end }));
  return { taken, own };
}

/** A paid term a refund may move up (queueFacts): its order as the move and its payer's mail need it. */
interface QueuedOrder extends ListingTerm {
  version: string;
  category: string;
  kind: OrderRow['kind'];
  term_days: number;
  customer_email: string | null;
}

/**
 * What a refund of `order` at `at` that ends its term early needs to move terms up into the days it
 * gives back, in one read: the paid terms of its placement that run or are booked after `at`, other
 * than its own. Premium: its listing's. Sponsored: every listing's of its category (a term waiting
 * for a slot may take the one freed) and all the Sponsored terms of those listings (of any category:
 * a listing's terms never overlap). `queue`, the ones that may move (not started; Sponsored: of the
 * category); `held`, the rest; `taken`, the category's slots that stay (Sponsored only).
 */
async function queueFacts(
  db: Db,
  order: OrderRow & { server_id: number },
  at: number,
): Promise<{ queue: QueuedOrder[]; held: ListingTerm[]; taken: Slot[] }> {
  const sponsored = order.placement === 'sponsored';
  const inCategory = sql`${orders.placement} = 'sponsored' AND ${orders.category} = ${order.category} AND ${orders.server_id} IS NOT NULL`;
  const rows = await db
    .select({
      id: orders.id,
      version: orders.version,
      server_id: orders.server_id,
      category: orders.category,
      kind: orders.kind,
      term_days: orders.term_days,
      customer_email: orders.customer_email,
      starts_at: orders.starts_at,
      ends_at: orders.ends_at,
    })
    .from(orders)
    .where(
      and(
        eq(orders.state, 'paid'),
        eq(orders.placement, order.placement),
        gt(orders.ends_at, iso(at)),
        ne(orders.id, order.id),
        sponsored
          ? sql`${orders.server_id} IN (SELECT ${orders.server_id} FROM ${orders} WHERE ${inCategory} AND ${orders.state} = 'paid' AND ${orders.ends_at} > ${iso(at)})`
          : eq(orders.server_id, order.server_id),
      ),
    );
  const terms = rows
    .filter((r) => r.starts_at && r.ends_at && r.server_id !== null)
    .map((r) => ({ ...r, listing: r.server_id!, start: Date.parse(r.starts_at!), end: Date.parse(r.ends_at!) }));
  const mayMove = (r: (typeof terms)[number]) => r.start > at && (!sponsored || r.category === order.category);
  return {
    queue: terms.filter(mayMove),
    held: terms.filter((r) => !mayMove(r)),
    taken: sponsored ? terms.filter((r) => !mayMove(r) && r.category === order.category) : [],
  };
}

/**
 * Whether [startIso, endIso) is free for a term of `o`'s listing and placement (SQL, checked in the
 * write itself, so two events at the same moment cannot both take the same days): no other paid
 * term of the listing and placement overlaps it, and for Sponsored fewer than `cap` of its
 * category's slots do; the orders in `except` not counted, and `also` more slots counted (terms
 * of `except` at the dates the same batch gives them).
 */
function termFits(
  o: Pick<OrderRow, 'server_id' | 'placement' | 'category'>,
  startIso: string,
  endIso: string,
  except: readonly number[],
  cap: number,
  also = 0,
): SQL {
  const others = sql.join(
    except.map((id) => sql`${id}`),
    sql`, `,
  );
  const guards: SQL[] = [];
  if (o.server_id !== null)
    guards.push(sql`NOT EXISTS (SELECT 1 FROM orders y WHERE y.server_id = ${o.server_id} AND y.placement = ${o.placement}
  AND y.state = 'paid' AND y.id NOT IN (${others}) AND y.starts_at < ${endIso} AND y.ends_at > ${startIso})`);
  if (o.placement === 'sponsored')
    guards.push(sql`(SELECT count(*) FROM orders x WHERE x.placement = 'sponsored' AND x.category = ${o.category}
  AND x.state = 'paid' AND x.server_id IS NOT NULL AND x.id NOT IN (${others}) AND x.starts_at < ${endIso} AND x.ends_at > ${startIso}) + ${also} < ${cap}`);
  return guards.length > 0 ? sql.join(guards, sql` AND `) : sql`1`;
}

// ---------------------------------------------------------------- the listing's flags

/** The orders of a listing whose slot runs at `at` (SQL, over an `o` alias). */
const running = (serverId: SQL | number, at: string, placement?: Placement) =>
  sql`o.server_id = ${serverId} AND o.state = 'paid' AND o.starts_at <= ${at} AND o.ends_at > ${at}${
    placement ? sql` AND o.placement = ${placement}` : sql``
  }`;

/**
 * The statement that sets a listing's premium and sponsored flags and its placement period from
 * its orders at `at` (a listing without orders keeps what operators set by hand), when `when` holds.
 */
function syncListing(db: Db, serverId: number, at: string, when: SQL = sql`1`) {
  return db.run(sql`UPDATE ${discordServers} SET
  is_premium = EXISTS (SELECT 1 FROM orders o WHERE ${running(serverId, at, 'premium')}),
  is_sponsored = EXISTS (SELECT 1 FROM orders o WHERE ${running(serverId, at, 'sponsored')}),
  placement_started_at = (SELECT min(o.starts_at) FROM orders o WHERE ${running(serverId, at)}),
  placement_ends_at = (SELECT max(o.ends_at) FROM orders o WHERE ${running(serverId, at)}),
  placement_kind = (SELECT o.kind FROM orders o WHERE ${running(serverId, at)} ORDER BY o.kind = 'checkout' DESC LIMIT 1),
  updated_at = ${at}
WHERE id = ${serverId} AND EXISTS (SELECT 1 FROM orders o WHERE o.server_id = ${serverId}) AND ${when}`);
}

/**
 * Listings whose flags differ from their orders at `at` (a scheduled slot started, one ended).
 * Read from the orders' listings by primary key: the placement clock asks every minute, and a
 * correlated EXISTS made SQLite scan every listing for it (0.5-0.9 s at a million listings).
 */
export async function listingsOutOfStep(db: Db, at: string): Promise<{ id: number; slug: string }[]> {
  return db.all<{ id: number; slug: string }>(sql`SELECT s.id, s.slug FROM discord_servers s
WHERE s.id IN (SELECT o.server_id FROM orders o)
  AND (s.is_premium != EXISTS (SELECT 1 FROM orders o WHERE ${running(sql`s.id`, at, 'premium')})
    OR s.is_sponsored != EXISTS (SELECT 1 FROM orders o WHERE ${running(sql`s.id`, at, 'sponsored')}))`);
}

/**
 * Brings these listings' flags in step with their orders at `at`, in one batch with `also` (the
 * record of the pages they change, for the rebuild: the flags never change without it).
 */
export async function syncListings(
  db: Db,
  ids: readonly number[],
  at: string,
  also: readonly BatchItem<'sqlite'>[] = [],
): Promise<void> {
  if (ids.length === 0) return;
  const [first, ...rest] = [...ids.map((id) => syncListing(db, id, at)), ...also];
  await db.batch([first!, ...rest]);
}

// ---------------------------------------------------------------- events

/** What an event tells beside its kind: ids, the payer, the amount refunded. */
export interface OrderEventInput {
  /** Stripe's event id, or the app's own (`refund:re_…`, `reconcile:cs_…:paid`, `clock:ended:42`). */
  eventId: string;
  /** Stripe's event type (or the app's: 'app.refund', 'reconcile', 'clock'). */
  type: string;
  orderId: number | null;
  event: OrderEvent | null;
  /** ms since epoch. */
  at: number;
  paymentIntent?: string | null | undefined;
  sessionId?: string | null | undefined;
  customerEmail?: string | null | undefined;
  /** A partial refund's charge refunded so far (charge.amount_refunded: its running total, not this refund's). */
  refundedCents?: number | null | undefined;
  /** The charge's amount (price and any tax), for the price's share of `refundedCents`. */
  chargeCents?: number | null | undefined;
  refundReason?: string | null | undefined;
}

/** What an order event's mails say beside the order after it (OrderMails). */
export interface OrderMailFacts {
  /** What this event gave back of the price (a refund's step, order_refunds), 0 for none. */
  cents: number;
  /** When the event happened (ISO). */
  at: string;
  /**
   * The term's dates as they were booked, when a refund cancelled it before it started (a term
   * following the listing's running one, one waiting for a Sponsored slot, or one never activated:
   * dates null); absent when it ran.
   */
  cancelled?: { starts_at: string | null; ends_at: string | null } | null;
  /**
   * After a refund that ended a term early (the `move_up_next` effect): the listing's next booked
   * term of the placement, its dates after the refund, and whether they moved up into the days
   * the refund gave back (as early as the slot rule allows).
   */
  next?: { starts_at: string; ends_at: string; moved: boolean } | null;
  /** With `next`: until when the listing keeps the placement before it (the refund's time, or the end of its term still running). */
  placedUntil?: string;
}

/**
 * The mails of an order's effects, rendered by the caller (functions/_app/mail/orders.ts) from the
 * order after the event and the event's facts (OrderMailFacts).
 */
export type OrderMails = Partial<Record<MailEffect, (o: OrderRow, facts: OrderMailFacts) => RenderedMail>>;

/** The outbox kind of each mail effect. */
const MAIL_KIND_OF = {
  mail_receipt: 'order_receipt',
  mail_refund: 'order_refunded',
  mail_partial_refund: 'order_partially_refunded',
  mail_end: 'placement_ended',
} as const satisfies Record<MailEffect, MailKind>;

/** A term a refund moved up (another order's), with its listing: its page changes when the term starts now. */
export interface MovedTerm {
  orderId: number;
  listing: { id: number; name: string; slug: string };
  starts_at: string;
  ends_at: string;
}

/** What the mail to a moved term's payer says (functions/_app/mail/orders.ts termMovedMail). */
export interface MovedTermFacts {
  order: Pick<OrderRow, 'id' | 'placement' | 'category' | 'term_days'>;
  listing: { name: string; slug: string };
  /** Its dates as booked, and after the move. */
  was: { starts_at: string; ends_at: string };
  now: { starts_at: string; ends_at: string };
  /** When the refund that moved it happened (ISO). */
  at: string;
  /** Whether the refunded term was of the same listing (the term before it), or another listing's (a Sponsored slot freed). */
  sameListing: boolean;
}

export type ApplyOutcome =
  | { kind: 'applied'; order: OrderRow; effects: OrderEffect[]; listing: { id: number } | null; moved: MovedTerm[] }
  | { kind: 'replay' }
  | { kind: 'no_order' };

const isUniqueViolation = (err: unknown): boolean => {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, extendedCode, message } = e as { code?: unknown; extendedCode?: unknown; message?: unknown };
    if (/SQLITE_CONSTRAINT/.test(`${String(code)} ${String(extendedCode)} ${String(message)}`)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
};

/** What one attempt of applyOrderEvent writes, for its caller's own writes (`alsoWrite`). */
export interface EventChange {
  effects: readonly OrderEffect[];
  state: OrderState;
  /** The listings of the booked terms it moves up (a refund's days given back). */
  moved: { id: number; name: string; slug: string }[];
}

/**
 * Applies one event to its order: the machine's new state and effects (money in, the slot, money
 * out, mails, the listing's flags) and the ledger row, in one batch. The batch is applied over the
 * order's version as read (a fresh token every change), a term only while no other paid term of
 * its listing and placement overlaps it, and a sponsored slot only while its category holds fewer
 * than `slotsPerCategory` slots overlapping it; otherwise it is computed again.
 * A refund that ends a term early moves the booked terms after it up into the days it gave back
 * (movedUp: the listing's own, and for Sponsored every listing's waiting for a slot of the
 * category), in the same batch: their dates, their listings' flags and their payers' mails
 * (`movedMail`), only over every queued term's version as read and where the slot rule still holds.
 * `alsoWrite`, the caller's writes that belong with the event (a refund's audit row), joins the batch.
 * An event id already in the ledger changes nothing (`replay`).
 */
export async function applyOrderEvent(
  db: Db,
  input: OrderEventInput,
  opts: {
    slotsPerCategory: number;
    mails: OrderMails;
    /** The mail to the payer of a term the event moved up (another order's), rendered by the caller. */
    movedMail?: (facts: MovedTermFacts) => RenderedMail;
    /**
     * More writes for the event's batch (the refund's audit row, the record of the pages a started
     * or ended slot changes), each to be written only while `applied` holds (SQL true once this
     * event's change is in): with it or not at all. `change`: what this attempt writes (the effects,
     * the listings of the terms it moves up). Called once per attempt; the last call's writes are
     * the ones stored when the event applies.
     */
    alsoWrite?: (applied: SQL, change: EventChange) => BatchItem<'sqlite'>[];
  },
): Promise<ApplyOutcome> {
  const [seen] = await db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, input.eventId));
  if (seen) return { kind: 'replay' };
  if (input.orderId === null || input.event === null) {
    // An event that changes nothing (a delayed payment's unpaid completion) is still listed under its order in the console.
    await db
      .insert(stripeEvents)
      .values({ id: input.eventId, type: input.type, order_id: input.orderId, outcome: null })
      .onConflictDoNothing();
    return { kind: 'no_order' };
  }
  const at = iso(input.at);
  for (let attempt = 0; attempt < 20; attempt++) {
    const order = await getOrder(db, input.orderId);
    if (!order) {
      const done = await db
        .insert(stripeEvents)
        .values({ id: input.eventId, type: input.type, order_id: null, outcome: null })
        .onConflictDoNothing()
        .returning();
      return done.length > 0 ? { kind: 'no_order' } : { kind: 'replay' };
    }
    const t = transition(order.state, input.event);
    const set: Record<string, SQL | string | number | null> = {};
    /** What the write holds to: the slot rule over the dates it gives this order and the terms it moves. */
    const slotGuards: SQL[] = [];
    const cap = opts.slotsPerCategory;
    if (t.effects.includes('record_payment')) set.paid_at = order.paid_at ?? at;
    if (t.effects.includes('activate')) {
      const termMs = order.term_days * DAY_MS;
      // A listing's new term follows its running or scheduled one of the same placement.
      const { taken, own } = await placementFacts(db, order, at);
      let start = Math.max(input.at, ...own.map((o) => o.end));
      if (order.placement === 'sponsored') start = nextSlotStart(taken, start, termMs, cap);
      set.starts_at = iso(start);
      set.ends_at = iso(start + termMs);
      slotGuards.push(termFits(order, set.starts_at, set.ends_at, [order.id], cap));
    }
    // A refund of a term that had not started yet (or was never activated) cancels it: it never ran.
    const cancelled =
      t.effects.includes('record_refund') &&
      ['open', 'expired', 'failed', 'paid'].includes(order.state) &&
      (order.starts_at === null || order.starts_at > at)
        ? { starts_at: order.starts_at, ends_at: order.ends_at }
        : null;
    if (t.effects.includes('deactivate') && order.ends_at && order.ends_at > at) {
      // A refund or a dispute ends the slot now (a scheduled one that never started ends before its start).
      set.ends_at = at;
      if (order.starts_at && order.starts_at > at) set.starts_at = at;
    }
    /** The booked terms this refund moves up into the days it gave back (the listing's, other listings' waiting for the slot). */
    const moves: (QueuedOrder & { was: Slot })[] = [];
    /** The listing's next booked term after this refund, and until when its placement runs before it. */
    let next: OrderMailFacts['next'] = null;
    let placedUntil = at;
    if (t.effects.includes('move_up_next') && order.server_id !== null && order.ends_at && order.ends_at > at) {
      const { queue, held, taken } = await queueFacts(db, { ...order, server_id: order.server_id }, input.at);
      const slots = order.placement === 'sponsored' ? { taken, cap } : null;
      const placed = movedUp(queue, { at: input.at, held, slots });
      const ids = queue.map((q) => q.id);
      for (const [i, term] of placed.entries()) {
        const was = queue.find((q) => q.id === term.id)!;
        // Only over every queued term as read (the dates of those that stay are counted below).
        slotGuards.push(sql`(SELECT version FROM orders WHERE id = ${term.id}) = ${was.version}`);
        if (term.start === was.start) continue;
        moves.push({ ...term, was });
        // Only where the slot rule still lets it go (checked with the refund): over the terms that
        // stay as the database holds them, and the queued ones placed before it at their new dates.
        const before = order.placement === 'sponsored' ? overlapping(placed.slice(0, i), term.start, term.end) : 0;
        const listing = { server_id: term.listing, placement: order.placement, category: term.category };
        slotGuards.push(termFits(listing, iso(term.start), iso(term.end), [order.id, ...ids], cap, before));
      }
      // From now, or from the end of the listing's term still running (a refunded booked term followed it).
      const ownHeld = held.filter((o) => o.listing === order.server_id);
      const from = Math.max(input.at, ...ownHeld.filter((o) => o.start <= input.at).map((o) => o.end));
      const first = [
        ...placed.filter((o) => o.listing === order.server_id),
        ...ownHeld.filter((o) => o.start > input.at),
      ]
        .sort((x, y) => x.start - y.start)
        .at(0);
      if (first) {
        const was = queue.find((o) => o.id === first.id) ?? first;
        next = { starts_at: iso(first.start), ends_at: iso(first.end), moved: first.start < was.start };
        placedUntil = iso(from);
      }
    }
    /** Money out this event adds: a refund's step of the price (order_refunds), never one counted twice. */
    let refundStep = 0;
    if (t.effects.includes('record_refund')) {
      // Revenue counts the price; a refund also gives back the tax Stripe Tax added on top, which was
      // never revenue. A full refund or a lost dispute gives back the whole price; a partial refund
      // carries the charge's refunded total so far, of which only what is new is recorded.
      const total =
        input.event === 'partially_refunded'
          ? refundedPriceCents(input.refundedCents ?? 0, input.chargeCents ?? null, order.amount_cents)
          : order.amount_cents;
      refundStep = Math.max(0, total - order.refunded_cents);
      if (refundStep > 0) {
        set.refunded_cents = order.refunded_cents + refundStep;
        set.refunded_at = at;
      }
      if (input.refundReason) set.refund_reason = input.refundReason;
    }
    if (input.paymentIntent && !order.stripe_payment_intent) set.stripe_payment_intent = input.paymentIntent;
    if (input.customerEmail && !order.customer_email) set.customer_email = input.customerEmail;
    if (input.sessionId && !order.stripe_session_id) set.stripe_session_id = input.sessionId;

    const version = newVersion();
    const after: OrderRow = { ...order, ...(set as Partial<OrderRow>), state: t.state, version, updated_at: at };
    const mine = sql`(SELECT version FROM orders WHERE id = ${order.id}) = ${version}`;
    const assignments = sql.join(
      [
        sql`state = ${t.state}`,
        sql`version = ${version}`,
        sql`updated_at = ${at}`,
        ...Object.entries(set).map(([k, v]) => sql`${sql.identifier(k)} = ${v}`),
      ],
      sql`, `,
    );
    const statements: BatchItem<'sqlite'>[] = [
      db.run(
        sql`UPDATE orders SET ${assignments} WHERE id = ${order.id} AND version = ${order.version} AND ${
          slotGuards.length > 0 ? sql.join(slotGuards, sql` AND `) : sql`1`
        }`,
      ),
      // A plain INSERT: an id already recorded fails the whole batch (a replay raced this one).
      db.run(sql`INSERT INTO stripe_events (id, type, order_id, outcome, created_at)
SELECT ${input.eventId}, ${input.type}, ${order.id}, ${t.state}, ${at} WHERE ${mine}`),
      // The next terms moved up, before the listing's flags are read from the orders.
      ...moves.map((m) =>
        db.run(sql`UPDATE orders SET starts_at = ${iso(m.start)}, ends_at = ${iso(m.end)}, version = ${newVersion()},
  updated_at = ${at} WHERE id = ${m.id} AND ${mine}`),
      ),
      // An order whose listing is gone changes no listing; a term moved to start now starts its listing's placement.
      ...[...new Set([order.server_id, ...moves.map((m) => m.listing)])]
        .filter((id) => id !== null)
        .map((id) => syncListing(db, id, at, mine)),
      ...(refundStep > 0
        ? [
            db.run(sql`INSERT INTO ${orderRefunds} (order_id, event_id, amount_cents, created_at)
SELECT ${order.id}, ${input.eventId}, ${refundStep}, ${at} WHERE ${mine}`),
          ]
        : []),
    ];
    const email = after.customer_email;
    if (email && order.kind === 'checkout') {
      for (const effect of MAIL_EFFECTS) {
        const render = opts.mails[effect];
        if (!t.effects.includes(effect) || !render) continue;
        // A partial refund mails each step that gave money back, under its running total: a
        // redelivered or out-of-order event that adds nothing mails nothing.
        if (effect === 'mail_partial_refund' && refundStep === 0) continue;
        const kind = MAIL_KIND_OF[effect];
        const key =
          effect === 'mail_partial_refund' ? `${kind}:${order.id}:${after.refunded_cents}` : `${kind}:${order.id}`;
        const mail = render(after, { cents: refundStep, at, cancelled, next, placedUntil });
        statements.push(enqueueMailWhen(db, { kind, dedupeKey: sql`${key}`, to: email, mail }, mine));
      }
    }
    // Each moved term's payer is told its new dates, unless the refund mail to the same address does
    // (it names the listing's next term).
    const listings = moves.length === 0 ? [] : await listingsNamed(db, [...new Set(moves.map((m) => m.listing))]);
    const refundMailTo =
      email && order.kind === 'checkout' && t.effects.includes('mail_refund') && opts.mails.mail_refund
        ? email.trim().toLowerCase()
        : null;
    for (const m of moves) {
      if (!m.customer_email || m.kind !== 'checkout' || !opts.movedMail) continue;
      const told = m.listing === order.server_id && next?.starts_at === iso(m.start);
      if (told && m.customer_email.trim().toLowerCase() === refundMailTo) continue;
      const listing = listings.find((l) => l.id === m.listing) ?? { name: 'your listing', slug: '' };
      const mail = opts.movedMail({
        order: { id: m.id, placement: order.placement, category: m.category, term_days: m.term_days },
        listing,
        was: { starts_at: iso(m.was.start), ends_at: iso(m.was.end) },
        now: { starts_at: iso(m.start), ends_at: iso(m.end) },
        at,
        sameListing: m.listing === order.server_id,
      });
      const key = sql`${`placement_moved:${m.id}:${order.id}`}`;
      statements.push(
        enqueueMailWhen(db, { kind: 'placement_moved', dedupeKey: key, to: m.customer_email, mail }, mine),
      );
    }
    // The caller's own writes that belong with the event (the refund's audit row): only when it applies.
    statements.push(
      ...(opts.alsoWrite?.(mine, {
        effects: t.effects,
        state: t.state,
        moved: moves.map((m) => listings.find((l) => l.id === m.listing) ?? { id: m.listing, name: '', slug: '' }),
      }) ?? []),
    );
    let results: Awaited<ReturnType<typeof db.batch>>;
    try {
      const [first, ...rest] = statements;
      results = await db.batch([first!, ...rest]);
    } catch (err) {
      if (isUniqueViolation(err)) {
        const [again] = await db
          .select({ id: stripeEvents.id })
          .from(stripeEvents)
          .where(eq(stripeEvents.id, input.eventId));
        if (again) return { kind: 'replay' };
      }
      throw err;
    }
    const updated = (results[0] as { rowsAffected: number }).rowsAffected;
    if (updated === 1)
      return {
        kind: 'applied',
        order: after,
        effects: t.effects,
        listing: order.server_id === null ? null : { id: order.server_id },
        moved: moves.map((m) => ({
          orderId: m.id,
          listing: listings.find((l) => l.id === m.listing) ?? { id: m.listing, name: '', slug: '' },
          starts_at: iso(m.start),
          ends_at: iso(m.end),
        })),
      };
    // Another event changed the order (or took the slot) first: read again and recompute.
  }
  throw new Error(`order ${input.orderId}: too many concurrent changes`);
}

/** The names and slugs of these listings (the moved terms' mails and pages). */
async function listingsNamed(db: Db, ids: number[]): Promise<{ id: number; name: string; slug: string }[]> {
  return db
    .select({ id: discordServers.id, name: discordServers.name, slug: discordServers.slug })
    .from(discordServers)
    .where(inArray(discordServers.id, ids));
}

/** Whether an event id is already in the ledger. */
export async function eventRecorded(db: Db, eventId: string): Promise<boolean> {
  const [row] = await db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, eventId));
  return Boolean(row);
}

// ---------------------------------------------------------------- the clock and the reconcile job

/** Paid orders whose term is over at `at`. */
export async function ordersDueToEnd(db: Db, at: string): Promise<OrderRow[]> {
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.state, 'paid'), lte(orders.ends_at, at)))
    .orderBy(asc(orders.ends_at))
    .limit(500);
}

/**
 * Whether another paid term of the order's listing and placement carries on from its end (bought
 * while it ran, it starts by then and ends later): the placement does not end with this term.
 */
const carriedOn = sql`EXISTS (SELECT 1 FROM orders f WHERE f.server_id = ${orders.server_id}
  AND f.placement = ${orders.placement} AND f.state = 'paid' AND f.id != ${orders.id}
  AND f.starts_at <= ${orders.ends_at} AND f.ends_at > ${orders.ends_at})`;

/**
 * The listing's next paid term of `o`'s placement after `o`'s end, or null: one that carries on
 * from it (starts by then), or one booked to start later (it waits for a Sponsored slot), which
 * leaves the listing without that placement in between.
 */
export async function nextTermOf(
  db: Db,
  o: Pick<OrderRow, 'id' | 'server_id' | 'placement' | 'ends_at'>,
): Promise<OrderRow | null> {
  if (o.server_id === null || !o.ends_at) return null;
  const [row] = await db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.server_id, o.server_id),
        eq(orders.placement, o.placement),
        eq(orders.state, 'paid'),
        ne(orders.id, o.id),
        gt(orders.ends_at, o.ends_at),
      ),
    )
    .orderBy(asc(orders.starts_at))
    .limit(1);
  return row ?? null;
}

/**
 * Paid checkout orders ending within `withinDays` of `at`, with a payer to remind. A term of
 * `withinDays` or less is inside that window from its first minute: a reminder would come with
 * the receipt, so it gets none. Nor does a term the listing's next one carries on from: the
 * placement does not end then (the next term is reminded before its own end). A term whose next
 * one is booked to start later (nextTermOf: it waits for a Sponsored slot) is reminded: the
 * placement stops between them, and its reminder says when the next one starts.
 */
export async function ordersToRemind(db: Db, at: number, withinDays: number): Promise<OrderRow[]> {
  const withinMs = withinDays * DAY_MS;
  return db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.state, 'paid'),
        eq(orders.kind, 'checkout'),
        isNotNull(orders.customer_email),
        gt(orders.term_days, withinDays),
        lte(orders.starts_at, iso(at)),
        gt(orders.ends_at, iso(at)),
        lte(orders.ends_at, iso(at + withinMs)),
        sql`NOT EXISTS (SELECT 1 FROM mail_outbox m WHERE m.dedupe_key = 'placement_reminder:' || ${orders.id})`,
        sql`NOT ${carriedOn}`,
      ),
    )
    .limit(500);
}

/**
 * Takes the reconcile job's turn of up to `limit` open orders with a Checkout session: the
 * never-asked first, then the longest-unasked (oldest order first among equals), stamped asked at
 * `at` in the same statement. An order Stripe cannot settle yet (a checkout still open, a delayed
 * payment pending, a session Stripe does not know, a failing retrieve) goes to the back of the
 * line instead of being asked first every pass, and two runners never take the same orders.
 */
export async function takeOrdersToReconcile(db: Db, at: number, limit = 500): Promise<OrderRow[]> {
  const turn = db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.state, 'open'), isNotNull(orders.stripe_session_id)))
    // SQLite sorts NULL first: the never-asked come first.
    .orderBy(asc(orders.reconcile_checked_at), asc(orders.id))
    .limit(limit);
  const rows = await db
    .update(orders)
    .set({ reconcile_checked_at: iso(at) })
    .where(and(inArray(orders.id, turn), eq(orders.state, 'open')))
    .returning();
  return rows.sort((a, b) => a.id - b.id);
}

// ---------------------------------------------------------------- reads for pages and the console

/** An order as the owner's page and the console list it, with its listing's name and slug (null: the listing is gone). */
export type OrderListItem = OrderRow & { server_name: string; server_slug: string | null };

const withListing = {
  server_name: discordServers.name,
  server_slug: discordServers.slug,
};

/** The signed-in owner's orders, newest first (only for listings they still hold). */
export async function listOwnerOrders(db: Db, ownerId: number): Promise<OrderListItem[]> {
  const rows = await db
    .select({ order: orders, ...withListing })
    .from(orders)
    .innerJoin(discordServers, eq(discordServers.id, orders.server_id))
    .where(
      and(
        eq(orders.owner_id, ownerId),
        sql`EXISTS (SELECT 1 FROM server_claims c WHERE c.server_id = ${orders.server_id} AND c.owner_id = ${ownerId})`,
      ),
    )
    .orderBy(desc(orders.id))
    .limit(200);
  return rows.map((r) => ({ ...r.order, server_name: r.server_name, server_slug: r.server_slug }));
}

/** Every order for the console, newest first, with the events each received. */
export async function listOrdersForConsole(
  db: Db,
  opts: { limit?: number; offset?: number } = {},
): Promise<{
  orders: (OrderListItem & { events: { id: string; type: string; outcome: string | null; created_at: string }[] })[];
  total: number;
}> {
  // Orders outlive their listing: a deleted one's orders are named as they kept it.
  const rows = await db
    .select({
      order: orders,
      server_name: sql<string>`coalesce(${discordServers.name}, ${orders.server_name})`,
      server_slug: discordServers.slug,
    })
    .from(orders)
    .leftJoin(discordServers, eq(discordServers.id, orders.server_id))
    .orderBy(desc(orders.id))
    .limit(opts.limit ?? 100)
    .offset(opts.offset ?? 0);
  const ids = rows.map((r) => r.order.id);
  const events =
    ids.length === 0
      ? []
      : await db
          .select()
          .from(stripeEvents)
          .where(inArray(stripeEvents.order_id, ids))
          .orderBy(asc(stripeEvents.created_at));
  const [count] = await db.select({ n: sql<number>`count(*)` }).from(orders);
  return {
    total: count?.n ?? 0,
    orders: rows.map((r) => ({
      ...r.order,
      server_name: r.server_name,
      server_slug: r.server_slug,
      events: events
        .filter((e) => e.order_id === r.order.id)
        .map((e) => ({ id: e.id, type: e.type, outcome: e.outcome, created_at: e.created_at })),
    })),
  };
}

/** Money per UTC day of the last `days` days: payments in minus refunds, per currency. */
export async function revenueByDay(db: Db, days: number, now: number) {
  const since = iso(now - days * DAY_MS).slice(0, 10);
  return db.select().from(dailyRevenue).where(sql`${dailyRevenue.day} >= ${since}`).orderBy(asc(dailyRevenue.day));
}

/**
 * An operator's free grant of a placement (a comp): an order of kind 'comp' that starts like a
 * paid one (the slot rule holds), recorded with who granted it, its audit row in the same batch
 * (the order's id: `last_insert_rowid()`); no money counted.
 */
export async function createCompOrder(
  db: Db,
  input: { serverId: number; category: string; placement: Placement; termDays: number; grantedBy: string },
  audit?: AuditWrite,
): Promise<OrderRow> {
  const [row] = await withAudit(
    db,
    db
      .insert(orders)
      .values({
        server_id: input.serverId,
        server_name: listingName(input.serverId),
        kind: 'comp',
        placement: input.placement,
        category: input.category,
        term_days: input.termDays,
        amount_cents: 0,
        currency: 'usd',
        state: 'open',
        version: newVersion(),
        granted_by: input.grantedBy,
      })
      .returning(),
    audit,
  );
  return row!;
}
