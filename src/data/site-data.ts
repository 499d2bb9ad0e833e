import type { Db } from '../../db/client';
import { CONTENT_DEFAULTS } from '../../db/content-defaults';
import { listActiveContent } from '../../db/queries/content';
import { confirmedFlags, type PublicFlag } from '../../db/queries/flags';
import { type HistoryPoint, memberHistory } from '../../db/queries/history';
import { readModerationLog } from '../../db/queries/moderation';
import { getNewsletterStats } from '../../db/queries/newsletter';
import { listPlans } from '../../db/queries/orders';
import { firstReviewPages, type ReviewPage } from '../../db/queries/reviews';
import {
  countServersWithPages,
  type ListingKey,
  type ListingRow,
  listListingKeysWithPages,
  listServersWithPages,
  type Server,
  serversByIds,
} from '../../db/queries/servers';
import { processEnv, toolEnv } from '../../functions/_app/env';
import { CATEGORIES, SUBCATEGORIES } from '../lib/categories';
import type { ClaimFacts } from '../lib/claims';
import { LIMITS } from '../lib/enums';
import { compareServers, isListed, isPaidPlacement, matchesSubcategory } from '../lib/listing';
import type { MonthLog } from '../lib/moderation/log';
import { listingPlacement } from '../lib/placement';
import { DEFAULT_SPONSORED_SLOTS } from '../lib/pricing/plans';
import { DEFAULT_MIN_MEMBERS } from '../lib/requirements';
import { REVIEWS_PAGE_SIZE } from '../lib/reviews/summary';

/** The first `count` server pages by rank (the Most Active order); all of them when there are no more. */
export function prerenderedServers<T extends ListingKey>(serverPages: T[], count: number): T[] {
  if (count >= serverPages.length) return serverPages;
  return serverPages.toSorted(compareServers('active')).slice(0, count);
}

/** Editable texts keyed `page.section.key` (e.g. `home.hero.heading`). */
export type SiteContent = Record<string, string>;

export interface SiteData {
  /**
   * The listed servers (isListed), most members first: every listing, count, Premium Picks and the
   * home list, as what places, filters and counts them (ListingKey). A page shows a server's card
   * from `cards` (cardsOf): at 100,000 servers reading what cards show for every server cost the
   * build 0.8 s more and grew with the listings.
   */
  servers: ListingKey[];
  /**
   * Every server with a page of its own (hasPage), most members first: the listed ones, and the
   * ones whose invite is dead (off every listing, their page saying so, noindex). ListingKey, as servers.
   */
  serverPages: ListingKey[];
  /**
   * The card of every server a page the build writes shows (cardIds: the prerendered pages of
   * every listing, the home list, Premium Picks, the JSON-LD lists, the podiums), by id.
   */
  cards: Map<number, ListingRow>;
  /**
   * The server pages the build prerenders (#18): the first PRERENDER_SERVERS of serverPages by rank
   * (the Most Active order), so the listings most visitors and crawlers reach are static files;
   * every other server page is rendered on request by the same page code. Full rows, read by id.
   */
  prerendered: Server[];
  content: SiteContent;
  /** What some of the site's claims state (src/lib/claims.ts): the support address, the subscriber count. */
  facts: ClaimFacts;
  /** The public moderation log (#32, /moderation): counts per month, read with the build. */
  moderationLog: MonthLog[];
  /** Each prerendered listing's member history over the last HISTORY_DAYS days (server pages draw it), by server id. */
  history: Map<number, HistoryPoint[]>;
  /** When the build read the database: the "checked N hours ago" every page writes counts from it. */
  builtAt: Date;
  /** Anomaly flags a moderator confirmed, by server id: the only ones a server page shows. */
  confirmedFlags: Map<number, PublicFlag[]>;
  /** The first page of member reviews of each prerendered listing that has any (#31), by server id: in the HTML for crawlers. */
  reviews: Map<number, ReviewPage>;
  /** Digest of the editable texts: part of every incremental-build cacheKey, since the layout shows them. */
  contentVersion: string;
}

let cached: Promise<SiteData> | null = null;

/** How many days of member history a server page draws. */
export const HISTORY_DAYS = 30;

/** Code defaults first, then active `site_content` rows on top (blank values keep the default). */
export function mergeContent(rows: { page: string; section: string; content_key: string; content_value: string }[]) {
  const content: SiteContent = {};
  for (const d of CONTENT_DEFAULTS) content[`${d.page}.${d.section}.${d.content_key}`] = d.content_value;
  for (const r of rows) {
    if (r.content_value.trim()) content[`${r.page}.${r.section}.${r.content_key}`] = r.content_value;
  }
  return content;
}

