import type { Client, InStatement } from '@libsql/client';
import {
  and,
  asc,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  like,
  lt,
  lte,
  max,
  not,
  notInArray,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { QueryBuilder } from 'drizzle-orm/sqlite-core';
import { CATEGORY_NAMES } from '../../src/lib/categories';
import type { SortOrder } from '../../src/lib/enums';
import { parseDiscordInvite } from '../../src/lib/invite';
import {
  checkedSince,
  DEFAULT_PAGE_SIZE,
  DEFAULT_SORT,
  isAll,
  isPaidPlacement,
  type ListingFilter,
  MIN_INDEXED_SEARCH,
  PAGELESS_INVITE_STATUSES,
  SHORT_TERM_WINDOW,
  SORT_KEYS,
  searchTerm,
  subcategoryNeedle,
  UNLISTED_INVITE_STATUSES,
} from '../../src/lib/listing';
import { placedPage, placesAtHead, readHeadFirst } from '../../src/lib/placement';
import { type CategoryRank, shownPlace } from '../../src/lib/ranking/explanation';
import { serverSlug, slugVariants } from '../../src/lib/slug';
import type { Db } from '../client';
import { type BuiltQuery, readBuilt } from '../prepared';
import { discordServers, type NewServerRow, orders, type ServerRow, serverSlugs } from '../schema';
import { type AuditAuthor, type AuditWrite, auditRowWhen, auditStatements, withAudit } from './audit';
import { countListedInCategory, readListingGroups, summarize } from './listing-groups';
import { holdsMoney } from './orders';
import { decodeServerRows, selectServerRows } from './server-rows';

export type Server = ServerRow;

/** A listing filter (src/lib/listing.ts) with its order and page. */
export interface ServerFilter extends ListingFilter {
  sort?: SortOrder | undefined;
  page?: number | undefined;
  perPage?: number | undefined;
}

/**
 * Quotes a term as one FTS5 phrase (double quotes doubled), so the index sees characters, never
 * syntax: AND, NEAR(, *, - and quotes in a search are text to find.
 */
const ftsPhrase = (term: string) => `"${term.replace(/"/g, '""')}"`;

/** Escapes LIKE wildcards so a search for '50%' means the characters. */
const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Case-insensitive partial match on name, description or a tag (a term from searchTerm): the
 * search box promises "name or topic". Trigram index (all three, migration 0003) for 3+ characters.
 */
function searchCondition(term: string): SQL {
  if ([...term].length >= MIN_INDEXED_SEARCH) {
    return sql`${discordServers.id} IN (SELECT rowid FROM discord_servers_fts WHERE discord_servers_fts MATCH ${ftsPhrase(term)})`;
  }
  const pattern = likePattern(term);
  return or(
    sql`${discordServers.name} LIKE ${pattern} ESCAPE '\\'`,
    sql`${discordServers.description} LIKE ${pattern} ESCAPE '\\'`,
    // Each tag's text, not the JSON: its quotes and commas are not part of any topic.
    sql`EXISTS (SELECT 1 FROM json_each(${discordServers.tags}) WHERE value LIKE ${pattern} ESCAPE '\\')`,
  ) as SQL;
}

/** The WHERE clause of the public listing: matchesFilter (src/lib/listing.ts) in SQL, `now` in ms. */
export function listingWhere(filter: ServerFilter, matchesFirst = false, now = Date.now()): SQL | undefined {
  // matchesFirst: a unary + keeps SQLite off the is_active/category indexes, so it looks the
  // search matches up by primary key instead of walking every active server.
  const active = matchesFirst ? sql`+${discordServers.is_active} = 1` : eq(discordServers.is_active, true);
  const category = sql`+${discordServers.category}`;
  const conditions: (SQL | undefined)[] = [
    active,
    matchesFirst ? inArray(category, [...CATEGORY_NAMES]) : inArray(discordServers.category, [...CATEGORY_NAMES]),
    // isListed: a dead invite, or one to another guild, is off the listing until a check finds it working.
    notInArray(discordServers.invite_status, [...UNLISTED_INVITE_STATUSES]),
  ];
  if (filter.category && !isAll(filter.category)) {
    conditions.push(
      matchesFirst ? sql`${category} = ${filter.category}` : eq(discordServers.category, filter.category),
    );
  }
  if (filter.subcategory && !isAll(filter.subcategory)) {
    conditions.push(like(discordServers.subcategory, likePattern(subcategoryNeedle(filter.subcategory))));
  }
  const search = searchTerm(filter.search);
  if (search) conditions.push(searchCondition(search));
  if (filter.premiumOnly) {
    conditions.push(or(eq(discordServers.is_premium, true), eq(discordServers.is_sponsored, true)));
  }
  if (filter.minMembers !== undefined) conditions.push(gte(discordServers.members, filter.minMembers));
  if (filter.maxMembers !== undefined) conditions.push(lte(discordServers.members, filter.maxMembers));
  if (filter.minOnlineShare) {
    // hasOnlineShare: the same product as in JavaScript, never a division.
    conditions.push(
      sql`${discordServers.members} > 0 AND ${discordServers.active_users} >= ${filter.minOnlineShare} * ${discordServers.members}`,
    );
  }
  if (filter.checked24h) conditions.push(gte(discordServers.last_ok_at, checkedSince(now)));
  if (filter.language) conditions.push(eq(discordServers.language, filter.language));
  if (filter.region) conditions.push(eq(discordServers.region, filter.region));
  return and(...conditions);
}

/** compareServers (src/lib/listing.ts) in SQL: SORT_KEYS descending, then id ascending for stable pages. */
function listingOrder(sort: SortOrder = DEFAULT_SORT) {
  return [...SORT_KEYS[sort].map((key) => desc(discordServers[key])), asc(discordServers.id)];
}

/** A page of the listing and how many servers pass the filter; a search's count (or a row-value filter's) stops at SEARCH_TOTAL_CAP. */
export interface ServerPageResult {
  servers: Server[];
  /** How many pass: exact, or when totalExact is false at least this many (a search with more than SEARCH_TOTAL_CAP matches). */
  total: number;
  totalExact: boolean;
}

/**
 * A search (or a filter on row values) counts its matches up to this many and then says "more
 * than": counting every match of a common term among a million listings takes SQLite ~0.3 s,
 * the first thousand a few ms.
 */
export const SEARCH_TOTAL_CAP = 1_000;

/**
 * The trigram match as a test of one row, for walking an order's index: LIKE folds ASCII case
 * as the index does, so it is exact for ASCII terms (listServers sorts the others' matches).
 * The index reads the tags joined by spaces. A term without quotes or backslashes (which JSON
 * escapes) is in those exactly when it is in the stored JSON text, or for a term with a space,
 * in that text with its '","' read as spaces: no JSON parsing per row. Other terms parse it.
 */
function likeSearchCondition(term: string): SQL {
  const pattern = likePattern(term);
  const tags = /["\\]/.test(term)
    ? sql`(SELECT group_concat(value, ' ') FROM json_each(${discordServers.tags}))`
    : /\s/.test(term)
      ? sql`replace(replace(replace(${discordServers.tags}, '","', ' '), '["', ''), '"]', '')`
      : sql`${discordServers.tags}`;
  return or(
    sql`${discordServers.name} LIKE ${pattern} ESCAPE '\\'`,
    sql`${discordServers.description} LIKE ${pattern} ESCAPE '\\'`,
    sql`${tags} LIKE ${pattern} ESCAPE '\\'`,
  ) as SQL;
}

/**
 * Listed servers (isListed) matching the filter, one page of them, with the total count (a
 * search's capped at SEARCH_TOTAL_CAP); `now` (ms) is the clock of "checked in the last 24 hours".
 */
export async function listServers(db: Db, filter: ServerFilter = {}, now = Date.now()): Promise<ServerPageResult> {
  const perPage = filter.perPage ?? DEFAULT_PAGE_SIZE;
  const page = filter.page ?? 1;
  const term = searchTerm(filter.search);
  if (term) return searchServers(db, filter, term, page, perPage, now);
  const where = listingWhere(filter, false, now);
  // A filter on row values (a size range, an online share, checked in 24 hours, premium, a
  // subcategory, a region) makes an exact count read every listing that passes it: at a million
  // listings seconds, so such a count stops at the cap too. A category or none keeps its exact
  // count from listing_groups (a read of a few hundred rows: counting the listing's rows took
  // 130-250 ms at a million listings); a language its exact count, one index range.
  const capped =
    filter.minMembers !== undefined ||
    filter.maxMembers !== undefined ||
    Boolean(filter.minOnlineShare || filter.checked24h || filter.premiumOnly || filter.region) ||
    !isAll(filter.subcategory);
  const grouped = !capped && !filter.language;
  const category = filter.category && !isAll(filter.category) ? filter.category : undefined;
  const [servers, totals] = await Promise.all([
    db
      .select()
      .from(discordServers)
      .where(where)
      .orderBy(...listingOrder(filter.sort))
      .limit(perPage)
      .offset((page - 1) * perPage),
    grouped
      ? readListingGroups(db).then((groups) => [{ n: summarize(groups, { category }).servers }])
      : capped
        ? db.all<{ n: number }>(
            sql`SELECT count(*) AS n FROM (SELECT 1 FROM ${discordServers} WHERE ${where} LIMIT ${SEARCH_TOTAL_CAP + 1})`,
          )
        : db.select({ n: sql<number>`count(*)` }).from(discordServers).where(where),
  ]);
  const found = Number(totals[0]?.n ?? 0);
  if (!capped) return { servers, total: found, totalExact: true };
  return { servers, total: Math.min(found, SEARCH_TOTAL_CAP), totalExact: found <= SEARCH_TOTAL_CAP };
}

/** Most Sponsored listings a category's list leads with (the slots cap them at a few; comps too). */
const HEAD_LIMIT = 100;

/**
 * The Sponsored listings that lead a category's list (placesAtHead, isHeadPlacement) passing the
 * filter, in the list's order.
 */
async function listHeadServers(db: Db, filter: ServerFilter, now: number): Promise<Server[]> {
  return db
    .select()
    .from(discordServers)
    .where(and(listingWhere(filter, false, now), eq(discordServers.is_sponsored, true)))
    .orderBy(...listingOrder(filter.sort))
    .limit(HEAD_LIMIT);
}

/**
 * One page of the public listing with paid cards placed (src/lib/placement.ts: at most one in
 * five positions; a category's Sponsored listings at its head, the others never moved up): what
 * GET /api/servers answers. Premium Only lists are all paid by the visitor's choice and keep
 * their order. Reads prefixes of the listing (listServers).
 */
export async function listPlacedServers(
  db: Db,
  filter: ServerFilter = {},
  now = Date.now(),
): Promise<ServerPageResult> {
  if (filter.premiumOnly) return listServers(db, filter, now);
  // A search's count may stop at its cap (#18): the page says so as its last read did.
  let totalExact = true;
  const heads = placesAtHead(filter) ? await listHeadServers(db, filter, now) : [];
  const placed = await placedPage(
    readHeadFirst(
      async (n) => {
        const read = await listServers(db, { ...filter, page: 1, perPage: n }, now);
        totalExact = read.totalExact;
        return read;
      },
      heads,
      (s) => s.id,
    ),
    isPaidPlacement,
    filter.page ?? 1,
    filter.perPage ?? DEFAULT_PAGE_SIZE,
  );
  return { ...placed, totalExact };
}

/**
 * How many trigram matches a search sorts (a primary-key read each) before it walks the order's
 * index instead, testing each row (~rows needed / density rows). Sorting m matches costs m reads,
 * walking costs about need * listings / m, so the two meet at sqrt(need * listings): about 1,300
 * for a first page (12 cards and one paid spacing, placedPage's first read) among 100,000
 * listings, 4,100 among a million. The cap was 3,000, below that meeting point at a million:
 * terms with 3,000 to 4,100 matches walked up to 5,700 rows (40-60 ms ad hoc); capped at 5,000
 * now (the ids read first). `listings` is the highest id, which costs one index lookup to know.
 */
const SORTED_SEARCH_MAX = 5_000;
const sortedSearchMax = (need: number, listings: number): number =>
  Math.min(SORTED_SEARCH_MAX, Math.max(200, Math.round(Math.sqrt(need * listings))));

/**
 * listServers with a search, reading at most a few thousand rows however many listings there
 * are. The index's matches are read first, up to sortedSearchMax + 1 ids, without reading a row.
 * Few: those rows are sorted for the page and counted exactly in the same read. Many: the listed ones
 * are counted up to SEARCH_TOTAL_CAP + 1 (the matches joined to their rows in the index's order)
 * and the page comes from walking the order's index with a LIKE test of each row. A term too
 * short for the index is looked for by LIKE among the order's first listings (shortTermSearch).
 */
async function searchServers(
  db: Db,
  filter: ServerFilter,
  term: string,
  page: number,
  perPage: number,
  now: number,
): Promise<ServerPageResult> {
  const indexed = [...term].length >= MIN_INDEXED_SEARCH;
  if (!indexed) return shortTermSearch(db, filter, term, page, perPage, now);
  const phrase = ftsPhrase(term);
  const [top] = await db.select({ id: max(discordServers.id) }).from(discordServers);
  const sortedMax = sortedSearchMax(page * perPage, Number(top?.id ?? 0));
  // One row of comma-separated ids: 3,001 rows through the driver cost more than finding them.
  const [matches] = await db.all<{ ids: string | null }>(
    sql`SELECT group_concat(rowid) AS ids FROM (SELECT rowid FROM discord_servers_fts WHERE discord_servers_fts MATCH ${phrase} LIMIT ${sortedMax + 1})`,
  );
  const ids = matches?.ids ? matches.ids.split(',').map(Number) : [];
  if (ids.length === 0) return { servers: [], total: 0, totalExact: true };
  // Sorted: few matches, or a term with characters LIKE does not fold as the index does.
  const ascii = /^[\x20-\x7e]*$/.test(term);
  if (ids.length <= sortedMax || !ascii) {
    // The matches by primary key (listingWhere's matchesFirst form), counted in the same read.
    const matched =
      ids.length <= sortedMax
        ? and(listingWhere({ ...filter, search: undefined }, true, now), inArray(discordServers.id, ids))
        : listingWhere(filter, true, now);
    const rows = await db
      .select({ server: discordServers, total: sql<number>`count(*) OVER ()` })
      .from(discordServers)
      .where(matched)
      .orderBy(...listingOrder(filter.sort))
      .limit(perPage)
      .offset((page - 1) * perPage);
    if (rows.length > 0) {
      return { servers: rows.map((r) => r.server), total: Number(rows[0]!.total), totalExact: true };
    }
    const [counted] = await db.select({ n: sql<number>`count(*)` }).from(discordServers).where(matched);
    return { servers: [], total: Number(counted?.n ?? 0), totalExact: true };
  }
  const rest = listingWhere({ ...filter, search: undefined }, false, now);
  // CROSS JOIN keeps SQLite on the index's matches rather than scanning the table for them. With
  // no filter but a category, what the listing rule reads is in discord_servers_listed_idx: each
  // match is checked in that small index rather than in its row (the rows of a dense term's
  // matches are scattered over the table: this count was the search's slowest read at a million
  // listings, docs/SCALING.md).
  const covered =
    isAll(filter.subcategory) &&
    filter.minMembers === undefined &&
    filter.maxMembers === undefined &&
    !(filter.minOnlineShare || filter.checked24h || filter.premiumOnly || filter.language || filter.region);
  const [capped] = await db.all<{ n: number }>(
    sql`SELECT count(*) AS n FROM (SELECT 1 FROM discord_servers_fts CROSS JOIN ${discordServers} ${covered ? sql.raw('INDEXED BY discord_servers_listed_idx ') : sql``}ON ${discordServers.id} = discord_servers_fts.rowid WHERE discord_servers_fts MATCH ${phrase} AND ${rest} LIMIT ${SEARCH_TOTAL_CAP + 1})`,
  );
  const found = Number(capped?.n ?? 0);
  const totalExact = found <= SEARCH_TOTAL_CAP;
  const total = Math.min(found, SEARCH_TOTAL_CAP);
  return pageOfMatches(db, and(rest, likeSearchCondition(term)), filter.sort, page, perPage, total, totalExact);
}

/** listServers with a search of one or two characters: LIKE over the order's first SHORT_TERM_WINDOW listings. */
async function shortTermSearch(
  db: Db,
  filter: ServerFilter,
  term: string,
  page: number,
  perPage: number,
  now: number,
): Promise<ServerPageResult> {
  const window = db
    .select({ id: discordServers.id })
    .from(discordServers)
    .where(listingWhere({ ...filter, search: undefined }, false, now))
    .orderBy(...listingOrder(filter.sort))
    .limit(SHORT_TERM_WINDOW);
  // The window's ids drive both reads (SQLite looks each up by primary key, then sorts the matches).
  const matched = and(inArray(discordServers.id, window), searchCondition(term));
  const [counted] = await db.all<{ seen: number; n: number }>(
    sql`SELECT (SELECT count(*) FROM (${window})) AS seen, (SELECT count(*) FROM (SELECT 1 FROM ${discordServers} WHERE ${matched} LIMIT ${SEARCH_TOTAL_CAP + 1})) AS n`,
  );
  const found = Number(counted?.n ?? 0);
  const total = Math.min(found, SEARCH_TOTAL_CAP);
  const totalExact = found <= SEARCH_TOTAL_CAP && Number(counted?.seen ?? 0) < SHORT_TERM_WINDOW;
  return pageOfMatches(db, matched, filter.sort, page, perPage, total, totalExact);
}

/** One page of the matches of a search whose (capped) total is already counted; none past the total. */
async function pageOfMatches(
  db: Db,
  matched: SQL | undefined,
  sort: SortOrder | undefined,
  page: number,
  perPage: number,
  total: number,
  totalExact: boolean,
): Promise<ServerPageResult> {
  if (total === 0 || (page - 1) * perPage >= total) return { servers: [], total, totalExact };
  const servers = await db
    .select()
    .from(discordServers)
    .where(matched)
    .orderBy(...listingOrder(sort))
    .limit(perPage)
    .offset((page - 1) * perPage);
  return { servers, total, totalExact };
}

/** Every listed server (isListed), most members first. */
export async function listAllActiveServers(db: Db): Promise<Server[]> {
  return db
    .select()
    .from(discordServers)
    .where(listingWhere({}))
    .orderBy(...listingOrder());
}

/**
 * Every server with a page of its own (hasPage: the listed ones and the dead ones, whose page
 * says so), most members first, every column.
 */
export async function listServersWithPages(db: Db): Promise<Server[]> {
  return selectServerRows(
    db,
    db
      .select()
      .from(discordServers)
      .where(withPage())
      .orderBy(...listingOrder()),
  );
}

/** A server as a listing's card shows it: every column but the ones only its own page, the refresh job or the console read. */
export type ListingRow = Omit<
  Server,
  | 'pros'
  | 'cons'
  | 'features'
  | 'rank_explain'
  | 'links'
  | 'invite_code'
  | 'next_check_at'
  | 'fail_streak'
  | 'first_fail_at'
  | 'transient_streak'
>;

/**
 * The columns the build reads of every server with a page (#18): what places, filters, groups,
 * ranks, counts and keys a listing (src/lib/listing.ts, src/lib/placement.ts,
 * src/lib/ranking/explanation.ts, the cache keys), and nothing a card shows. Only the servers a written
 * page shows are read whole, by id.
 */
const LISTING_KEY_COLUMNS = [
  'id',
  'category',
  'subcategory',
  'members',
  'active_users',
  'sort_order',
  'is_active',
  'is_premium',
  'is_sponsored',
  'created_at',
  'updated_at',
  'invite_status',
  'last_checked_at',
  'last_ok_at',
  'rank_score',
  'growth_30d',
  'language',
  'region',
] as const satisfies readonly (keyof Server)[];

/** A server as the build knows every listing's members (#18): LISTING_KEY_COLUMNS. */
export type ListingKey = Pick<Server, (typeof LISTING_KEY_COLUMNS)[number]>;

/**
 * Every server with a page of its own (hasPage: the listed ones and the dead ones, whose page
 * says so), most members first, with only LISTING_KEY_COLUMNS: the build's one read of every
 * listing (#18). At 100,000 servers it took 0.45 s where every column but the page-only ones took
 * 1.2 s (the native driver builds an object per row; fewer columns, less to build and collect).
 */
export async function listListingKeysWithPages(db: Db): Promise<ListingKey[]> {
  const columns = Object.fromEntries(LISTING_KEY_COLUMNS.map((key) => [key, discordServers[key]])) as {
    [K in keyof ListingKey]: (typeof discordServers)[K];
  };
  return selectServerRows<ListingKey>(
    db,
    db
      .select(columns)
      .from(discordServers)
      .where(withPage())
      .orderBy(...listingOrder()),
    LISTING_KEY_COLUMNS,
  );
}

/**
 * Servers by id, in the order of `ids` (ids without a row are skipped), read as
 * listServersWithPages reads them (the native connection on Node): the build's prerendered pages,
 * and the paid cards of a listing page rendered on request.
 */
export async function serversByIds(db: Db, ids: readonly number[]): Promise<Server[]> {
  if (ids.length === 0) return [];
  // One bound JSON array, not one parameter per id: a build asks for 10,000 of them.
  const rows = await selectServerRows(
    db,
    db
      .select()
      .from(discordServers)
      .where(sql`${discordServers.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`),
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The first `limit` servers with a page of their own (hasPage) in the Most Active order
 * (compareServers('active')), every column: the server pages the build prerenders (#18). One
 * read of the rank index, whatever the number of listings.
 */
export async function topServersWithPages(db: Db, limit: number): Promise<Server[]> {
  if (limit <= 0) return [];
  return selectServerRows(
    db,
    db
      .select()
      .from(discordServers)
      .where(withPage())
      .orderBy(...listingOrder('active'))
      .limit(limit),
  );
}

/** A listed Sponsored server as placing a category's list needs it (placesAtHead): which lists it is in. */
export type SponsoredKey = Pick<Server, 'id' | 'category' | 'subcategory' | 'is_premium' | 'is_sponsored'>;

/**
 * Every listed Sponsored server (isHeadPlacement), in the default (members) order: the cards
 * that lead the lists of their category and subcategories (placesAtHead), wherever they stand in
 * them. Through the premium index: a few rows per category in a directory (its sponsored
 * slots), about 20,000 among the bench's million fakes, read in a fraction of a second, where
 * finding them in a category's members order walks the whole category.
 */
export async function listedSponsoredKeys(db: Db): Promise<SponsoredKey[]> {
  const order = sql.join(listingOrder(), sql`, `);
  const rows = await db.all<{ id: number; category: string; subcategory: string | null; is_premium: number }>(
    sql`SELECT ${discordServers.id} AS id, ${discordServers.category} AS category, ${discordServers.subcategory} AS subcategory, ${discordServers.is_premium} AS is_premium FROM ${discordServers} INDEXED BY discord_servers_active_premium_idx WHERE ${listingWhere({})} AND ${discordServers.is_premium} IN (0, 1) AND ${discordServers.is_sponsored} = 1 ORDER BY ${order}`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    category: r.category,
    subcategory: r.subcategory,
    is_premium: Boolean(r.is_premium),
    is_sponsored: true,
  }));
}

/** What placing a listing's paid cards needs to know of it (#18): its size and where its paid listings stand. */
export interface ListingOutline {
  /** How many servers the listing has. */
  total: number;
  /**
   * Its paid listings (isPaidPlacement) in listing order, each with its 0-based organic position
   * and its member count (with the id, its place in the order: where a slice may start reading):
   * all of them, or only those among its first `upTo` servers.
   */
  paid: ListingAnchor[];
  /** How many paid listings it has in all (paid.length when paid holds all of them). */
  paidTotal: number;
  /** The distinct regions its servers name (nulls left out), unordered. */
  regions: string[];
  /** Set when `paid` holds only the paid listings among the first this many servers (listingHead). */
  upTo?: number | undefined;
}

/** A server's place in the default order: a slice of the listing may start reading after it. */
export interface ListingAnchor {
  id: number;
  members: number;
  /** 0-based position in the listing. */
  position: number;
  /** A Sponsored listing (its placement leads a category's list: isHeadPlacement). */
  sponsored: boolean;
}

const isPaidSql = sql`(${discordServers.is_premium} = 1 OR ${discordServers.is_sponsored} = 1)`;

/**
 * Where every paid listing of a listing stands in the default (members) order: SQLite walks the
 * listing once (seconds at a million listings), only the paid rows' ids and positions come back.
 * For a page past the listing's head (listingHead answers the pages before).
 */
export async function listingPaidPositions(
  db: Db,
  filter: Pick<ServerFilter, 'category' | 'subcategory'> = {},
): Promise<ListingAnchor[]> {
  const where = listingWhere({ category: filter.category, subcategory: filter.subcategory });
  const order = sql.join(listingOrder(), sql`, `);
  const paid = await db.all<{ id: number; members: number; position: number; sponsored: number }>(
    sql`SELECT id, members, position, sponsored FROM (SELECT ${discordServers.id} AS id, ${discordServers.members} AS members, ${discordServers.is_sponsored} AS sponsored, ${isPaidSql} AS paid, row_number() OVER (ORDER BY ${order}) - 1 AS position FROM ${discordServers} WHERE ${where}) WHERE paid`,
  );
  // Sorted here: an ORDER BY over the window's output made SQLite sort it again (5x slower).
  return paid
    .map((r) => ({
      id: Number(r.id),
      members: Number(r.members),
      position: Number(r.position),
      sponsored: Boolean(r.sponsored),
    }))
    .sort((a, b) => a.position - b.position);
}

/**
 * The paid listings among a listing's first `count` servers in the default order, with their
 * positions: the index read of `count` rows (milliseconds at any size), which is all a page
 * within them needs to place its paid cards (src/data/listing-page.ts).
 */
export async function listingHead(
  db: Db,
  filter: Pick<ServerFilter, 'category' | 'subcategory'>,
  count: number,
): Promise<ListingAnchor[]> {
  const rows = await db
    .select({
      id: discordServers.id,
      members: discordServers.members,
      sponsored: discordServers.is_sponsored,
      paid: isPaidSql.mapWith(Number),
    })
    .from(discordServers)
    .where(listingWhere({ category: filter.category, subcategory: filter.subcategory }))
    .orderBy(...listingOrder())
    .limit(count);
  return rows.flatMap((r, position) =>
    r.paid ? [{ id: r.id, members: r.members, position, sponsored: Boolean(r.sponsored) }] : [],
  );
}

/**
 * Every Sponsored listing (isHeadPlacement) of a listing in the default order: one read of the
 * index of Sponsored listings per category (discord_servers_sponsored_idx, a few thousand rows at
 * a million listings), for the pages within a category's head (its Sponsored cards lead it).
 */
export async function listingSponsored(
  db: Db,
  filter: Pick<ServerFilter, 'category' | 'subcategory'>,
): Promise<Pick<ListingAnchor, 'id' | 'members'>[]> {
  return db
    .select({ id: discordServers.id, members: discordServers.members })
    .from(discordServers)
    .where(
      and(
        listingWhere({ category: filter.category, subcategory: filter.subcategory }),
        // As the index's own condition reads (not a bound value), so SQLite picks the partial index.
        sql`${discordServers.is_sponsored} = 1`,
      ),
    )
    .orderBy(...listingOrder());
}

/** The first `limit` paid listings (isPaidPlacement) in the curated ('featured') order: Premium Picks. */
export async function paidListingHead(db: Db, limit: number): Promise<Server[]> {
  return db
    .select()
    .from(discordServers)
    .where(and(listingWhere({}), isPaidSql))
    .orderBy(...listingOrder('featured'))
    .limit(limit);
}

/**
 * `limit` servers of a listing in the default (members) order: all of them, or only the unpaid
 * ones (the organic cards a placed page fills its other positions with), skipping `offset` of
 * them after `after` (a server of the listing; from its start without one). Starting from a
 * nearby server keeps a deep page from walking every row before it.
 */
export async function listingSlice(
  db: Db,
  filter: Pick<ServerFilter, 'category' | 'subcategory'>,
  slice: { after?: Pick<ListingAnchor, 'id' | 'members'> | undefined; offset: number; limit: number },
  only: 'all' | 'unpaid' = 'all',
): Promise<Server[]> {
  if (slice.limit <= 0) return [];
  const { after } = slice;
  // On the native connection where there is one (selectServerRows): the build reads 27 listings' heads this way.
  return selectServerRows(
    db,
    db
      .select()
      .from(discordServers)
      .where(
        and(
          listingWhere({ category: filter.category, subcategory: filter.subcategory }),
          only === 'unpaid' ? sql`NOT ${isPaidSql}` : undefined,
          // A range of the members index (then the ties after `after` by id), not an OR SQLite
          // would answer by walking the listing from its start.
          after
            ? and(
                lte(discordServers.members, after.members),
                or(sql`${discordServers.members} < ${after.members}`, sql`${discordServers.id} > ${after.id}`),
              )
            : undefined,
        ),
      )
      .orderBy(...listingOrder())
      .limit(slice.limit)
      .offset(slice.offset),
  );
}

/** 'All' followed by the listed categories that have active servers, sorted. */
export async function listCategories(db: Db): Promise<string[]> {
  const rows = await db
    .selectDistinct({ category: discordServers.category })
    .from(discordServers)
    .where(listingWhere({}));
  return ['All', ...rows.map((r) => r.category).sort()];
}

/** How many listed servers (isListed) each category and stored subcategory has: the public API's category counts. */
export async function countListedBySubcategory(
  db: Db,
): Promise<{ category: string; subcategory: string | null; n: number }[]> {
  const rows = await db
    .select({ category: discordServers.category, subcategory: discordServers.subcategory, n: sql<number>`count(*)` })
    .from(discordServers)
    .where(listingWhere({}))
    .groupBy(discordServers.category, discordServers.subcategory);
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}

/** 'all' followed by the distinct, non-null subcategories of a category's active servers, sorted. */
export async function listSubcategories(db: Db, category: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ subcategory: discordServers.subcategory })
    .from(discordServers)
    .where(
      and(
        eq(discordServers.is_active, true),
        eq(discordServers.category, category),
        notInArray(discordServers.invite_status, [...UNLISTED_INVITE_STATUSES]),
        isNotNull(discordServers.subcategory),
      ),
    )
    .orderBy(asc(discordServers.subcategory));
  return ['all', ...rows.map((r) => r.subcategory as string)];
}

/** Up to six servers for the home page's Premium Picks: premium or sponsored, curated order. */
export async function listFeaturedServers(db: Db, limit = 6): Promise<Server[]> {
  const { servers } = await listServers(db, { premiumOnly: true, sort: 'featured', perPage: limit });
  return servers;
}

const wordsOf = (s: string) =>
  s
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1);

