import type { Db } from '../../db/client';
import { CONTENT_DEFAULTS } from '../../db/content-defaults';
import { listActiveContent } from '../../db/queries/content';
import { confirmedFlags, type PublicFlag } from '../../db/queries/flags';
import { type HistoryPoint, memberHistory } from '../../db/queries/history';
import { categorySums, readListingGroups } from '../../db/queries/listing-groups';
import { readModerationLog } from '../../db/queries/moderation';
import { getNewsletterStats } from '../../db/queries/newsletter';
import { listPlans } from '../../db/queries/orders';
import { firstReviewPages, type ReviewPage } from '../../db/queries/reviews';
import { type ListingKey, type ListingRow, type Server, topServersWithPages } from '../../db/queries/servers';
import { type Env, processEnv, toolEnv } from '../../functions/_app/env';
import type { ClaimFacts } from '../lib/claims';
import { BUDGET, listingsPerDay, refreshPace } from '../lib/invite-checks/budget';
import { isPaidPlacement } from '../lib/listing';
import type { MonthLog } from '../lib/moderation/log';
import { DEFAULT_SPONSORED_SLOTS } from '../lib/pricing/plans';
import { DEFAULT_MIN_MEMBERS } from '../lib/requirements';
import { REVIEWS_PAGE_SIZE } from '../lib/reviews/summary';
import type { HomePage } from './home-page';
import type { ListingPage } from './listing-page';

/** Editable texts keyed `page.section.key` (e.g. `home.hero.heading`). */
export type SiteContent = Record<string, string>;

export interface SiteData {
  /**
   * The prerendered pages of every listing of the site (SITE_LISTINGS: 1 to PRERENDER_LISTING_PAGES
   * each, as many as it has), by the listing's path, index 0 its first page: read from each
   * listing's head (prerenderedListingPages), placed as the whole listing places them.
   */
  listings: Map<string, ListingPage[]>;
  /** What the home page shows of the listings (homeFromDb, as the incremental publish renders it). */
  home: HomePage;
  /** How many servers each category lists (listing_groups): a server page's place counts against it. */
  categorySizes: Map<string, number>;
  /**
   * The server pages the build prerenders (#18): the first PRERENDER_SERVERS servers with a page
   * by rank (the Most Active order), so the listings most visitors and crawlers reach are static
   * files; every other server page is rendered on request by the same page code. Full rows, one
   * read of the rank index.
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
      const tools = toolEnv();
      const count = tools.PRERENDER_SERVERS;
      // Loaded here: they import this module's helpers (an import cycle at the top).
      const [{ prerenderedListingPages }, { homeFromDb }] = await Promise.all([
        import('./prerendered-listings'),
        import('./home-page'),
      ]);
      const groups = await readListingGroups(db);
      const listings = await prerenderedListingPages(db, groups, Math.max(1, tools.PRERENDER_LISTING_PAGES));
      const home = await homeFromDb(db);
      const categorySizes = new Map(categorySums(groups).map((c) => [c.category, c.servers]));
      const prerendered = await topServersWithPages(db, count);
      // History only for the pages the build writes: the rest read their own on request.
      const history = await memberHistory(
        db,
        prerendered.length < count ? 'all' : prerendered.map((s) => s.id),
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
        ...deploymentFacts(env),
        subscribers: newsletter.active,
        plans: await listPlans(db, { activeOnly: true }),
      };
      // The footer on every page shows the support address, so it is part of every page's key.
      return {
        listings,
        home,
        categorySizes,
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

/**
 * The facts a page states that come from this deployment's settings, not the database: the support
 * address, whether buying is open (both Stripe keys set), the Sponsored cap and the member minimum.
 * The build, the Node server's on-demand pages and the Worker's read them here, so every page says the same.
 */
export function deploymentFacts(
  env: Pick<
    Env,
    | 'SUPPORT_EMAIL'
    | 'STRIPE_SECRET_KEY'
    | 'STRIPE_WEBHOOK_SECRET'
    | 'SPONSORED_SLOTS_PER_CATEGORY'
    | 'MIN_MEMBERS'
    | 'REFRESH_PER_10MIN'
    | 'REFRESH_LOOKUPS_PER_PASS'
  >,
): Pick<ClaimFacts, 'supportEmail' | 'payments' | 'sponsoredSlots' | 'minMembers' | 'refreshPerDay'> {
  return {
    supportEmail: env.SUPPORT_EMAIL,
    payments: Boolean(env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET),
    sponsoredSlots: env.SPONSORED_SLOTS_PER_CATEGORY,
    minMembers: env.MIN_MEMBERS,
    refreshPerDay: listingsPerDay(env.REFRESH_PER_10MIN, refreshPace(env.REFRESH_LOOKUPS_PER_PASS)),
  };
}

/** What a page rendered on request (#18) is given by the seam that renders it: its database and this deployment's facts. */
export interface OnDemandContext {
  db: Db;
  /** The support address of this deployment (SUPPORT_EMAIL, else support@ the site's host), as the build's facts carry it. */
  supportEmail: string;
  /** The time the page is rendered at: its "checked N ago" counts from it, as a built page's from builtAt. */
  now: Date;
  /** Whether buying is open (both Stripe keys set) and SPONSORED_SLOTS_PER_CATEGORY; absent: closed, the default cap. */
  payments?: boolean | undefined;
  sponsoredSlots?: number | undefined;
  /** MIN_MEMBERS (#32); absent: the default. */
  minMembers?: number | undefined;
  /** The listings the refresh covers a day on this deployment (deploymentFacts); absent: npm start's default budget. */
  refreshPerDay?: number | undefined;
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

/** What a seam rendering pages on request gives each render: its database and this deployment's facts. */
export type LiveSettings = Pick<
  OnDemandContext,
  'db' | 'supportEmail' | 'payments' | 'sponsoredSlots' | 'minMembers' | 'refreshPerDay'
>;

/**
 * The layout's texts and facts read from the database for pages rendered on request: what
 * pageBasics reads when the seam did not give them (the seam on Node reads them once for many
 * requests, functions/_app/on-demand.ts).
 */
export async function readPageBasics(live: LiveSettings): Promise<PageBasics> {
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
      refreshPerDay: live.refreshPerDay ?? listingsPerDay(BUDGET.refreshPerWindow),
    },
  };
}

