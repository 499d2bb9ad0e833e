import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { readListingGroups } from '../../db/queries/listing-groups';
import { createServer, listServersWithPages, type Server } from '../../db/queries/servers';
import { discordServers } from '../../db/schema';
import { type ListingPage, listingPageFromList, SITE_LISTINGS } from '../../src/data/listing-page';
import { prerenderedListingPages } from '../../src/data/prerendered-listings';
import { isListed, matchesSubcategory } from '../../src/lib/listing';
import { placesAtHead } from '../../src/lib/placement';
import { openSeededDb } from '../helpers/db';
import { pageOutline } from '../helpers/listing-page';

// The build reads each listing's head, not every listing's keys (issue 35): its prerendered pages
// must be the pages listingPageFromList gives from the whole listing, card for card. Fakes with
// their paid share (8% Premium, 2% Sponsored), Gaming with a Sponsored card in every seventh
// server (more than its first pages can place: they lead its list from deep in it), and paid
// listings at the end of Crypto that nothing spaces out (they end its last page).

let dir: string;
let db: Db;
let close: () => void;
let listed: Server[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'guildrank-prerendered-listings-'));
  const opened = await openSeededDb(`file:${join(dir, 'site.db')}`, 3000);
  db = opened.db;
  close = () => opened.client.close();
  await db
    .update(discordServers)
    .set({ is_sponsored: true })
    .where(and(eq(discordServers.category, 'Gaming'), sql`${discordServers.id} % 7 = 0`));
  for (const name of ['Trailing Paid One', 'Trailing Paid Two', 'Trailing Paid Three']) {
    await createServer(db, {
      name,
      description: 'A paid listing at the end of its category, for the prerendered listings test.',
      category: 'Crypto',
      members: 0,
      active_users: 0,
      is_premium: true,
      is_sponsored: name.endsWith('Three'),
    });
  }
  listed = (await listServersWithPages(db)).filter(isListed);
}, 120_000);

afterAll(() => {
  close?.();
  rmSync(dir, { recursive: true, force: true });
});

/** What a page shows, by id. */
const shown = (p: ListingPage) => ({
  ...pageOutline(p),
  stats: p.stats && { ...p.stats, podium: p.stats.podium.map((s) => s.id) },
});

describe('prerenderedListingPages', () => {
  it.each([1, 3, 20, 200])(
    'gives the first %i pages of every listing as the whole listing places them',
    async (pages) => {
      const built = await prerenderedListingPages(db, await readListingGroups(db), pages);
      const cards = new Map(listed.map((s) => [s.id, s]));
      expect([...built.keys()]).toEqual(SITE_LISTINGS.map((l) => l.path));
      for (const l of SITE_LISTINGS) {
        const list = listed.filter(
          (s) =>
            (!l.filter.category || s.category === l.filter.category) &&
            (!l.filter.subcategory || matchesSubcategory(s.subcategory, l.filter.subcategory)),
        );
        const head = placesAtHead(l.filter);
        const whole = listingPageFromList(list, 1, cards, head);
        const got = built.get(l.path)!;
        expect(got).toHaveLength(Math.min(pages, whole.last));
        for (const page of got) {
          expect(shown(page), `${l.path} page ${page.page}`).toEqual(
            shown(listingPageFromList(list, page.page, cards, head)),
          );
          // Whole rows, as a card shows them.
          for (const s of page.shown) expect(s).toEqual(cards.get(s.id));
        }
      }
    },
    120_000,
  );

  it('places deep Sponsored cards at the head of their category', async () => {
    const [gaming] = (await prerenderedListingPages(db, await readListingGroups(db), 1)).get('/best-gaming-discord')!;
    const first = gaming!.shown[0]!;
    expect(first.is_sponsored).toBe(true);
    // Sponsored cards at 0, 5, 10, ... of the first page.
    expect(gaming!.shown.map((s, i) => (i % 5 === 0 ? s.is_sponsored : true))).not.toContain(false);
  });
});