/** hasPage (src/lib/listing.ts) in SQL: the only servers with a page to send a visitor to. */
function withPage() {
  return and(
    eq(discordServers.is_active, true),
    inArray(discordServers.category, [...CATEGORY_NAMES]),
    notInArray(discordServers.invite_status, [...PAGELESS_INVITE_STATUSES]),
  );
}

/**
 * The slugs that start with `base` and a hyphen (`base-2`, `base-f1vx`): a range of the slug's
 * index, since slugs are [a-z0-9-] and '.' follows '-'. A LIKE read the whole index (83-440 ms at
 * a million listings), its case folding keeping SQLite off it.
 */
const suffixedSlugs = (column: typeof discordServers.slug | typeof serverSlugs.slug, base: string) =>
  and(gt(column, `${base}-`), lt(column, `${base}.`));

/**
 * Listings the name fallback reads at most per probe (the lowest ids first): an unknown URL costs
 * a few index reads at any size. It read every listed server's name once a minute (13 s and 1.2
 * GB at a million listings, the event loop held throughout), for any crawler's guess.
 */
const FALLBACK_CANDIDATES = 200;

/**
 * The listed servers the name fallback looks at for `wanted` (lower case), by id: those whose name
 * holds each of its words of three characters or more (the name column of the trigram index),
 * those whose name holds its first and last three characters when it is one word (a name's
 * alphanumerics run together), and those whose slug starts with it and a hyphen (a slug made
 * unique with a suffix). A server that has `wanted` among its name's variants, or every word of it
 * among its name's words, is in one of them, unless many servers before it are.
 */