/**
 * Everything the build needs (servers and editable texts), read from the database once per
 * build: every page shares the promise. An unreachable database fails the build loudly
 * instead of publishing sample data over real content.
 */
export function getSiteData(): Promise<SiteData> {
  cached ??= (async () => {
    const env = processEnv();
    // Loaded here, not at the top: a page rendered on request (#18) imports this module for its
    // helpers and must not pull the Node database client (node: modules) into the Worker's bundle.
    const { openDb } = await import('../../db/client');
    const { db, client } = await openDb({ url: env.DATABASE_URL, authToken: env.DATABASE_AUTH_TOKEN });
    try {
      const builtAt = new Date();
      const [rows, newsletter, flags] = await Promise.all([
        listActiveContent(db),
        getNewsletterStats(db),
        confirmedFlags(db),
      ]);
      const count = toolEnv().PRERENDER_SERVERS;
      let serverPages: ListingKey[];
      let prerendered: Server[];
      let cards: Map<number, ListingRow>;
      if ((await countServersWithPages(db)) <= count) {
        // The build writes every server page: one read of full rows serves the listings and cards too.
        const full = await listServersWithPages(db);
        serverPages = full;
        prerendered = prerenderedServers(full, count);
        cards = new Map(full.map((s) => [s.id, s]));
      } else {
        serverPages = await listListingKeysWithPages(db);
        prerendered = await serversByIds(
          db,
          prerenderedServers(serverPages, count).map((s) => s.id),
        );
        cards = new Map(prerendered.map((s) => [s.id, s]));
      }
      // The same array every page reads: listings are grouped and placed once per array.
      const servers = serverPages.filter(isListed);
      // The cards the written pages show: most are among the prerendered rows, the rest read by id.
      const missing = [...cardIds(servers)].filter((id) => !cards.has(id));
      for (const s of await serversByIds(db, missing)) cards.set(s.id, s);
      // History only for the pages the build writes: the rest read their own on request.
      const history = await memberHistory(
        db,
        prerendered.length === serverPages.length ? 'all' : prerendered.map((s) => s.id),
        HISTORY_DAYS,
        builtAt,
      );
      const reviews = await firstReviewPages(
        db,
        prerendered.map((s) => s.id),
        REVIEWS_PAGE_SIZE,
      );
      const content = mergeContent(rows);
      const facts: ClaimFacts = {
        supportEmail: env.SUPPORT_EMAIL,
        subscribers: newsletter.active,
        plans: await listPlans(db, { activeOnly: true }),
        payments: Boolean(env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET),
        sponsoredSlots: env.SPONSORED_SLOTS_PER_CATEGORY,
        minMembers: env.MIN_MEMBERS,
      };
      // The footer on every page shows the support address, so it is part of every page's key.
      return {
        servers,
        serverPages,
        cards,
        prerendered,
        content,
        facts,
        history,
        builtAt,
        confirmedFlags: flags,
        reviews,
        moderationLog: await readModerationLog(db, builtAt.getTime()),
        contentVersion: digest(
          JSON.stringify([
            content,
            facts.supportEmail,
            facts.plans,
            facts.payments,
            facts.sponsoredSlots,
            facts.minMembers,
          ]),
        ),
      };
    } catch (err) {
      throw new Error(
        `The build could not read the database at ${env.DATABASE_URL.replace(/\?.*$/, '')}: ${String(err)}`,
      );
    } finally {
      client.close();
    }
  })();
  return cached;
}

/** What a page rendered on request (#18) is given by the seam that renders it: its database and this deployment's facts. */
export interface OnDemandContext {
  db: Db;
  /** The support address of this deployment (SUPPORT_EMAIL, else support@ the site's host), as the build's facts carry it. */
  supportEmail: string;
  /** The time the page is rendered at: its "checked N ago" counts from it, as a built page's from builtAt. */
  now: Date;
  /** Whether buying is open (both Stripe keys set) and SPONSORED_SLOTS_PER_CATEGORY; absent: closed, the default cap. */
  payments?: boolean;
  sponsoredSlots?: number;
  /** MIN_MEMBERS (#32); absent: the default. */
  minMembers?: number;
  /**
   * The editable texts and facts: read once per request when absent (the layout and the footer
   * both ask); the seam may give them, read once for the requests of one generation.
   */
  basics?: Promise<PageBasics>;
  /**
   * A number the seam changes whenever anything a page shows may have changed (with its cache
   * of rendered pages): while it stays the same, what a page computed from a whole listing (the
   * numbered listing pages' outline, src/data/listing-page.ts) is kept for the next request.
   * Without it nothing is kept: every page reads the listing afresh.
   */
  generation?: number;
  /**
   * Set by the incremental publish only (functions/_app/site-publish.ts): src/pages/publish.astro
   * renders the first pages of listings and the home from the database for it, and answers 404
   * to anyone else.
   */
  publishing?: boolean;
}