/** How long the layout's texts and facts read for pages rendered on request are kept at most, in ms. */
export const BASICS_MAX_AGE_MS = 60_000;

/**
 * The layout's texts and facts for the pages one seam renders on request (functions/_app/on-demand.ts
 * and its render threads): read once for the renders of a generation (a text or plan change asks for
 * a rebuild, which starts a new one) and at most BASICS_MAX_AGE_MS old (the newsletter's subscriber
 * count changes without one). A failed read is not kept. `live` carries this server's settings
 * (payments, the sponsored cap, the member minimum), as the build's facts do.
 */
export function basicsCache(
  live: LiveSettings,
  maxAgeMs = BASICS_MAX_AGE_MS,
): (generation: number) => Promise<PageBasics> {
  let kept: { generation: number; at: number; value: Promise<PageBasics> } | null = null;
  return (generation) => {
    const now = Date.now();
    if (!kept || kept.generation !== generation || now - kept.at > maxAgeMs) {
      const value = readPageBasics(live);
      const entry = { generation, at: now, value };
      value.catch(() => {
        if (kept === entry) kept = null;
      });
      kept = entry;
    }
    return kept.value;
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

/** The prerendered pages of the listing whose first page is at `path` (SiteData.listings); the build fails without them. */
export function builtListing(data: Pick<SiteData, 'listings'>, path: string): ListingPage[] {
  const pages = data.listings.get(path);
  if (!pages) throw new Error(`The build read no pages of the listing at ${path} (src/data/prerendered-listings.ts)`);
  return pages;
}

/** One prerendered page (1-based) of the listing at `path`. */
export function builtListingPage(data: Pick<SiteData, 'listings'>, path: string, page: number): ListingPage {
  const found = builtListing(data, path)[page - 1];
  if (!found) throw new Error(`The build read no page ${page} of the listing at ${path}`);
  return found;
}

/**
 * The numbered pages (2 on) of the listing at `path` the build writes, for getStaticPaths, each
 * with its incremental-build cache key: what the page shows (each card's and JSON-LD entry's
 * server as it last changed, the first organic rank, the page count, the region menu) and the
 * editable texts. It changes when the page's HTML may, so Astro renders exactly those pages again.
 */
export function numberedListingPages(
  data: Pick<SiteData, 'listings' | 'contentVersion'>,
  path: string,
): { page: string; cacheKey: string }[] {
  const key = (s: ListingKey) => `${s.id}:${s.updated_at}:${s.last_checked_at}:${s.invite_status}`;
  return builtListing(data, path)
    .slice(1)
    .map((p) => ({
      page: String(p.page),
      cacheKey: digest(
        [
          data.contentVersion,
          `${p.page}/${p.last}/${p.firstRank}`,
          p.regions.map((r) => r.code).join('+'),
          p.shown.map(key).join(','),
          p.structured.map(key).join(','),
        ].join('|'),
      ),
    }));
}

/** Text of one editable key, with an explicit fallback for keys that have no default. */
export const text = (content: SiteContent, key: string, fallback = ''): string => content[key] ?? fallback;

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