async function fallbackCandidates(db: Db, wanted: string): Promise<{ id: number; name: string; slug: string }[]> {
  const inName = (parts: string[]) =>
    sql`${discordServers.id} IN (SELECT rowid FROM discord_servers_fts WHERE discord_servers_fts MATCH ${parts
      .map((p) => `name : ${ftsPhrase(p)}`)
      .join(' AND ')} ORDER BY rowid LIMIT ${FALLBACK_CANDIDATES})`;
  // Each probe picks at most FALLBACK_CANDIDATES ids from its own index, and only those rows are read.
  const probes: SQL[] = [
    inArray(
      discordServers.id,
      db
        .select({ id: discordServers.id })
        .from(discordServers)
        .where(suffixedSlugs(discordServers.slug, wanted))
        .limit(FALLBACK_CANDIDATES),
    ),
  ];
  const words = wordsOf(wanted).filter((w) => w.length >= MIN_INDEXED_SEARCH);
  if (words.length > 0) probes.push(inName(words));
  if (/^[a-z0-9]{6,}$/.test(wanted)) probes.push(inName([wanted.slice(0, 3), wanted.slice(-3)]));
  // Together: on a remote database (the Worker) each is a round trip.
  const read = await Promise.all(
    probes.map((probe) =>
      db
        .select({ id: discordServers.id, name: discordServers.name, slug: discordServers.slug })
        .from(discordServers)
        .where(and(probe, withPage()))
        .orderBy(asc(discordServers.id))
        .limit(FALLBACK_CANDIDATES),
    ),
  );
  const found = new Map(read.flat().map((row) => [row.id, row]));
  return [...found.values()].sort((a, b) => a.id - b.id);
}