/** What every page's layout shows: the editable texts and the facts of the claims. */
export interface PageBasics {
  content: SiteContent;
  facts: ClaimFacts;
}

/**
 * The layout's texts and facts: from the build's one read on a built page, from the database
 * on a page rendered on request (Astro.locals.onDemand). Same values, same HTML.
 */
export function pageBasics(locals: App.Locals): Promise<PageBasics> {
  const live = locals.onDemand;
  if (!live) return getSiteData();
  live.basics ??= readPageBasics(live);
  return live.basics;
}

/**
 * The layout's texts and facts read from the database for pages rendered on request: what
 * pageBasics reads when the seam did not give them (the seam on Node reads them once for many
 * requests, functions/_app/on-demand.ts).
 */
export async function readPageBasics(
  live: Pick<OnDemandContext, 'db' | 'supportEmail' | 'payments' | 'sponsoredSlots' | 'minMembers'>,
): Promise<PageBasics> {
  const [rows, newsletter, plans] = await Promise.all([
    listActiveContent(live.db),
    getNewsletterStats(live.db),
    listPlans(live.db, { activeOnly: true }),
  ]);
  return {
    content: mergeContent(rows),
    facts: {
      supportEmail: live.supportEmail,
      subscribers: newsletter.active,
      plans,
      payments: live.payments ?? false,
      sponsoredSlots: live.sponsoredSlots ?? DEFAULT_SPONSORED_SLOTS,
      minMembers: live.minMembers ?? DEFAULT_MIN_MEMBERS,
    },
  };
}

/**
 * Short digest of a string, for incremental-build cache keys: two 32-bit FNV-1a hashes (different
 * offsets), in plain JavaScript so this module needs no node:crypto (it is bundled into the Worker,
 * #18). A key only has to change when its input does; nobody attacks it.
 */
export function digest(value: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ value.length;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  return (a >>> 0).toString(36).padStart(7, '0') + (b >>> 0).toString(36).padStart(7, '0');
}

/**
 * Cache key of a page listing `servers`: it changes when any listed server (an edit, or a check
 * that brought Discord's counts), the editable texts or `extra` (totals shown on the page)
 * change, so Astro re-renders exactly those pages.
 */
export const listingCacheKey = (servers: readonly ListingKey[], contentVersion: string, extra = ''): string =>
  digest(
    `${contentVersion}|${extra}|${servers.map((s) => `${s.id}:${s.updated_at}:${s.last_checked_at}:${s.invite_status}`).join(',')}`,
  );

/**
 * Cache keys of pages 2..N of a listing, for getStaticPaths. Such a page shows its own slice,
 * its rank numbers and the page count (statistics are on page 1 only), so those make its key.
 * `upTo` (a page number) stops at that page: the later ones are not built.
 */
export function pagedCacheKeys(
  servers: readonly ListingKey[],
  contentVersion: string,
  pageSize: number,
  upTo = Number.POSITIVE_INFINITY,
): string[] {
  const last = Math.ceil(servers.length / pageSize);
  const count = Math.max(0, Math.min(last, upTo) - 1);
  return Array.from({ length: count }, (_, i) =>
    listingCacheKey(servers.slice((i + 1) * pageSize, (i + 2) * pageSize), contentVersion, `${i + 2}/${last}`),
  );
}

/**
 * Cache keys of the numbered pages of a listing the build prerenders (#18): pages 2 to
 * PRERENDER_LISTING_PAGES at most; the later ones are rendered on request by the same view.
 * Only those keys are computed: "All" at 100,000 servers has about 4,200 pages.
 */
export function prerenderedPageKeys(placed: readonly ListingKey[], contentVersion: string): string[] {
  return pagedCacheKeys(placed, contentVersion, LIMITS.categoryPageSize, toolEnv().PRERENDER_LISTING_PAGES);
}

/** Text of one editable key, with an explicit fallback for keys that have no default. */
export const text = (content: SiteContent, key: string, fallback = ''): string => content[key] ?? fallback;

const byCategory = new WeakMap<ListingKey[], Map<string, ListingKey[]>>();

/**
 * Servers of one category (by display name), in listing order. Grouped once per server list:
 * every numbered page of a category asks again, and a filter over 10,000 rows each time adds up.
 */
