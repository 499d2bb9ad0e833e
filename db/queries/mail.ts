import { and, eq, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { MailKind, MailStatus } from '../../src/lib/enums';
import type { Db } from '../client';
import { mailOutbox } from '../schema';
import { type PageOptions, pageNewestFirst } from './paginate';

/** A mail as one template renders it: the same content as plain text and as HTML. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** One mail for the outbox (enqueueMail). */
export interface MailInput {
  /** What the mail is (MAIL_KINDS: submission_received, newsletter_confirm, ...). */
  kind: MailKind;
  /** One per event that causes the mail: a second enqueue with the same key is ignored. */
  dedupeKey: string;
  to: string;
  replyTo?: string | null | undefined;
  mail: RenderedMail;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post). */
  headers?: Record<string, string> | undefined;
}

/** A stored mail of the outbox. */
export type OutboxMail = typeof mailOutbox.$inferSelect;

/** What enqueueMail and enqueueMailWhen write: a statement to await, or to put in the caller's db.batch. */
type Writer = Pick<Db, 'insert' | 'run'>;

const valuesOf = (input: Omit<MailInput, 'dedupeKey'>) => ({
  kind: input.kind,
  to_address: input.to,
  reply_to: input.replyTo ?? null,
  subject: input.mail.subject,
  text_body: input.mail.text,
  html_body: input.mail.html,
  headers: input.headers && Object.keys(input.headers).length > 0 ? input.headers : null,
});

/**
 * The mails a stranger can cause to any address they type (the contact form's acknowledgement, the
 * newsletter's confirmation, a submission's "received"): each recipient address gets at most
 * RECIPIENT_HOURLY_CAP of them per hour across all senders, counted in the outbox itself (so the cap
 * holds on every replica and the Worker). Mails to the site's own address and to confirmed
 * subscribers and listed owners are not capped.
 */
export const STRANGER_MAIL_KINDS = ['contact_ack', 'newsletter_confirm', 'submission_received'] as const;

/** At most this many STRANGER_MAIL_KINDS mails per recipient address per hour; past it, none is written. */
export const RECIPIENT_HOURLY_CAP = 5;

const capped = (kind: string) => (STRANGER_MAIL_KINDS as readonly string[]).includes(kind);

/** True while `to` (case aside) has had fewer than the cap of capped mails in the last hour. */
const underCap = (to: string | SQL) => sql`(SELECT count(*) FROM ${mailOutbox}
  WHERE ${mailOutbox.created_at} > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 hour')
    AND lower(${mailOutbox.to_address}) = lower(${to})
    AND ${mailOutbox.kind} IN (${sql.join(
      STRANGER_MAIL_KINDS.map((k) => sql`${k}`),
      sql`, `,
    )})) < ${RECIPIENT_HOURLY_CAP}`;

/**
 * The outbox row of one mail, as a statement of the caller's transaction or db.batch: written
 * with the event that causes it, or not at all. The dedupe key makes it once per event: a key
 * already in the outbox writes nothing (never two mails for one event). A mail of
 * STRANGER_MAIL_KINDS past its recipient's hourly cap is not written (the event still is).
 */
export function enqueueMail(db: Writer, input: MailInput) {
  if (capped(input.kind)) return enqueueMailWhen(db, { ...input, dedupeKey: sql`${input.dedupeKey}` }, sql`1 = 1`);
  return db
    .insert(mailOutbox)
    .values({ ...valuesOf(input), dedupe_key: input.dedupeKey })
    .onConflictDoNothing({ target: mailOutbox.dedupe_key });
}

/**
 * enqueueMail for an event the batch only knows in SQL: the row is written when `when` holds at
 * that point of the batch, under a key computed in SQL (`'submission-received:' || last_insert_rowid()`
 * after the guarded INSERT that made the submission, with `changes() = 1` as `when`); the
 * address may be SQL too (the contact address of the row decided). The recipient cap applies as in enqueueMail.
 */
export function enqueueMailWhen(
  db: Writer,
  input: Omit<MailInput, 'dedupeKey' | 'to'> & { dedupeKey: SQL; to: string | SQL },
  when: SQL,
) {
  const v = { ...valuesOf({ ...input, to: '' }), to_address: input.to };
  const headers = v.headers ? JSON.stringify(v.headers) : null;
  const cap = capped(input.kind) ? sql` AND ${underCap(input.to)}` : sql``;
  return db.run(sql`INSERT INTO ${mailOutbox}
  (kind, dedupe_key, to_address, reply_to, subject, text_body, html_body, headers)
SELECT ${v.kind}, ${input.dedupeKey}, ${v.to_address}, ${v.reply_to}, ${v.subject}, ${v.text_body}, ${v.html_body}, ${headers}
WHERE ${when}${cap}
ON CONFLICT (dedupe_key) DO NOTHING`);
}

/** The mail's retries: the wait after each failed attempt (then it is given up as failed). */
export const RETRY_DELAYS_MS = [
  60_000,
  5 * 60_000,
  15 * 60_000,
  60 * 60_000,
  3 * 3_600_000,
  6 * 3_600_000,
  12 * 3_600_000,
  24 * 3_600_000,
] as const;