/**
 * The current slug of the listed server a /server/{slug} URL means, or null. In order: the slug
 * itself, a slug the server had before a rename (server_slugs), then the name-variant fallback:
 * a generated variant of a name (name slug, simplified slug, name without a trailing
 * server/discord/community/hub/group, alphanumerics only, first word), then a fuzzy match where
 * every word of the slug is a word of the name. Hidden and unlisted servers are never found.
 */
export async function findServerSlug(db: Db, requested: string): Promise<string | null> {
  const wanted = requested.trim().toLowerCase();
  if (!wanted || wanted.length > 200) return null;
  const [direct] = await db
    .select({ slug: discordServers.slug })
    .from(discordServers)
    .where(and(eq(discordServers.slug, wanted), withPage()))
    .limit(1);
  if (direct) return direct.slug;
  const [renamed] = await db
    .select({ slug: discordServers.slug })
    .from(serverSlugs)
    .innerJoin(discordServers, eq(discordServers.id, serverSlugs.server_id))
    .where(and(eq(serverSlugs.slug, wanted), withPage()))
    .limit(1);
  if (renamed) return renamed.slug;

  const candidates = await fallbackCandidates(db, wanted);
  const byVariant = candidates.find((c) => slugVariants(c.name).includes(wanted));
  if (byVariant) return byVariant.slug;
  const want = wordsOf(wanted);
  if (want.length === 0) return null;
  return candidates.find((c) => want.every((w) => wordsOf(c.name).includes(w)))?.slug ?? null;
}

