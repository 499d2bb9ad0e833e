import { and, asc, eq, gt, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import { UNLISTED_INVITE_STATUSES } from '../../src/lib/listing';
import type { Db } from '../client';
import { isUniqueViolation } from '../errors';
import {
  discordServers,
  mailOutbox,
  newsletterIssues,
  newsletterStats,
  newsletterSubscribers,
  type SubscriberRow,
  serverSnapshots,
} from '../schema';
import { type AuditWrite, auditStatements, withAudit } from './audit';
import { idSteps } from './listing-steps';
import { enqueueMailWhen, type MailInput } from './mail';
import { type PageOptions, pageNewestFirst } from './paginate';
import { listFeaturedServers } from './servers';

/** A stored newsletter subscriber. */
export type Subscriber = SubscriberRow;

/** A new or reactivated subscriber, or the duplicate refusal. */
export type SubscribeResult =
  | { ok: true; subscriber: Subscriber; reactivated: boolean }
  | { ok: false; reason: 'already_subscribed'; message: 'Email already subscribed' };

/** Search, filter and page of listSubscribers. */
export interface SubscriberListOptions extends PageOptions {
  /** Partial, case-insensitive match on the email. */
  search?: string | undefined;
  status?: Subscriber['status'] | undefined;
}

/** The fields operators may change on a subscriber. */
export type SubscriberPatch = Partial<
  Pick<Subscriber, 'status' | 'interests' | 'premium_subscriber' | 'source' | 'confirmed_at' | 'unsubscribed_at'>
>;

/** The newsletter_stats row. */
/** The newsletter_stats view's figures, and the addresses waiting for their confirmation. */
export type NewsletterStats = typeof newsletterStats.$inferSelect & { pending: number };

const nowIso = () => new Date().toISOString();

/**
 * Adds a confirmed, active subscriber directly (source homepage_signup, interests
 * premium_servers, confirmed now), for operators' imports, seeds and tests. An active duplicate is
 * refused; an unsubscribed one is reactivated. The public signup is signUpEmail's double opt-in.
 */
export async function subscribeEmail(db: Db, email: string): Promise<SubscribeResult> {
  try {
    const [row] = await db
      .insert(newsletterSubscribers)
      .values({
        email,
        source: 'homepage_signup',
        interests: ['premium_servers'],
        status: 'active',
        confirmed_at: nowIso(),
      })
      .returning();
    return { ok: true, subscriber: row!, reactivated: false };
  } catch (err) {
    // The unique index is the source of truth (two signups racing both reach here).
    if (!isUniqueViolation(err)) throw err;
  }
  const [reactivated] = await db
    .update(newsletterSubscribers)
    .set({ status: 'active', confirmed_at: nowIso(), unsubscribed_at: null })
    .where(sql`${newsletterSubscribers.email} = ${email} AND ${newsletterSubscribers.status} = 'unsubscribed'`)
    .returning();
  if (reactivated) return { ok: true, subscriber: reactivated, reactivated: true };
  return { ok: false, reason: 'already_subscribed', message: 'Email already subscribed' };
}

/** The newsletter's mails: an unsubscribe stops those still waiting in the outbox. */
const NEWSLETTER_MAIL_KINDS = ['newsletter_confirm', 'newsletter_welcome', 'newsletter_issue'] as const;

/**
 * Unsubscribes one subscriber, by email or by id (keeps the first unsubscribed_at when repeated;
 * `also`: other fields set in the same write), and in the same batch gives up the newsletter
 * mails to it still waiting in the outbox. Returns the row or null.
 */
async function unsubscribe(
  db: Db,
  which: { email: string } | { id: number },
  also: SubscriberPatch = {},
  audit?: AuditWrite,
): Promise<Subscriber | null> {
  const [ofSubscriber, address] =
    'email' in which
      ? [eq(newsletterSubscribers.email, which.email), sql`${which.email}`]
      : [
          eq(newsletterSubscribers.id, which.id),
          sql`(SELECT ${newsletterSubscribers.email} FROM ${newsletterSubscribers} WHERE ${newsletterSubscribers.id} = ${which.id})`,
        ];
  const [rows] = await db.batch([
    db
      .update(newsletterSubscribers)
      .set({
        ...also,
        status: 'unsubscribed',
        unsubscribed_at: sql`coalesce(${newsletterSubscribers.unsubscribed_at}, ${nowIso()})`,
      })
      .where(ofSubscriber)
      .returning(),
    ...(audit ? auditStatements(db, audit) : []),
    db
      .update(mailOutbox)
      .set({ status: 'failed', last_error: 'unsubscribed before it was sent' })
      .where(
        and(
          sql`${mailOutbox.to_address} = ${address}`,
          eq(mailOutbox.status, 'pending'),
          inArray(mailOutbox.kind, [...NEWSLETTER_MAIL_KINDS]),
        ),
      ),
  ]);
  return rows[0] ?? null;
}

/** Unsubscribes by email (the one-click link), giving up its waiting newsletter mails (unsubscribe). */
export function unsubscribeEmail(db: Db, email: string): Promise<Subscriber | null> {
  return unsubscribe(db, { email });
}

/**
 * Unsubscribes by id (the console), with `also` and the operator's audit row in the same write,
 * giving up its waiting newsletter mails.
 */
export function unsubscribeSubscriber(
  db: Db,
  id: number,
  also: SubscriberPatch = {},
  audit?: AuditWrite,
): Promise<Subscriber | null> {
  return unsubscribe(db, { id }, also, audit);
}

/** A newsletter mail before its key: what signUpEmail and confirmSubscriber write with the change. */
export type SubscriberMail = Omit<MailInput, 'dedupeKey' | 'to' | 'kind'>;

/** What a public signup did: the confirmation link went out (or was already on its way), or the refusal. */
export type SignUpResult =
  | {
      ok: true;
      subscriber: Subscriber;
      /** new: first signup; pending_again: not confirmed yet, the link is sent again; resubscribed: back from unsubscribed. */
      state: 'new' | 'pending_again' | 'resubscribed';
    }
  | { ok: false; reason: 'already_subscribed'; message: 'Email already subscribed' };

/** At most one confirmation mail per address in this long, however often the form is sent. */
export const CONFIRM_RESEND_MS = 60_000;

/**
 * The public signup, double opt-in (#16): a new address is stored as pending, an unsubscribed one
 * goes back to pending, and either gets the confirmation mail (`confirmation`, rendered by the
 * caller) in the same batch; a pending one signing up again gets it again (at most once per
 * CONFIRM_RESEND_MS); an active one is refused with "Email already subscribed". A pending
 * subscriber gets nothing else until confirmSubscriber.
 */
export async function signUpEmail(
  db: Db,
  email: string,
  confirmation: SubscriberMail,
  now = Date.now(),
): Promise<SignUpResult> {
  const bucket = Math.floor(now / CONFIRM_RESEND_MS);
  const ofEmail = eq(newsletterSubscribers.email, email);
  const [inserted, resubscribed, , [row]] = await db.batch([
    db
      .insert(newsletterSubscribers)
      .values({ email, source: 'homepage_signup', interests: ['premium_servers'], status: 'pending' })
      .onConflictDoNothing()
      .returning({ id: newsletterSubscribers.id }),
    db
      .update(newsletterSubscribers)
      .set({ status: 'pending', confirmed_at: null, unsubscribed_at: null })
      .where(and(ofEmail, eq(newsletterSubscribers.status, 'unsubscribed')))
      .returning({ id: newsletterSubscribers.id }),
    enqueueMailWhen(
      db,
      {
        ...confirmation,
        kind: 'newsletter_confirm',
        to: email,
        dedupeKey: sql`'newsletter-confirm:' || (SELECT id FROM ${newsletterSubscribers} WHERE email = ${email}) || ':' || ${bucket}`,
      },
      sql`EXISTS (SELECT 1 FROM ${newsletterSubscribers} WHERE email = ${email} AND status = 'pending')`,
    ),
    db.select().from(newsletterSubscribers).where(ofEmail),
  ]);
  if (!row || row.status === 'active') {
    return { ok: false, reason: 'already_subscribed', message: 'Email already subscribed' };
  }
  const state = inserted.length > 0 ? 'new' : resubscribed.length > 0 ? 'resubscribed' : 'pending_again';
  return { ok: true, subscriber: row, state };
}

/** What following a confirmation link did. */
export type ConfirmResult = 'confirmed' | 'already_active' | 'unsubscribed' | 'not_found';

/**
 * Confirms a pending subscriber (the link of the confirmation mail): active, confirmed now, and the
 * welcome mail in the same batch, once. An active one stays as it is; an unsubscribed one must sign up again.
 */
export async function confirmSubscriber(
  db: Db,
  email: string,
  welcome: SubscriberMail,
  now = Date.now(),
): Promise<ConfirmResult> {
  const at = new Date(now).toISOString();
  const ofEmail = eq(newsletterSubscribers.email, email);
  const [confirmed, , [row]] = await db.batch([
    db
      .update(newsletterSubscribers)
      .set({ status: 'active', confirmed_at: at, unsubscribed_at: null })
      .where(and(ofEmail, eq(newsletterSubscribers.status, 'pending')))
      .returning({ id: newsletterSubscribers.id }),
    enqueueMailWhen(
      db,
      {
        ...welcome,
        kind: 'newsletter_welcome',
        to: email,
        dedupeKey: sql`'newsletter-welcome:' || (SELECT id FROM ${newsletterSubscribers} WHERE email = ${email}) || ':' || ${at}`,
      },
      sql`changes() = 1`,
    ),
    db.select({ status: newsletterSubscribers.status }).from(newsletterSubscribers).where(ofEmail),
  ]);
  if (confirmed.length > 0) return 'confirmed';
  if (!row) return 'not_found';
  return row.status === 'active' ? 'already_active' : row.status === 'unsubscribed' ? 'unsubscribed' : 'not_found';
}

// --- the weekly issue ---------------------------------------------------------------------------

/** A stored weekly issue. */
export type NewsletterIssue = typeof newsletterIssues.$inferSelect;

/** The listing fields an issue shows. */
export interface IssueListing {
  id: number;
  name: string;
  slug: string;
  description: string;
  is_premium: boolean;
  is_sponsored: boolean;
}

/** A listing that grew this week: members now and at its first check of the week. */
export interface GrowingListing extends IssueListing {
  members: number;
  membersBefore: number;
}

/** The premium and sponsored picks an issue carries: the home page's Premium Picks, in their order. */
export async function listIssuePicks(db: Db, limit = 6): Promise<IssueListing[]> {
  const servers = await listFeaturedServers(db, limit);
  return servers.map(({ id, name, slug, description, is_premium, is_sponsored }) => ({
    id,
    name,
    slug,
    description,
    is_premium,
    is_sponsored,
  }));
}

/**
 * The listed servers that grew most (as a share of their members) since `since`: members now
 * against their first working check at or after `since` (server_snapshots). Empty until the
 * refresh job has history. Read by steps of listing ids (listing-steps.ts), each step's best kept:
 * at a million listings, one read of the week's checks held the server for seconds.
 */
export async function listGrowingServers(db: Db, since: string, limit = 5): Promise<GrowingListing[]> {
  const unlisted = sql.join(
    UNLISTED_INVITE_STATUSES.map((s) => sql`${s}`),
    sql`, `,
  );
  const best: GrowingListing[] = [];
  const growth = (g: GrowingListing) => (g.members - g.membersBefore) / g.membersBefore;
  const order = (a: GrowingListing, b: GrowingListing) => growth(b) - growth(a) || a.id - b.id;
  for await (const { from, to } of idSteps(db)) {
    const rows = await db.all<{
      id: number;
      name: string;
      slug: string;
      description: string;
      is_premium: number;
      is_sponsored: number;
      members: number;
      before: number;
    }>(sql`SELECT s.id, s.name, s.slug, s.description, s.is_premium, s.is_sponsored, s.members, f.member_count AS before
FROM (SELECT server_id, member_count, min(checked_at) FROM ${serverSnapshots}
      WHERE server_id >= ${from} AND server_id < ${to} AND checked_at >= ${since} AND outcome = 'ok' AND member_count > 0
      GROUP BY server_id) f
CROSS JOIN ${discordServers} s ON s.id = f.server_id
WHERE s.is_active = 1 AND s.invite_status NOT IN (${unlisted}) AND s.members > f.member_count
ORDER BY (s.members - f.member_count) * 1.0 / f.member_count DESC, s.id
LIMIT ${limit}`);
    for (const r of rows)
      best.push({
        id: Number(r.id),
        name: r.name,
        slug: r.slug,
        description: r.description,
        is_premium: Boolean(r.is_premium),
        is_sponsored: Boolean(r.is_sponsored),
        members: Number(r.members),
        membersBefore: Number(r.before),
      });
    best.sort(order).splice(limit);
  }
  return best;
}

/** The issue of an ISO week ('2026-W48'), or null before it is composed. */
export async function getIssueByWeek(db: Db, week: string): Promise<NewsletterIssue | null> {
  const [row] = await db.select().from(newsletterIssues).where(eq(newsletterIssues.week, week));
  return row ?? null;
}

/**
 * Stores the week's issue as composed, once: a second call for the same week keeps the first
 * (its content and time, which fix who receives it). Returns the stored issue and whether this call made it.
 */
export async function createIssue(
  db: Db,
  issue: { week: string; subject: string; content: Record<string, unknown>; createdAt: string },
): Promise<{ issue: NewsletterIssue; created: boolean }> {
  const inserted = await db
    .insert(newsletterIssues)
    .values({ week: issue.week, subject: issue.subject, content: issue.content, created_at: issue.createdAt })
    .onConflictDoNothing()
    .returning();
  if (inserted[0]) return { issue: inserted[0], created: true };
  return { issue: (await getIssueByWeek(db, issue.week))!, created: false };
}

/**
 * Composes a stored issue again at `createdAt` (its content and time, which fix who receives it)
 * while no copy of it is written (`recipient_count` 0: it was composed when nobody was confirmed),
 * from the first subscriber. Returns the issue, or null when a copy was written meanwhile (then the
 * stored issue stands).
 */
export async function recomposeUnsentIssue(
  db: Db,
  issue: { week: string; subject: string; content: Record<string, unknown>; createdAt: string },
): Promise<NewsletterIssue | null> {
  const [row] = await db
    .update(newsletterIssues)
    .set({ subject: issue.subject, content: issue.content, created_at: issue.createdAt, enqueued_through: 0 })
    .where(and(eq(newsletterIssues.week, issue.week), eq(newsletterIssues.recipient_count, 0)))
    .returning();
  return row ?? null;
}

/** The confirmed, active subscribers an issue is for: confirmed at or before `at`. */
const recipientsAt = (at: string) =>
  and(
    eq(newsletterSubscribers.status, 'active'),
    isNotNull(newsletterSubscribers.confirmed_at),
    lte(newsletterSubscribers.confirmed_at, at),
  );

/**
 * How many confirmed, active subscribers an issue composed at `at` goes to (the console's send
 * button); with `afterId`, only those after it (the ones a send that stopped there has still to write).
 */
export async function countIssueRecipients(
  db: Db,
  at: string,
  { afterId = 0 }: { afterId?: number } = {},
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)` })
    .from(newsletterSubscribers)
    .where(and(recipientsAt(at), gt(newsletterSubscribers.id, afterId)));
  return Number(row?.n ?? 0);
}

/** Whether any confirmed, active subscriber was confirmed at or before `at` (one row read). */
export async function hasIssueRecipients(db: Db, at: string): Promise<boolean> {
  return (await listIssueRecipients(db, at, { limit: 1 })).length > 0;
}

/**
 * How many active subscribers were confirmed after `at` (an issue's time): those a week's issue,
 * once composed, is not for; they get next week's.
 */
export async function countConfirmedAfter(db: Db, at: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)` })
    .from(newsletterSubscribers)
    .where(and(eq(newsletterSubscribers.status, 'active'), gt(newsletterSubscribers.confirmed_at, at)));
  return Number(row?.n ?? 0);
}

