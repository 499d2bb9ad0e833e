import type { ListingPage } from '../../src/data/listing-page';

/**
 * What a listing page shows, by id: for comparing a page read one way (from the database, from a
 * listing's head, by the build) with the same page read another.
 */
export const pageOutline = (page: ListingPage) => ({
  page: page.page,
  last: page.last,
  shown: page.shown.map((s) => s.id),
  firstRank: page.firstRank,
  regions: page.regions,
  structured: page.structured.map((s) => s.id),
});