/** One active, listed server by slug, a former slug or the fallback of findServerSlug; null when none. */
export async function getServerBySlug(db: Db, slug: string): Promise<Server | null> {
  const current = await findServerSlug(db, slug);
  if (!current) return null;
  const [row] = await db.select().from(discordServers).where(eq(discordServers.slug, current)).limit(1);
  return row ?? null;
}

/**
 * The server whose page is at /server/{slug} (hasPage: listed, or dead with its notice), by its
 * current slug only; null when none. An on-demand server page reads it (#18): a former slug is
 * redirected before any page is rendered.
 */
export async function getServerPageBySlug(db: Db, slug: string): Promise<Server | null> {
  const [row] = decodeServerRows<Server>(await readBuilt(db, serverPageBySlug(), { slug }));
  return row ?? null;
}

/** getServerPageBySlug's read, built once (withPage is declared below, so on first use). */
let pageBySlug: BuiltQuery | undefined;
const serverPageBySlug = (): BuiltQuery =>
  (pageBySlug ??= new QueryBuilder()
    .select()
    .from(discordServers)
    .where(and(eq(discordServers.slug, sql.placeholder('slug')), withPage()))
    .limit(1)
    .toSQL());

/**
 * A listed server's place in its category by score (the Most Active order of compareServers) and
 * the category's size, as a page shows them (shownPlace): the place the rank recompute stored
 * (category_place), the size from listing_groups. Two small reads, whatever the category's size.
 */
