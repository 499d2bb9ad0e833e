import { and, eq, sql } from 'drizzle-orm';
import { isUniqueViolation } from '../busy';
import type { Db } from '../client';
import { newsletterStats, newsletterSubscribers, type SubscriberRow } from '../schema';
import { type PageOptions, pageNewestFirst } from './paginate';

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
export type NewsletterStats = typeof newsletterStats.$inferSelect;

const nowIso = () => new Date().toISOString();

/**
 * Subscribes an email (SPEC section 7: source homepage_signup, interests premium_servers,
 * active, confirmed now). An active duplicate is refused; an unsubscribed one is reactivated.
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

/** Unsubscribes by email (keeps the first unsubscribed_at when repeated). Returns the row or null. */
export async function unsubscribeEmail(db: Db, email: string): Promise<Subscriber | null> {
  const [row] = await db
    .update(newsletterSubscribers)
    .set({
      status: 'unsubscribed',
      unsubscribed_at: sql`coalesce(${newsletterSubscribers.unsubscribed_at}, ${nowIso()})`,
    })
    .where(eq(newsletterSubscribers.email, email))
    .returning();
  return row ?? null;
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

/** Updates a subscriber by id; returns the row or null. */
export async function updateSubscriber(db: Db, id: number, patch: SubscriberPatch): Promise<Subscriber | null> {
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

/** The single row of the newsletter_stats view. */
export async function getNewsletterStats(db: Db): Promise<NewsletterStats> {
  const [row] = await db.select().from(newsletterStats);
  return row ?? { total: 0, active: 0, unsubscribed: 0, premium: 0, new_last_7_days: 0, new_last_30_days: 0 };
}
