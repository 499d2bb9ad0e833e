import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/sqlite-core';
import type { Db } from '../client';
import { type BuiltQuery, readBuilt } from '../prepared';
import { badgeFetches, discordServers, type ServerRow, serverSlugs } from '../schema';
import { decodeServerRows } from './server-rows';

/** What a badge or an embedded card shows of a listing: a handful of columns, read by slug. */
export const BADGE_COLUMNS = {
  id: discordServers.id,
  slug: discordServers.slug,
  name: discordServers.name,
  category: discordServers.category,
  members: discordServers.members,
  active_users: discordServers.active_users,
  rank_score: discordServers.rank_score,
  // The place the rank recompute stored: the rank variant reads it, never counting the category.
  category_place: discordServers.category_place,
  is_active: discordServers.is_active,
  invite_status: discordServers.invite_status,
  last_checked_at: discordServers.last_checked_at,
  image_url: discordServers.image_url,
  guild_id: discordServers.guild_id,
  guild_icon: discordServers.guild_icon,
  affiliate_link: discordServers.affiliate_link,
  is_premium: discordServers.is_premium,
  is_sponsored: discordServers.is_sponsored,
  // The member reviews' average and count (#31): the rating variant.
  rating: discordServers.rating,
  review_count: discordServers.review_count,
} as const;

/** A listing as its badge and embedded card read it. */
export type BadgeFacts = Pick<ServerRow, keyof typeof BADGE_COLUMNS>;

/**
 * The listing at `slug`, or at a slug it had before a rename (an owner's README keeps working),
 * hidden or not: the caller decides what a hidden or dead listing shows. Two primary-key or
 * unique-index lookups at most, whatever the number of listings. Null when no listing has the slug.
 */
export async function getBadgeFacts(db: Db, slug: string): Promise<BadgeFacts | null> {
  const [row] = await readFacts(db, BADGE_SQL.current, slug);
  if (row) return row;
  const [former] = await readFacts(db, BADGE_SQL.former, slug);
  return former ?? null;
}

const BADGE_KEYS = Object.keys(BADGE_COLUMNS) as (keyof typeof BADGE_COLUMNS)[];
const builder = new QueryBuilder();
const SLUG = sql.placeholder('slug');

/**
 * Both reads' SQL, built once with the slug as a placeholder: a badge read is one index lookup,
 * and building the query for each one cost more than the lookup (bench: Storage seam).
 */
const BADGE_SQL = {
  current: builder.select(BADGE_COLUMNS).from(discordServers).where(eq(discordServers.slug, SLUG)).limit(1).toSQL(),
  former: builder
    .select(BADGE_COLUMNS)
    .from(serverSlugs)
    .innerJoin(discordServers, eq(discordServers.id, serverSlugs.server_id))
    .where(eq(serverSlugs.slug, SLUG))
    .limit(1)
    .toSQL(),
};

/**
 * The rows of a read built once, for `slug` (readBuilt: the prepared connection on Node, the client
 * on the Worker), decoded as drizzle decodes them.
 */
async function readFacts(db: Db, query: BuiltQuery, slug: string): Promise<BadgeFacts[]> {
  return decodeServerRows<BadgeFacts>(await readBuilt(db, query, { slug }), BADGE_KEYS);
}

/** One listing's fetches on one UTC day, to add to its row. */
export interface BadgeFetchCount {
  serverId: number;
  day: string;
  fetches: number;
}

/** Adds tallied badge fetches to the daily rows, all in one statement (a row per listing and day, never per fetch). */
export async function addBadgeFetches(db: Db, counts: readonly BadgeFetchCount[]): Promise<void> {
  if (counts.length === 0) return;
  await db
    .insert(badgeFetches)
    .values(counts.map((c) => ({ server_id: c.serverId, day: c.day, fetches: c.fetches })))
    .onConflictDoUpdate({
      target: [badgeFetches.server_id, badgeFetches.day],
      set: { fetches: sql`${badgeFetches.fetches} + excluded.fetches` },
    })
    // A listing removed since its fetches were tallied has no row to count against.
    .catch(async (err: unknown) => {
      if (!/FOREIGN KEY/i.test(String((err as { message?: unknown })?.message ?? err))) throw err;
      const ids = [...new Set(counts.map((c) => c.serverId))];
      const alive = new Set(
        (await db.select({ id: discordServers.id }).from(discordServers).where(inArray(discordServers.id, ids))).map(
          (r) => r.id,
        ),
      );
      const kept = counts.filter((c) => alive.has(c.serverId));
      if (kept.length > 0 && kept.length < counts.length) await addBadgeFetches(db, kept);
    });
}

/** Badge fetches per listing since `day` (YYYY-MM-DD, included), summed: the owner's account shows them. */
export async function badgeFetchTotals(
  db: Db,
  serverIds: readonly number[],
  day: string,
): Promise<Map<number, number>> {
  if (serverIds.length === 0) return new Map();
  const rows = await db
    .select({ id: badgeFetches.server_id, n: sql<number>`sum(${badgeFetches.fetches})` })
    .from(badgeFetches)
    .where(and(inArray(badgeFetches.server_id, [...serverIds]), gte(badgeFetches.day, day)))
    .groupBy(badgeFetches.server_id);
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

/** Slugs of `n` listings of `category` picked at random (the badge bench's requests): one walk of the category's index. */
export async function randomSlugsInCategory(db: Db, n: number, category: string): Promise<string[]> {
  const rows = await db
    .select({ slug: discordServers.slug })
    .from(discordServers)
    .where(eq(discordServers.category, category))
    .orderBy(sql`random()`)
    .limit(n);
  return rows.map((r) => r.slug);
}

/**
 * Marks listings as found working by a check at `at` (the badge bench's stand-in for the refresh
 * job, so the rank recompute scores them): 500 slugs per statement, one batch.
 */
export async function markListingsChecked(db: Db, slugs: readonly string[], at: string): Promise<void> {
  const statements = [];
  for (let i = 0; i < slugs.length; i += 500) {
    statements.push(
      db
        .update(discordServers)
        .set({ invite_status: 'ok', last_checked_at: at, last_ok_at: at })
        .where(inArray(discordServers.slug, slugs.slice(i, i + 500))),
    );
  }
  const [first, ...rest] = statements;
  if (first) await db.batch([first, ...rest]);
}

/** Slugs of about `n` listings picked at random by id (the storage bench's reads); fewer where ids have gaps. */
export async function randomServerSlugs(db: Db, n: number): Promise<string[]> {
  const [top] = await db.select({ max: sql<number>`max(${discordServers.id})` }).from(discordServers);
  const max = Number(top?.max ?? 0);
  if (max === 0) return [];
  const ids = Array.from({ length: n }, () => 1 + Math.floor(Math.random() * max));
  const slugs: string[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .select({ slug: discordServers.slug })
      .from(discordServers)
      .where(inArray(discordServers.id, ids.slice(i, i + 500)));
    for (const r of rows) slugs.push(r.slug);
  }
  return slugs;
}