export async function categoryRankOf(
  db: Db,
  server: Pick<Server, 'category' | 'category_place'>,
): Promise<CategoryRank | undefined> {
  return shownPlace(server, await countListedInCategory(db, server.category));
}

/** One server by id, active or not (operators). */
export async function getServerById(db: Db, id: number): Promise<Server | null> {
  const [row] = await db.select().from(discordServers).where(eq(discordServers.id, id)).limit(1);
  return row ?? null;
}

/**
 * `base`, or `base-2`, `base-3`... whichever no other server holds, now or as a former slug
 * (an old URL keeps leading to the server that had it).
 */
export async function uniqueSlug(db: Db, base: string, exceptId?: number): Promise<string> {
  const similar = (column: typeof discordServers.slug | typeof serverSlugs.slug) =>
    or(eq(column, base), suffixedSlugs(column, base));
  const [current, former] = await Promise.all([
    db
      .select({ slug: discordServers.slug, id: discordServers.id })
      .from(discordServers)
      .where(similar(discordServers.slug)),
    db.select({ slug: serverSlugs.slug, id: serverSlugs.server_id }).from(serverSlugs).where(similar(serverSlugs.slug)),
  ]);
  const taken = new Set([...current, ...former].filter((r) => r.id !== exceptId).map((r) => r.slug));
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) {
    const suffix = `-${i}`;
    const candidate = `${base.slice(0, 50 - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

export type ServerWrite = Omit<NewServerRow, 'id' | 'created_at' | 'updated_at' | 'slug'> & {
  slug?: string | undefined;
};

/** The invite code of a join link that is a Discord invite (what the refresh job checks); null for any other link. */
const linkInviteCode = (link: string | null | undefined): string | null =>
  link ? (parseDiscordInvite(link)?.code ?? null) : null;

/**
 * Inserts a server; the slug is derived from the name when absent. Returns the row. `audit` (given
 * the slug) is the operator's audit row, written in the same batch as the insert.
 */
export async function createServer(db: Db, input: ServerWrite, audit?: (slug: string) => AuditWrite): Promise<Server> {
  const slug = await uniqueSlug(db, input.slug || serverSlug(input.name));
  const insert = db
    .insert(discordServers)
    .values({ ...input, slug, invite_code: input.invite_code ?? linkInviteCode(input.affiliate_link) })
    .returning();
  const [row] = await withAudit(db, insert, audit?.(slug));
  return row!;
}

/**
 * The statements of one listing's update, for a batch: the row's UPDATE (returning it) and, when
 * the slug changes, the slug history a rename needs before it (the new slug stops being a former
 * one, renamed back; the old one now belongs to this server, whoever had it before). Each is
 * written only while `when` holds (a condition another write of the same batch depends on), so
 * the rename and its history are stored together or not at all. `updateAt` is the UPDATE's index;
 * `slug` the slug the listing will have when it changes. Reads the current slug and the slugs taken.
 */
export async function serverUpdateStatements(
  db: Db,
  id: number,
  patch: Partial<ServerWrite>,
  when: SQL = sql`1`,
): Promise<{
  statements: [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]];
  updateAt: number;
  slug: string | undefined;
}> {
  const { slug, ...rest } = patch;
  const values: Partial<NewServerRow> = { ...rest, updated_at: new Date().toISOString() };
  // A new join link is a new invite to check (the listing's guild stays: another guild's invite is caught).
  if (patch.affiliate_link !== undefined && patch.invite_code === undefined) {
    values.invite_code = linkInviteCode(patch.affiliate_link);
    values.next_check_at = '';
  }
  if (slug) values.slug = await uniqueSlug(db, slug, id);
  else if (patch.name) values.slug = await uniqueSlug(db, serverSlug(patch.name), id);
  const update = db
    .update(discordServers)
    .set(values)
    .where(and(eq(discordServers.id, id), when))
    .returning();
  if (!values.slug) return { statements: [update], updateAt: 0, slug: undefined };
  const [before] = await db
    .select({ slug: discordServers.slug })
    .from(discordServers)
    .where(eq(discordServers.id, id))
    .limit(1);
  if (!before || before.slug === values.slug) return { statements: [update], updateAt: 0, slug: values.slug };
  const history = db.run(sql`INSERT INTO ${serverSlugs} (slug, server_id) SELECT ${before.slug}, ${id} WHERE ${when}
ON CONFLICT (slug) DO UPDATE SET server_id = excluded.server_id, created_at = ${new Date().toISOString()}`);
  return {
    statements: [db.delete(serverSlugs).where(and(eq(serverSlugs.slug, values.slug), when)), history, update],
    updateAt: 2,
    slug: values.slug,
  };
}

/**
 * Updates a server by id; a new name without a slug re-derives the slug. When the slug changes the
 * old one is kept in server_slugs, so its old URL redirects. Returns the row or null.
 */
export async function updateServer(
  db: Db,
  id: number,
  patch: Partial<ServerWrite>,
  /** The operator's audit row (given the slug the listing will have), in the same batch as the update. */
  audit?: (slug: string | undefined) => AuditWrite,
  /** A condition the update is made under (checked in its statements): null when it does not hold. */
  when?: SQL,
): Promise<Server | null> {
  const { statements, updateAt, slug } = await serverUpdateStatements(db, id, patch, when);
  const auditRow = audit?.(slug);
  // One batch: the rename, its history and the audit row are stored together or not at all.
  const results = await db.batch([...statements, ...(auditRow ? auditStatements(db, auditRow) : [])]);
  return (results[updateAt] as Server[])[0] ?? null;
}

/** What became of a listing's deletion: gone, not there, or kept by an order that may hold money. */
export type Removal = 'deleted' | 'missing' | 'held';

/**
 * Deletes a listing, with the audit row that records it in the same batch: both or neither. A
 * listing one of whose paid orders may still hold money (`holdsMoney`: an open checkout, a
 * running or scheduled placement, an open dispute) is kept, checked in the DELETE itself, so a
 * checkout paid between the caller's look and the delete still keeps it (`removalRefusal` says why).
 */
export async function deleteServer(
  db: Db,
  id: number,
  audit?: { author: AuditAuthor; action: string; details: Record<string, unknown>; publish?: BatchItem<'sqlite'>[] },
): Promise<Removal> {
  const held = sql`EXISTS (SELECT 1 FROM ${orders} WHERE ${orders.server_id} = ${id} AND ${holdsMoney})`;
  const remove = db
    .delete(discordServers)
    .where(and(eq(discordServers.id, id), not(held)))
    .returning({ id: discordServers.id });
  const [rows] = audit
    ? await db.batch([
        remove,
        auditRowWhen(
          db,
          audit.author,
          { action: audit.action, entity: 'server', entityId: id, details: audit.details },
          // The DELETE just before removed the row (a kept or missing listing writes no audit).
          sql`changes() > 0`,
        ),
        // The record of the removal for the public pages (AUDITED: only with its audit row).
        ...(audit.publish ?? []),
      ])
    : [await remove];
  if (rows.length > 0) return 'deleted';
  const [still] = await db
    .select({ id: discordServers.id })
    .from(discordServers)
    .where(eq(discordServers.id, id))
    .limit(1);
  return still ? 'held' : 'missing';
}

/** Shows or hides a server (is_active). Returns the row or null. */
export async function setServerActive(
  db: Db,
  id: number,
  isActive: boolean,
  audit?: AuditWrite,
): Promise<Server | null> {
  return updateServer(db, id, { is_active: isActive }, audit && (() => audit));
}

/** Every server, listed or hidden, matching an optional search, newest first: the console's servers screen. */
export async function listServersForConsole(
  db: Db,
  { search, page = 1, perPage = 25 }: { search?: string | undefined; page?: number; perPage?: number } = {},
): Promise<{ servers: Server[]; total: number }> {
  const term = searchTerm(search);
  const where = term ? searchCondition(term) : undefined;
  const [servers, totals] = await Promise.all([
    db
      .select()
      .from(discordServers)
      .where(where)
      .orderBy(desc(discordServers.id))
      .limit(perPage)
      .offset((page - 1) * perPage),
    db.select({ n: sql<number>`count(*)` }).from(discordServers).where(where),
  ]);
  return { servers, total: Number(totals[0]?.n ?? 0) };
}

/** Every server, listed or hidden: whether a database is empty (seeding) and how many a bulk load adds to. */
export async function countServers(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)` }).from(discordServers);
  return Number(row?.n ?? 0);
}

