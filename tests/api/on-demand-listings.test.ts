import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { createServer, listServersWithPages, type Server } from '../../db/queries/servers';
import { rawProcessEnv } from '../../functions/_app/env';
import { runAstroBuild } from '../../functions/_app/site-builder';
import { listingPageFromDb, listingPageFromList } from '../../src/data/listing-page';
import type { OnDemandContext } from '../../src/data/site-data';
import { moveIslandStyle } from '../../src/integrations/island-styles';
import { CATEGORIES, SUBCATEGORIES } from '../../src/lib/categories';
import { LIMITS } from '../../src/lib/enums';
import { isListed, matchesFilter } from '../../src/lib/listing';
import { PAID_SPACING, placeListing } from '../../src/lib/placement';
import { openSeededDb } from '../helpers/db';
import { pageOutline } from '../helpers/listing-page';

// #18: the build prerenders only the first PRERENDER_LISTING_PAGES numbered pages of each listing;
// every later one is rendered on request from the database by the same view, with the same HTML
// the build would write for it. A real build of a few thousand servers, its server entry asked
// directly (as the Node app asks it, functions/_app/on-demand.ts).

const SERVERS = 3000;
const PRERENDERED_PAGES = 3;
const SITE = 'http://localhost:4321';
const SUPPORT = 'support@example.com';
const size = LIMITS.categoryPageSize;

interface Entry {
  renderOnDemand(request: Request, onDemand: OnDemandContext): Promise<Response | undefined>;
}

let dir: string;
let out: string;
let db: Db;
let close: () => void;
let entry: Entry;
/** The listed servers in listing order, as the build read them (getSiteData). */
let listed: Server[];
/** Every server's row as its card: the tests read whole rows, so any page of any listing has its cards. */
const cardsFrom = (servers: Server[]) => new Map(servers.map((s) => [s.id, s]));
/** Paid listings added at the very end of Crypto, so nothing can space out the last ones (they end its last page). */
let crowded: Server[];

const build = (env: NodeJS.ProcessEnv) => runAstroBuild(process.cwd(), out, env);

const render = (path: string) =>
  entry.renderOnDemand(new Request(`${SITE}${path}`), { db, supportEmail: SUPPORT, now: new Date() });

/** The slugs of a page's cards, in order. */
const cardSlugs = (html: string) =>
  html
    .split('<article')
    .slice(1)
    .map((card) => /href="\/server\/([^"]+)"/.exec(card)?.[1]);

/** What a page shows, by id, for comparing a page read from the database with the build's. */
const outline = pageOutline;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'guildrank-on-demand-listings-'));
  const url = `file:${join(dir, 'site.db')}`;
  const opened = await openSeededDb(url, SERVERS);
  db = opened.db;
  close = () => opened.client.close();
  crowded = [];
  for (const name of ['Crowded Paid One', 'Crowded Paid Two', 'Crowded Paid Three']) {
    crowded.push(
      await createServer(db, {
        name,
        description: 'A paid listing at the end of its category, for the on-demand listing test.',
        category: 'Crypto',
        members: 0,
        active_users: 0,
        is_premium: true,
      }),
    );
  }
  listed = (await listServersWithPages(db)).filter(isListed);
  // Inside the project: Astro stages prerender chunks beside an output folder within the working directory.
  out = join(process.cwd(), '.tmp', `listings-${basename(dir)}`);
  await build(
    rawProcessEnv({
      DATABASE_URL: url,
      SITE_URL: SITE,
      SUPPORT_EMAIL: SUPPORT,
      PRERENDER_LISTING_PAGES: String(PRERENDERED_PAGES),
      // Server pages are not what this test is about: few of them keep the build short.
      PRERENDER_SERVERS: '20',
      ASTRO_CACHE_DIR: join(dir, 'astro-cache'),
      ASTRO_TELEMETRY_DISABLED: '1',
    }),
  );
  entry = (await import(pathToFileURL(join(out, 'server', 'entry.mjs')).href)) as Entry;
}, 600_000);

afterAll(() => {
  close?.();
  rmSync(dir, { recursive: true, force: true });
  if (out) rmSync(out, { recursive: true, force: true });
});