export function serversInCategory<T extends ListingKey>(servers: T[], name: string): T[] {
  let groups = byCategory.get(servers) as Map<string, T[]> | undefined;
  if (!groups) {
    groups = new Map();
    for (const s of servers) {
      const list = groups.get(s.category);
      if (list) list.push(s);
      else groups.set(s.category, [s]);
    }
    byCategory.set(servers, groups);
  }
  return groups.get(name) ?? [];
}

const bySubcategory = new WeakMap<ListingKey[], Map<string, ListingKey[]>>();

/**
 * The servers of a subcategory page, by the listing's subcategory rule (src/lib/listing.ts), in
 * listing order. Each category's servers are filtered once per list and key, not the whole list per page.
 */
export function serversInSubcategory<T extends ListingKey>(servers: T[], category: string, key: string): T[] {
  let found = bySubcategory.get(servers) as Map<string, T[]> | undefined;
  if (!found) {
    found = new Map();
    bySubcategory.set(servers, found);
  }
  const id = JSON.stringify([category, key]);
  let list = found.get(id);
  if (!list) {
    // The rule reads only the stored subcategory, and a category has few distinct ones: asked once each.
    const matches = new Map<string | null, boolean>();
    list = serversInCategory(servers, category).filter((s) => {
      let match = matches.get(s.subcategory);
      if (match === undefined) {
        match = matchesSubcategory(s.subcategory, key);
        matches.set(s.subcategory, match);
      }
      return match;
    });
    found.set(id, list);
  }
  return list;
}

/** Premium Picks: the premium and sponsored servers in the listing's curated ('featured') order, up to `limit`. */
export const premiumPicks = <T extends ListingKey>(servers: T[], limit: number): T[] =>
  servers.filter(isPaidPlacement).sort(compareServers('featured')).slice(0, limit);

/**
 * The servers whose cards the pages the build writes show (#18), by the pages' own rules: the
 * placed cards of the first PRERENDER_LISTING_PAGES pages of the list of every server and of each
 * category and of each subcategory, the
 * JSON-LD list from each such page's start, each listing's podium, the home list (the start of
 * the list of every server) and Premium Picks. Placements and groups are the pages' own (cached
 * per array), so this adds no second placing of a listing.
 */
export function cardIds(servers: ListingKey[]): Set<number> {
  const ids = new Set<number>();
  const add = (list: readonly ListingKey[]) => {
    for (const s of list) ids.add(s.id);
  };
  const size = LIMITS.categoryPageSize;
  const listing = (list: ListingKey[], pages: number, head = false) => {
    add(listingPlacement(list, head).placed.slice(0, pages * size));
    // Each page's JSON-LD list starts at the page's first position, in the listing's own order.
    add(list.slice(0, (pages - 1) * size + LIMITS.structuredData));
    add(podiumOf(list));
  };
  const pages = Math.max(1, toolEnv().PRERENDER_LISTING_PAGES);
  listing(servers, pages);
  // A category's and a subcategory's list are led by their Sponsored cards (placesAtHead).
  for (const c of CATEGORIES) listing(serversInCategory(servers, c.name), pages, true);
  for (const sub of SUBCATEGORIES) listing(serversInSubcategory(servers, sub.parentCategory, sub.key), pages, true);
  add(premiumPicks(servers, LIMITS.premiumGrid));
  return ids;
}

/**
 * The cards of `keys`, in their order, from the build's read (SiteData.cards). A key without
 * one is a page showing a server cardIds did not name: the build fails loudly rather than
 * writing a page without it.
 */
export function cardsOf(cards: ReadonlyMap<number, ListingRow>, keys: readonly ListingKey[]): ListingRow[] {
  return keys.map((k) => {
    const card = cards.get(k.id);
    if (!card)
      throw new Error(`No card was read for server ${k.id}: src/data/site-data.ts cardIds misses a page's rule`);
    return card;
  });
}

/** A listing's Top 3: its first three unpaid servers (organic ranks, #19), or none when it has fewer. */
export function podiumOf<T extends ListingKey>(servers: readonly T[]): T[] {
  const podium: T[] = [];
  for (const s of servers) {
    if (podium.length === 3) return podium;
    if (!isPaidPlacement(s)) podium.push(s);
  }
  return podium.length === 3 ? podium : [];
}

/** Sum of members and active users, for statistics boxes. */
export function totals(servers: readonly ListingKey[]): { members: number; active: number } {
  let members = 0;
  let active = 0;
  for (const s of servers) {
    members += s.members;
    active += s.active_users;
  }
  return { members, active };
}