/** One page of an issue's recipients by id, after `afterId`. */
export function listIssueRecipients(
  db: Db,
  at: string,
  { afterId = 0, limit = 200 }: { afterId?: number; limit?: number } = {},
): Promise<{ id: number; email: string }[]> {
  return db
    .select({ id: newsletterSubscribers.id, email: newsletterSubscribers.email })
    .from(newsletterSubscribers)
    .where(and(recipientsAt(at), gt(newsletterSubscribers.id, afterId)))
    .orderBy(asc(newsletterSubscribers.id))
    .limit(limit);
}

/** The outbox key of one subscriber's copy of a week's issue. */
export const issueMailKey = (week: string, subscriberId: number) => `newsletter-issue:${week}:${subscriberId}`;

/**
 * Writes a page of an issue's mails to the outbox with the issue's recipient count, in one batch:
 * a copy already there (keyed `newsletter-issue:{week}:{subscriber}`) is not written again, so a
 * second run of the week sends nothing, and none is written for a subscriber no longer active.
 * Returns how many were new.
 */
export async function enqueueIssueMails(
  db: Db,
  week: string,
  mails: (Omit<MailInput, 'dedupeKey' | 'kind'> & { subscriberId: number })[],
): Promise<number> {
  if (mails.length === 0) return 0;
  const prefix = `newsletter-issue:${week}:`;
  const count = sql`(SELECT count(*) FROM ${mailOutbox} WHERE kind = 'newsletter_issue' AND substr(dedupe_key, 1, ${prefix.length}) = ${prefix})`;
  const before = db
    .select({ n: sql<number>`${count}` })
    .from(newsletterIssues)
    .where(eq(newsletterIssues.week, week));
  const results = await db.batch([
    before,
    // Each copy only while its subscriber is still active: one who unsubscribed after the page was
    // read (their waiting mails were given up then) gets no copy written after it.
    ...mails.map(({ subscriberId, ...m }) =>
      enqueueMailWhen(
        db,
        { ...m, kind: 'newsletter_issue', dedupeKey: sql`${issueMailKey(week, subscriberId)}` },
        sql`EXISTS (SELECT 1 FROM ${newsletterSubscribers} WHERE id = ${subscriberId} AND status = 'active')`,
      ),
    ),
    db
      .update(newsletterIssues)
      .set({
        recipient_count: count,
        enqueued_through: sql`max(${newsletterIssues.enqueued_through}, ${Math.max(...mails.map((m) => m.subscriberId))})`,
      })
      .where(eq(newsletterIssues.week, week))
      .returning(),
  ]);
  const first = Number((results[0] as { n: number }[])[0]?.n ?? 0);
  const last = results.at(-1) as NewsletterIssue[];
  return Number(last[0]?.recipient_count ?? 0) - first;
}

