import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { listServersWithPages, type Server } from '../../db/queries/servers';
import { LISTING_HEAD, listingPageFromDb, listingPageFromList } from '../../src/data/listing-page';
import { isListed, matchesFilter } from '../../src/lib/listing';
import { openSeededDb } from '../helpers/db';
import { pageOutline } from '../helpers/listing-page';

// A category's pages within its head (its first LISTING_HEAD servers) are placed from one index
// read of the head and one of the category's Sponsored listings (which lead it, wherever they
// stand), not from a walk of the whole category: every page equals the build's placement of the
// whole list, within the head, across its end and past it.

const FAKES = 15_000;
let dir: string;
let db: Db;
let close: () => void;
let listed: Server[];

const outline = pageOutline;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'guildrank-listing-head-'));
  const opened = await openSeededDb(`file:${join(dir, 'site.db')}`, FAKES);
  db = opened.db;
  close = () => opened.client.close();
  listed = (await listServersWithPages(db)).filter(isListed);
}, 300_000);

afterAll(() => {
  close?.();
  rmSync(dir, { recursive: true, force: true });
});

describe("a category's pages within its head", () => {
  it('are placed as the build places the whole category, Sponsored listings past the head leading it', async () => {
    const crypto = listed.filter((s) => matchesFilter(s, { category: 'Crypto' }));
    const paid = crypto.filter((s) => s.is_premium || s.is_sponsored).length;
    // The head path is taken (more unpaid servers than the head), and Sponsored listings stand past it.
    expect(crypto.length - paid).toBeGreaterThanOrEqual(LISTING_HEAD);
    expect(crypto.slice(LISTING_HEAD).filter((s) => s.is_sponsored).length).toBeGreaterThan(3);
    const cards = new Map(crypto.map((s) => [s.id, s]));
    const last = listingPageFromList(crypto, 1, cards, true).last;
    expect(last).toBeGreaterThan(LISTING_HEAD / 24);
    for (let page = 1; page <= last; page++) {
      const fromDb = await listingPageFromDb(db, { category: 'Crypto' }, page, 1);
      expect(fromDb && outline(fromDb), `page ${page}`).toEqual(
        outline(listingPageFromList(crypto, page, cards, true)),
      );
    }
  }, 300_000);
});