describe('numbered listing pages past PRERENDER_LISTING_PAGES (#18)', () => {
  it('prerenders pages 2..PRERENDER_LISTING_PAGES of each listing and no later one', () => {
    const client = join(out, 'client');
    // Subcategories page like categories (issue 28 item 3): DeFi has well over four pages of fakes.
    for (const base of [
      'servers',
      ...CATEGORIES.map((c) => `best-${c.slug}-discord`),
      'best-crypto-discord/defi-discord',
    ]) {
      expect(existsSync(join(client, base, 'page', '2.html')), base).toBe(true);
      expect(existsSync(join(client, base, 'page', `${PRERENDERED_PAGES}.html`)), base).toBe(true);
      expect(existsSync(join(client, base, 'page', `${PRERENDERED_PAGES + 1}.html`)), base).toBe(false);
    }
  });

  it('renders a prerendered page on request with the same HTML as the build wrote', async () => {
    for (const path of [
      '/servers/page/2',
      '/best-gaming-discord/page/2',
      `/best-crypto-discord/page/${PRERENDERED_PAGES}`,
      '/best-crypto-discord/defi-discord/page/2',
    ]) {
      const built = readFileSync(join(out, 'client', `${path.slice(1)}.html`), 'utf8');
      const res = await render(path);
      expect(res?.status, path).toBe(200);
      expect(moveIslandStyle(await res!.text()), path).toBe(built);
    }
  });

  it('renders a later page on request with its slice of the placed listing', async () => {
    const page = PRERENDERED_PAGES + 1;
    const expected = placeListing(listed).slice((page - 1) * size, page * size);
    const res = await render(`/servers/page/${page}`);
    expect(res?.status).toBe(200);
    const html = await res!.text();
    expect(cardSlugs(html)).toEqual(expected.map((s) => s.slug));
    expect(html).toContain(`All Discord Servers (page ${page})`);
  });

  it('ends the last page with the paid listings nothing could space out, as the build would, hiding none', async () => {
    const crypto = listed.filter((s) => matchesFilter(s, { category: 'Crypto' }));
    const fromList = listingPageFromList(crypto, 1, cardsFrom(crypto), true);
    const last = fromList.last;
    expect(last).toBeGreaterThan(PRERENDERED_PAGES);
    // Every Crypto server has a card on exactly one page: the pages hold the whole listing.
    expect(last).toBe(Math.ceil(crypto.length / size));
    const lastPage = listingPageFromList(crypto, last, cardsFrom(crypto), true);
    // The crowded ones come last in Crypto's own order: at least the last two trail the list.
    expect(crowded.map((s) => s.id)).toEqual(expect.arrayContaining(lastPage.shown.slice(-2).map((s) => s.id)));
    expect(lastPage.shown.slice(-2).every((s) => s.is_premium || s.is_sponsored)).toBe(true);
    expect(outline((await listingPageFromDb(db, { category: 'Crypto' }, last))!)).toEqual(outline(lastPage));
    const res = await render(`/best-crypto-discord/page/${last}`);
    expect(res?.status).toBe(200);
    const slugs = cardSlugs(await res!.text());
    for (const s of crowded) expect(slugs).toContain(s.slug);
  });

  it("leads a category's pages with its Sponsored listings (the head of its category), read from the database as the build places them", async () => {
    const crypto = listed.filter((s) => matchesFilter(s, { category: 'Crypto' }));
    const sponsored = crypto.filter((s) => s.is_sponsored);
    expect(sponsored.length).toBeGreaterThan(1);
    const first = listingPageFromList(crypto, 1, cardsFrom(crypto), true);
    expect(first.shown[0]?.id).toBe(sponsored[0]!.id);
    expect(first.shown[PAID_SPACING]?.id).toBe(sponsored[1]!.id);
    for (const page of [1, 2, PRERENDERED_PAGES + 1]) {
      const fromDb = await listingPageFromDb(db, { category: 'Crypto' }, page);
      expect(outline(fromDb!), `page ${page}`).toEqual(
        outline(listingPageFromList(crypto, page, cardsFrom(crypto), true)),
      );
    }
    // The list of every server is not a category's: its Sponsored cards are never moved up.
    const all = listingPageFromList(listed, 1, cardsFrom(listed));
    all.shown.forEach((s, position) => {
      if (s.is_sponsored) expect(position).toBeGreaterThanOrEqual(listed.findIndex((l) => l.id === s.id));
    });
  });

  it('renders a later subcategory page on request with its slice of the placed listing, and none past its last', async () => {
    const defi = listed.filter((s) => matchesFilter(s, { category: 'Crypto', subcategory: 'defi' }));
    const page = PRERENDERED_PAGES + 1;
    expect(Math.ceil(defi.length / size)).toBeGreaterThanOrEqual(page);
    const res = await render(`/best-crypto-discord/defi-discord/page/${page}`);
    expect(res?.status).toBe(200);
    const html = await res!.text();
    expect(cardSlugs(html)).toEqual(
      placeListing(defi, true)
        .slice((page - 1) * size, page * size)
        .map((s) => s.slug),
    );
    const last = Math.ceil(defi.length / size);
    expect(await render(`/best-crypto-discord/defi-discord/page/${last + 1}`)).toBeUndefined();
    expect(await render(`/best-crypto-discord/no-such-discord/page/${page}`)).toBeUndefined();
  });

  it('answers no page past the last one, nor for what is not a page number', async () => {
    const last = listingPageFromList(listed, 1, cardsFrom(listed)).last;
    expect(await render(`/servers/page/${last}`)).toBeDefined();
    expect(await render(`/servers/page/${last + 1}`)).toBeUndefined();
    const gaming = listingPageFromList(
      listed.filter((s) => matchesFilter(s, { category: 'Gaming' })),
      1,
      cardsFrom(listed),
      true,
    ).last;
    expect(await render(`/best-gaming-discord/page/${gaming + 1}`)).toBeUndefined();
    for (const path of ['/servers/page/1', '/servers/page/04', '/servers/page/4/5', '/best-nothing-discord/page/4']) {
      expect(await render(path), path).toBeUndefined();
    }
  });

  it('reads every page of every listing from the database as the build places it', async () => {
    const filters: { category?: string; subcategory?: string }[] = [
      {},
      ...CATEGORIES.map((c) => ({ category: c.name })),
      ...SUBCATEGORIES.filter((s) => s.parentSlug === 'crypto').map((s) => ({
        category: s.parentCategory,
        subcategory: s.key,
      })),
    ];
    // Each listing's servers by the listing rule the product applies (matchesFilter), in listing order.
    const listings = filters.map((filter) => ({ filter, servers: listed.filter((s) => matchesFilter(s, filter)) }));
    for (const { filter, servers } of listings) {
      // A category's or subcategory's list is led by its Sponsored listings (placesAtHead).
      const head = filter.category !== undefined;
      const last = listingPageFromList(servers, 1, cardsFrom(servers), head).last;
      for (let page = 2; page <= last; page++) {
        const fromDb = await listingPageFromDb(db, filter, page);
        expect(
          fromDb && outline(fromDb),
          `${filter.category ?? 'all'}/${filter.subcategory ?? ''} page ${page}`,
        ).toEqual(outline(listingPageFromList(servers, page, cardsFrom(servers), head)));
      }
      expect(await listingPageFromDb(db, filter, last + 1)).toBeNull();
    }
    // Every page of 3,000 listings read twice: over 30 s on the loaded 2-core machine.
  }, 120_000);
  // Last: it changes the database the tests above compare the build with.
  it('keeps a listing outline while the generation stays the same, and reads the listing again with a new one', async () => {
    const page = PRERENDERED_PAGES + 1;
    const before = outline(listingPageFromList(listed, page, cardsFrom(listed)));
    expect(outline((await listingPageFromDb(db, {}, page, 1))!)).toEqual(before);
    // A new biggest server moves every later one a position down.
    await createServer(db, {
      name: 'Newly Biggest Guild',
      description: 'Added after the outline was kept, for the on-demand listing test.',
      category: 'Gaming',
      members: 10_000_000,
      active_users: 1,
    });
    const now = (await listServersWithPages(db)).filter(isListed);
    const after = outline(listingPageFromList(now, page, cardsFrom(now)));
    expect(after).not.toEqual(before);
    expect(outline((await listingPageFromDb(db, {}, page, 1))!)).toEqual(before);
    expect(outline((await listingPageFromDb(db, {}, page, 2))!)).toEqual(after);
    expect(outline((await listingPageFromDb(db, {}, page))!)).toEqual(after);
  });
});
