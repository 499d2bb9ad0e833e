import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { etag } from 'hono/etag';
import { type BadgeFacts, getBadgeFacts } from '../../../db/queries/badges';
import { countListedInCategory } from '../../../db/queries/listing-groups';
import { iconSrc } from '../../../src/islands/card-data';
import { BADGE_LABEL, badgeMessage, badgeShowsNumbers } from '../../../src/lib/badge/badge';
import { formatNumber, initials } from '../../../src/lib/format';
import { joinTarget } from '../../../src/lib/invite';
import { timeAgo } from '../../../src/lib/invite-checks/display';
import { inviteView } from '../../../src/lib/invite-checks/invite-state';
import { hasPage, isListed } from '../../../src/lib/listing';
import { type CategoryRank, shownPlace } from '../../../src/lib/ranking/explanation';
import { shownRating } from '../../../src/lib/reviews/summary';
import { badgeQuerySchema } from '../../../src/lib/schemas/badge';
import type { AppDeps, AppEnv } from '../context';
import { renderedBadge } from '../lib/badge-render';
import { badgeTallyFor } from '../lib/badge-tally';
import { escapeHtml } from '../lib/html';
import { ListingCache } from '../lib/listing-cache';
import { RATE_LIMITS } from '../lib/rate-limits';
import { validationHook } from '../lib/validate';
import { rateLimit } from '../middleware/rate-limit';

/** How long a browser or a CDN may keep a badge or a card (the issue's 10 minutes). */
export const BADGE_CACHE_CONTROL = 'public, max-age=600';

/** The slugs a badge or card URL can name (the server slug rule, at most 100 characters). */
const SLUG = /^[a-z0-9][a-z0-9-]{0,99}$/;

const factCaches = new WeakMap<AppDeps, ListingCache<BadgeFacts | null>>();
const categorySizes = new WeakMap<AppDeps, ListingCache<number>>();

/**
 * A listing's badge facts through the app's cache: fresh for a minute, then served stale for up to
 * ten while one read refreshes them (what the answers' max-age lets a CDN hold anyway). The
 * cache is bounded (oldest out first); a miss is one read on the slug's unique index.
 */
function factsOf(deps: AppDeps, slug: string): Promise<BadgeFacts | null> {
  let cache = factCaches.get(deps);
  if (!cache) {
    cache = new ListingCache<BadgeFacts | null>(60_000, 600_000, 20_000);
    factCaches.set(deps, cache);
  }
  return cache.get(slug, () => getBadgeFacts(deps.db, slug));
}

/**
 * A listed, scored listing's place in its category (shownPlace): the place the rank recompute
 * stored, among the servers its category lists, a listing_groups sum cached a minute per category.
 */
async function placeOf(deps: AppDeps, s: BadgeFacts): Promise<CategoryRank | undefined> {
  if (!isListed(s) || s.rank_score <= 0 || s.category_place == null) return undefined;
  let cache = categorySizes.get(deps);
  if (!cache) {
    cache = new ListingCache<number>(60_000, 600_000, 100);
    categorySizes.set(deps, cache);
  }
  return shownPlace(s, await cache.get(s.category, () => countListedInCategory(deps.db, s.category)));
}

/** Runs `p` after the answer on the Worker (waitUntil), or lets it run on its own on Node. */
function afterAnswer(c: { executionCtx: { waitUntil(p: Promise<unknown>): void } }, p: Promise<void>) {
  const logged = p.catch((err) => console.warn('badge fetch counts not stored:', err));
  try {
    c.executionCtx.waitUntil(logged);
  } catch {
    // No execution context on Node: the promise runs by itself.
  }
}

/**
 * `GET /badge/{slug}.svg?variant=members|online|rank|rating&style=light|dark`: the listing's
 * badge (src/lib/badge/badge.ts). A hidden, removed or unknown listing, or a dead invite, is the
 * grey "unavailable" badge with a 200: never a broken image in an owner's README for what
 * happens to the listing later. An unknown `variant` or `style` is the embedder's typo, seen when
 * the badge is first put on a page: the site's 400 envelope naming the parameter
 * (badgeQuerySchema), not another badge that hides it. Cached 10 minutes with an ETag, no
 * cookies; each fetch of a live listing's badge is tallied into its daily count (lib/badge-tally.ts).
 */
export const badgeRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>()
    .use(rateLimit(RATE_LIMITS.badges))
    .get('/:file{[^/]+\\.svg}', zValidator('query', badgeQuerySchema, validationHook), etag(), async (c) => {
      const slug = c.req.param('file').slice(0, -'.svg'.length).toLowerCase();
      const { variant = 'default', style = 'light' } = c.req.valid('query');
      const facts = SLUG.test(slug) ? await factsOf(deps, slug) : null;
      const live = badgeShowsNumbers(facts) ? facts : null;
      const place = live && variant === 'rank' ? await placeOf(deps, live) : undefined;
      const message = badgeMessage(live, variant, place, live ? shownRating(live) : null);
      if (live) {
        const flush = badgeTallyFor(deps.db).add(live.id);
        if (flush) afterAnswer(c, flush);
      }
      // Drawn once per distinct drawing, with its ETag (etag() then only answers If-None-Match).
      const { svg, etag: tag } = renderedBadge({ label: BADGE_LABEL, message, style, unavailable: !live });
      return c.body(svg, 200, {
        'Content-Type': 'image/svg+xml; charset=utf-8',
        'Cache-Control': BADGE_CACHE_CONTROL,
        ETag: tag,
      });
    });