/** One subscriber by email, or null. */
export async function getSubscriberByEmail(db: Db, email: string): Promise<Subscriber | null> {
  const [row] = await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)).limit(1);
  return row ?? null;
}

/** Subscribers newest first, optionally searched by email and filtered by status, one page with the total. */
export async function listSubscribers(
  db: Db,
  options: SubscriberListOptions = {},
): Promise<{ subscribers: Subscriber[]; total: number }> {
  const search = options.search?.trim().toLowerCase();
  const pattern = search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const where = and(
    pattern ? sql`${newsletterSubscribers.email} LIKE ${pattern} ESCAPE '\\'` : undefined,
    options.status ? eq(newsletterSubscribers.status, options.status) : undefined,
  );
  const { rows, total } = await pageNewestFirst(db, newsletterSubscribers, where, options);
  return { subscribers: rows, total };
}

/** Updates a subscriber by id, with the operator's audit row in the same batch when given; the row or null. */
export async function updateSubscriber(
  db: Db,
  id: number,
  patch: SubscriberPatch,
  audit?: AuditWrite,
): Promise<Subscriber | null> {
  if (audit) {
    // Audited even when it sets nothing new: the row is written as it is, with its audit row.
    const set = Object.keys(patch).length ? patch : { id: sql`${newsletterSubscribers.id}` };
    const [row] = await withAudit(
      db,
      db.update(newsletterSubscribers).set(set).where(eq(newsletterSubscribers.id, id)).returning(),
      audit,
    );
    return row ?? null;
  }
  if (Object.keys(patch).length === 0) {
    const [row] = await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.id, id)).limit(1);
    return row ?? null;
  }
  const [row] = await db.update(newsletterSubscribers).set(patch).where(eq(newsletterSubscribers.id, id)).returning();
  return row ?? null;
}

/** Sets or clears the premium flag by email; returns the row or null. */
export async function setSubscriberPremium(db: Db, email: string, premium: boolean): Promise<Subscriber | null> {
  const [row] = await db
    .update(newsletterSubscribers)
    .set({ premium_subscriber: premium })
    .where(eq(newsletterSubscribers.email, email))
    .returning();
  return row ?? null;
}

/** The newsletter_stats view's row and the count of pending (unconfirmed) addresses. */
export async function getNewsletterStats(db: Db): Promise<NewsletterStats> {
  const [[row], [waiting]] = await Promise.all([
    db.select().from(newsletterStats),
    db
      .select({ n: sql<number>`count(*)` })
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.status, 'pending')),
  ]);
  const figures = row ?? { total: 0, active: 0, unsubscribed: 0, premium: 0, new_last_7_days: 0, new_last_30_days: 0 };
  return { ...figures, pending: Number(waiting?.n ?? 0) };
}

/** A subscriber's address, read inside a batch (the audit row of a console change). */
export const subscriberEmailNow = (id: number) =>
  sql`(SELECT ${newsletterSubscribers.email} FROM ${newsletterSubscribers} WHERE ${newsletterSubscribers.id} = ${id})`;