/** How long a claim holds a mail: a send takes seconds; a sender that dies frees its mails after this. */
export const CLAIM_LEASE_MS = 5 * 60_000;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Claims up to `limit` mails due at `now` (pending, next_attempt_at <= now), oldest first, by
 * moving their next_attempt_at `leaseMs` ahead in one UPDATE: a second sender's claim no longer
 * sees them, so two senders never send one mail. A sender that dies leaves them due again after the lease.
 * The claim also starts `unconfirmed_since` (kept if set): until the sender records what the
 * attempt did, the provider may have taken the mail (a mail whose unconfirmed_since is `now` was
 * not unconfirmed before this claim).
 */
export async function claimDueMails(
  db: Db,
  now: number,
  { limit = 20, leaseMs = CLAIM_LEASE_MS }: { limit?: number; leaseMs?: number } = {},
): Promise<OutboxMail[]> {
  const at = iso(now);
  const due = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.next_attempt_at, at)))
    // A week's issue is thousands of copies: every other mail due (a receipt, a confirmation, a
    // moderator's decision) goes out before them, not hours later behind them.
    .orderBy(sql`${mailOutbox.kind} = 'newsletter_issue'`, mailOutbox.next_attempt_at, mailOutbox.id)
    .limit(limit);
  const rows = await db
    .update(mailOutbox)
    .set({
      next_attempt_at: iso(now + leaseMs),
      unconfirmed_since: sql`coalesce(${mailOutbox.unconfirmed_since}, ${at})`,
    })
    .where(and(inArray(mailOutbox.id, due), eq(mailOutbox.status, 'pending'), lte(mailOutbox.next_attempt_at, at)))
    .returning();
  return rows.sort((a, b) => a.id - b.id);
}

/** Records a mail the mail server accepted: sent, with its Message-ID. */
export async function markMailSent(db: Db, id: number, now: number, messageId: string | null): Promise<void> {
  await db
    .update(mailOutbox)
    .set({
      status: 'sent',
      sent_at: iso(now),
      message_id: messageId,
      last_error: null,
      attempts: sql`${mailOutbox.attempts} + 1`,
    })
    .where(eq(mailOutbox.id, id));
}

/**
 * Records a failed attempt: the mail waits RETRY_DELAYS_MS[attempts] and is tried again, or is
 * given up as failed after the last delay or when the failure is `permanent` (the address refused).
 * `unconfirmedSince`, when given, is stored as the mail's (null: every attempt was refused outright).
 */
export async function markMailFailed(
  db: Db,
  mail: Pick<OutboxMail, 'id' | 'attempts'>,
  now: number,
  error: string,
  { permanent = false, unconfirmedSince }: { permanent?: boolean; unconfirmedSince?: string | null } = {},
): Promise<MailStatus> {
  const delay = RETRY_DELAYS_MS[mail.attempts];
  const status: MailStatus = permanent || delay === undefined ? 'failed' : 'pending';
  await db
    .update(mailOutbox)
    .set({
      status,
      attempts: mail.attempts + 1,
      last_error: error.slice(0, 500),
      next_attempt_at: iso(now + (delay ?? 0)),
      ...(unconfirmedSince !== undefined ? { unconfirmed_since: unconfirmedSince } : {}),
    })
    .where(eq(mailOutbox.id, mail.id));
  return status;
}

/** Gives a claimed mail up without trying it (its `reason` is what the Outbox shows): failed. */
export async function giveUpMail(db: Db, id: number, reason: string): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ status: 'failed', last_error: reason.slice(0, 500) })
    .where(eq(mailOutbox.id, id));
}

/**
 * Gives claimed mails back without counting an attempt (the sender stopped before trying them,
 * the mail server being down): due again at `at`. The claim made at `claimedAt` did not try
 * them, so the unconfirmed_since it started is undone.
 */
export async function releaseMails(db: Db, ids: number[], at: number, claimedAt: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(mailOutbox)
    .set({
      next_attempt_at: iso(at),
      unconfirmed_since: sql`CASE WHEN ${mailOutbox.unconfirmed_since} = ${iso(claimedAt)} THEN NULL ELSE ${mailOutbox.unconfirmed_since} END`,
    })
    .where(and(inArray(mailOutbox.id, ids), eq(mailOutbox.status, 'pending')));
}

/** Filter and page of listMails. */
export interface MailListOptions extends PageOptions {
  status?: MailStatus | undefined;
  kind?: MailKind | undefined;
}

/** Outbox mails newest first, optionally of one status or kind, one page with the total. */
export async function listMails(
  db: Db,
  options: MailListOptions = {},
): Promise<{ mails: OutboxMail[]; total: number }> {
  const where = and(
    options.status ? eq(mailOutbox.status, options.status) : undefined,
    options.kind ? eq(mailOutbox.kind, options.kind) : undefined,
  );
  const { rows, total } = await pageNewestFirst(db, mailOutbox, where, options);
  return { mails: rows, total };
}

/** One outbox mail by id, or null. */
export async function getMailById(db: Db, id: number): Promise<OutboxMail | null> {
  const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id)).limit(1);
  return row ?? null;
}

/** Outbox counts by status. */
export async function countMailsByStatus(db: Db): Promise<Record<MailStatus, number>> {
  const rows = await db
    .select({ status: mailOutbox.status, n: sql<number>`count(*)` })
    .from(mailOutbox)
    .groupBy(mailOutbox.status);
  const counts: Record<MailStatus, number> = { pending: 0, sent: 0, failed: 0 };
  for (const r of rows) counts[r.status] = Number(r.n);
  return counts;
}