/** The columns a bulk load writes; the rest take their defaults. */
const BULK_COLUMNS = [
  'name',
  'slug',
  'description',
  'category',
  'subcategory',
  'members',
  'active_users',
  'rating',
  'tags',
  'features',
  'pros',
  'cons',
  'is_premium',
  'is_sponsored',
  'affiliate_link',
  'sort_order',
  'language',
  'region',
] as const satisfies readonly (keyof NewServerRow)[];

/** One server of a bulk load (fake data for benchmarks and local runs). */
export type BulkServer = { [K in (typeof BULK_COLUMNS)[number]]-?: Exclude<NewServerRow[K], undefined> };

/** Rows per INSERT: many rows per statement is what makes a load of 100,000 servers take seconds. */
const BULK_ROWS_PER_STATEMENT = 200;

/**
 * Inserts servers in one write batch of multi-row INSERTs straight on the libSQL client (drizzle's
 * builder costs more than the insert at this size). JSON lists and booleans stored as the schema stores them.
 */
export async function insertServersInBulk(client: Client, rows: readonly BulkServer[]): Promise<void> {
  const statements: InStatement[] = [];
  const placeholders = `(${BULK_COLUMNS.map(() => '?').join(', ')})`;
  for (let start = 0; start < rows.length; start += BULK_ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + BULK_ROWS_PER_STATEMENT);
    const args = chunk.flatMap((row) =>
      BULK_COLUMNS.map((column) => {
        const value = row[column];
        return Array.isArray(value) ? JSON.stringify(value) : typeof value === 'boolean' ? Number(value) : value;
      }),
    );
    statements.push({
      sql: `INSERT INTO discord_servers (${BULK_COLUMNS.join(', ')}) VALUES ${chunk.map(() => placeholders).join(', ')}`,
      args,
    });
  }
  await client.batch(statements, 'write');
}
