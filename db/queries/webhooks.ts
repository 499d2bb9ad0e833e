import { and, desc, eq, inArray, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import { type OwnerEvent, ownerEventPayload } from '../../src/lib/owners/notifications';
import type { Db } from '../client';
import { ownerUsers, serverClaims, serverSubmissions, type WebhookRow, webhookOutbox } from '../schema';
import { CLAIM_LEASE_MS, enqueueMail, RETRY_DELAYS_MS, type RenderedMail } from './mail';

const iso = (ms: number) => new Date(ms).toISOString();

/** Whom a notice is for: one owner, or every owner who claimed a listing. */
export type NoticeTarget = { ownerId: number } | { serverId: number };

/**
 * Notifies an owner of an event on their Discord webhook (#32): the one function every feature
 * calls (approved, rejected, hidden, invite stopped working, paid placement ending, new review).
 * Writes the message to the webhook outbox for each target owner whose webhook is on, once per
 * event (`dedupeKey`), delivered by jobs/webhook-sender.ts with the mail's retries. Returns a
 * statement: await it, or put it in the batch of the write that causes the event (`when`: only
 * when that holds at that point of the batch).
 */
export function notifyOwner(db: Db, to: NoticeTarget, event: OwnerEvent, dedupeKey: string, when: SQL = sql`1 = 1`) {
  const payload = JSON.stringify(ownerEventPayload(event));
  const owners =
    'ownerId' in to
      ? sql`SELECT ${to.ownerId} AS owner_id`
      : sql`SELECT owner_id FROM ${serverClaims} WHERE server_id = ${to.serverId}`;
  return db.run(sql`INSERT INTO ${webhookOutbox} (owner_id, event, dedupe_key, payload)
SELECT o.id, ${event.kind}, ${dedupeKey} || ':' || o.id, json(${payload})
FROM ${ownerUsers} o WHERE o.id IN (${owners})
  AND o.webhook_url IS NOT NULL AND o.webhook_disabled_at IS NULL AND ${when}
ON CONFLICT (dedupe_key) DO NOTHING`);
}

/** Saves (or with null removes) an owner's webhook URL; saving switches it on again. */
export async function setOwnerWebhook(db: Db, ownerId: number, url: string | null): Promise<void> {
  await db.update(ownerUsers).set({ webhook_url: url, webhook_disabled_at: null }).where(eq(ownerUsers.id, ownerId));
}

/** An owner's webhook: its URL and whether it was switched off (when), or null for none. */
export async function getOwnerWebhook(
  db: Db,
  ownerId: number,
): Promise<{ url: string; disabledAt: string | null } | null> {
  const [row] = await db
    .select({ url: ownerUsers.webhook_url, disabledAt: ownerUsers.webhook_disabled_at })
    .from(ownerUsers)
    .where(eq(ownerUsers.id, ownerId));
  return row?.url ? { url: row.url, disabledAt: row.disabledAt } : null;
}

/**
 * The address an owner is mailed at: the contact address of their newest submission, or of the
 * newest submission of a listing they claimed; null when they never gave one.
 */
export async function ownerContactEmail(db: Db, ownerId: number): Promise<string | null> {
  const [row] = await db
    .select({ email: serverSubmissions.contact_email })
    .from(serverSubmissions)
    .where(
      or(
        eq(serverSubmissions.owner_id, ownerId),
        inArray(
          serverSubmissions.server_id,
          db.select({ id: serverClaims.server_id }).from(serverClaims).where(eq(serverClaims.owner_id, ownerId)),
        ),
      ),
    )
    .orderBy(desc(serverSubmissions.id))
    .limit(1);
  return row?.email ?? null;
}

/** A due webhook message with where it goes. */
export type DueWebhook = WebhookRow & { webhook_url: string | null; webhook_disabled_at: string | null };

/** Gives claimed messages back, due at `at` (a pass that stopped before posting them). */
export async function releaseWebhooks(db: Db, ids: number[], at: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(webhookOutbox)
    .set({ next_attempt_at: iso(at) })
    .where(and(inArray(webhookOutbox.id, ids), eq(webhookOutbox.status, 'pending')));
}

/** Claims up to `limit` due messages (as claimDueMails: the claim moves next_attempt_at ahead), oldest first. */
export async function claimDueWebhooks(db: Db, now: number, limit = 50): Promise<DueWebhook[]> {
  const at = iso(now);
  const due = db
    .select({ id: webhookOutbox.id })
    .from(webhookOutbox)
    .where(and(eq(webhookOutbox.status, 'pending'), lte(webhookOutbox.next_attempt_at, at)))
    .orderBy(webhookOutbox.next_attempt_at, webhookOutbox.id)
    .limit(limit);
  const claimed = await db
    .update(webhookOutbox)
    .set({ next_attempt_at: iso(now + CLAIM_LEASE_MS) })
    .where(
      and(inArray(webhookOutbox.id, due), eq(webhookOutbox.status, 'pending'), lte(webhookOutbox.next_attempt_at, at)),
    )
    .returning({ id: webhookOutbox.id });
  if (claimed.length === 0) return [];
  const rows = await db
    .select({
      row: webhookOutbox,
      webhook_url: ownerUsers.webhook_url,
      webhook_disabled_at: ownerUsers.webhook_disabled_at,
    })
    .from(webhookOutbox)
    .innerJoin(ownerUsers, eq(ownerUsers.id, webhookOutbox.owner_id))
    .where(
      inArray(
        webhookOutbox.id,
        claimed.map((c) => c.id),
      ),
    );
  return rows
    .map((r) => ({ ...r.row, webhook_url: r.webhook_url, webhook_disabled_at: r.webhook_disabled_at }))
    .sort((a, b) => a.id - b.id);
}

/** A delivered message. */
export async function markWebhookSent(db: Db, id: number, now: number): Promise<void> {
  await db
    .update(webhookOutbox)
    .set({ status: 'sent', sent_at: iso(now), last_error: null, attempts: sql`${webhookOutbox.attempts} + 1` })
    .where(eq(webhookOutbox.id, id));
}

/** A failed attempt: retried after the mail's RETRY_DELAYS_MS, or given up (`permanent`, or out of retries). */
export async function markWebhookFailed(
  db: Db,
  row: Pick<WebhookRow, 'id' | 'attempts'>,
  now: number,
  error: string,
  permanent = false,
): Promise<'pending' | 'failed'> {
  const delay = RETRY_DELAYS_MS[row.attempts];
  const status = permanent || delay === undefined ? 'failed' : 'pending';
  await db
    .update(webhookOutbox)
    .set({
      status,
      attempts: row.attempts + 1,
      last_error: error.slice(0, 500),
      next_attempt_at: iso(now + (delay ?? 0)),
    })
    .where(eq(webhookOutbox.id, row.id));
  return status;
}

/**
 * Switches an owner's webhook off after Discord answered 404 or 401 (#32): the webhook marked off,
 * its waiting messages given up, and the owner's mail in one batch, once (only while it was on).
 */
export async function disableOwnerWebhook(
  db: Db,
  ownerId: number,
  now: number,
  why: string,
  mail: { to: string; mail: RenderedMail } | null,
): Promise<void> {
  const at = iso(now);
  await db.batch([
    db
      .update(ownerUsers)
      .set({ webhook_disabled_at: at })
      .where(and(eq(ownerUsers.id, ownerId), isNull(ownerUsers.webhook_disabled_at))),
    db
      .update(webhookOutbox)
      .set({ status: 'failed', last_error: why })
      .where(and(eq(webhookOutbox.owner_id, ownerId), eq(webhookOutbox.status, 'pending'))),
    ...(mail
      ? [
          enqueueMail(db, {
            kind: 'webhook_disabled',
            dedupeKey: `webhook-disabled:${ownerId}:${at}`,
            to: mail.to,
            mail: mail.mail,
          }),
        ]
      : []),
  ]);
}