/** The embedded card's stylesheet: inline (one request), allowed by its hash in the card's own policy. */
const EMBED_CSS = `*{box-sizing:border-box}html,body{margin:0;padding:0;background:transparent}
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#111827}
.card{max-width:100%;width:100%;border:1px solid #e5e7eb;border-radius:12px;background:#fff;padding:12px;display:flex;flex-direction:column;gap:8px;overflow:hidden}
.head{display:flex;align-items:center;gap:10px;color:inherit;text-decoration:none;min-width:0}
.icon{width:48px;height:48px;border-radius:12px;flex:none;background:#e0e7ff;color:#3730a3;display:flex;align-items:center;justify-content:center;font-weight:700}
.name{font-weight:700;font-size:16px;overflow-wrap:anywhere;min-width:0}
.counts{margin:0;display:flex;flex-wrap:wrap;gap:4px 14px}
.n{font-weight:700;white-space:nowrap}
.muted{margin:0;color:#4b5563;font-size:12px}
.notice{margin:0;color:#92400e;font-size:13px}
.join{display:block;text-align:center;background:#4f46e5;color:#fff;text-decoration:none;font-weight:600;padding:8px 12px;border-radius:8px}
.join:focus-visible,.head:focus-visible,.by a:focus-visible{outline:2px solid #4f46e5;outline-offset:2px}
.by{margin:0;font-size:12px;color:#4b5563}.by a{color:#4338ca}
.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}`;

let embedCssHash: Promise<string> | undefined;
/** The CSP source of EMBED_CSS ('sha256-…'), computed once with WebCrypto (Node and the Worker alike). */
function embedStyleSource(): Promise<string> {
  embedCssHash ??= crypto.subtle.digest('SHA-256', new TextEncoder().encode(EMBED_CSS)).then((buf) => {
    let bin = '';
    for (const b of new Uint8Array(buf)) bin += String.fromCharCode(b);
    return `'sha256-${btoa(bin)}'`;
  });
  return embedCssHash;
}

/**
 * The card's own policy: no script at all, its one stylesheet by hash, images from the site itself
 * (a listing's icon is a path on it, also on an http site) or https, links
 * only, and `frame-ancestors *`: the one answer of the site any page may frame (every other page
 * keeps frame-ancestors 'none' and X-Frame-Options DENY).
 */
async function embedPolicy(): Promise<string> {
  return [
    "default-src 'none'",
    "img-src 'self' https: data:",
    `style-src ${await embedStyleSource()}`,
    "base-uri 'none'",
    "form-action 'none'",
    'frame-ancestors *',
  ].join('; ');
}

/** The card's HTML page. */
function embedPage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${EMBED_CSS}</style></head><body>${body}</body></html>`;
}

const external = (href: string, text: string, cls?: string) =>
  `<a${cls ? ` class="${cls}"` : ''} href="${escapeHtml(href)}" target="_blank" rel="noopener">${text}<span class="vh"> (opens in a new tab)</span></a>`;

/**
 * `GET /embed/{slug}`: a small card for an `<iframe>` on an owner's site (icon, name, counts, when
 * they were checked, Join): no JavaScript, no cookies, every link opens a new tab, and it fits
 * 320 px. Join goes through /go/{slug}?from=embed, which counts the join with the source `embed`.
 * A dead invite's card says so in place of Join; a hidden, removed or unknown listing is a 404
 * card that says it is not available.
 */
export const embedRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>().use(rateLimit(RATE_LIMITS.badges)).get('/:slug', etag(), async (c) => {
    const slug = c.req.param('slug').toLowerCase();
    const site = deps.env.SITE_URL;
    const url = (path: string) => new URL(path, site).href;
    const facts = SLUG.test(slug) ? await factsOf(deps, slug) : null;
    const headers = {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': BADGE_CACHE_CONTROL,
      'Content-Security-Policy': await embedPolicy(),
    };
    const by = `<p class="by">Listed on ${external(url('/'), 'GuildRank')}</p>`;
    if (!facts || !hasPage(facts)) {
      const body = `<article class="card"><p>This listing is not available on GuildRank.</p>${by}</article>`;
      // Not cached: the listing may be approved or shown again at any moment.
      return c.html(embedPage('Not available on GuildRank', body), 404, { ...headers, 'Cache-Control': 'no-store' });
    }
    const icon = iconSrc(facts);
    const name = escapeHtml(facts.name);
    const iconHtml = icon
      ? `<img class="icon" src="${escapeHtml(icon)}" width="48" height="48" alt="">`
      : `<span class="icon" aria-hidden="true">${escapeHtml(initials(facts.name))}</span>`;
    const invite = inviteView(facts.invite_status);
    const join = invite.join && joinTarget(facts.affiliate_link) !== null;
    const checked = facts.last_checked_at
      ? `Checked <time datetime="${escapeHtml(facts.last_checked_at)}">${escapeHtml(timeAgo(facts.last_checked_at, new Date()))}</time>`
      : 'Counts as submitted; not checked yet';
    const body = [
      '<article class="card">',
      external(
        url(`/server/${encodeURIComponent(facts.slug)}`),
        `${iconHtml}<span class="name">${name}</span>`,
        'head',
      ),
      `<p class="counts"><span><span class="n" data-members>${formatNumber(facts.members)}</span> members</span><span><span class="n" data-online>${formatNumber(facts.active_users)}</span> online</span></p>`,
      `<p class="muted">${checked}</p>`,
      invite.notice ? `<p class="notice">${escapeHtml(invite.notice)}</p>` : '',
      join ? external(url(`/go/${encodeURIComponent(facts.slug)}?from=embed`), 'Join', 'join') : '',
      by,
      '</article>',
    ].join('');
    return c.html(embedPage(`${facts.name} on GuildRank`, body), 200, headers);
  });
