// Where a page of a listing's public reviews is (db/queries/reviews.ts listPublicReviews): its
// total, the place of its first review ("Reviews 11 to 20 of 25") and the keys either side, read
// beside the page (with the total) rather than counted after it. Checked against the whole list
// sorted here, for pages by number and from keys, the reviews' own keys and keys of none.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listPublicReviews, publicReviewsRead, ratingCountsRead } from '../../db/queries/reviews';
import { createServer } from '../../db/queries/servers';
import { ownerUsers, reviews } from '../../db/schema';
import { reviewKey } from '../../src/lib/reviews/cursor';
import { createTestDb, type TestDb } from '../helpers/db';

let t: TestDb;
let serverId: number;
let accounts: number[];
const ACCOUNTS = 24;
/** A few instants, so that several reviews share one and their ids order them. */
const INSTANTS = ['2026-05-01T10:00:00.000Z', '2026-05-01T10:01:00.000Z', '2026-05-02T09:00:00.000Z'];

beforeAll(async () => {
  t = await createTestDb();
  serverId = (await createServer(t.db, { name: 'Paged Reviews Guild', category: 'Gaming' })).id;
  const rows = await t.db
    .insert(ownerUsers)
    .values(Array.from({ length: ACCOUNTS }, (_, i) => ({ discord_user_id: `8800000000${i}`, username: `r${i}` })))
    .returning({ id: ownerUsers.id });
  accounts = rows.map((r) => r.id);
});
afterAll(() => t?.cleanup());

type Row = { id: number; created_at: string; status: string };
const newestFirst = (a: Row, b: Row) =>
  a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : b.id - a.id;
const cmp = (r: Row, k: { createdAt: string; id: number }) =>
  r.created_at < k.createdAt ? -1 : r.created_at > k.createdAt ? 1 : r.id - k.id;

/** The page, its place and keys as the whole public list says. */
function expected(all: Row[], at: { page: number } | { before: Key } | { after: Key }, size: number) {
  const list = all.filter((r) => r.status !== 'held').sort(newestFirst);
  let page: Row[];
  let start: number;
  if ('page' in at) {
    start = (at.page - 1) * size;
    page = list.slice(start, start + size);
  } else if ('before' in at) {
    start = list.findIndex((r) => cmp(r, at.before) < 0);
    page = start < 0 ? [] : list.slice(start, start + size);
  } else {
    const newer = list.filter((r) => cmp(r, at.after) > 0);
    page = newer.slice(-size);
    start = newer.length - page.length;
  }
  if (page.length === 0 && !('page' in at)) return expected(all, { page: 1 }, size);
  const from = page.length ? start + 1 : 1;
  return {
    total: list.length,
    ids: page.map((r) => r.id),
    from,
    newer: page.length && start > 0 ? reviewKey(page[0]!) : null,
    older: page.length && list.length - start - page.length > 0 ? reviewKey(page.at(-1)!) : null,
  };
}

type Key = { createdAt: string; id: number };

describe('listPublicReviews', () => {
  it('gives each page its reviews, its place in the list and the keys either side, by number and from any key', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            instant: fc.constantFrom(...INSTANTS),
            status: fc.constantFrom('shown', 'shown', 'hidden', 'held'),
          }),
          { maxLength: ACCOUNTS },
        ),
        fc.integer({ min: 1, max: 6 }),
        fc.array(
          fc.oneof(
            fc.record({ page: fc.integer({ min: 1, max: 5 }) }),
            fc.record({ dir: fc.constantFrom('before', 'after'), of: fc.nat(), own: fc.boolean(), id: fc.nat(99) }),
          ),
          { minLength: 1, maxLength: 6 },
        ),
        async (written, size, asks) => {
          await t.db.delete(reviews);
          const all: Row[] = [];
          for (const [i, w] of written.entries()) {
            const [row] = await t.db
              .insert(reviews)
              .values({
                server_id: serverId,
                account_id: accounts[i]!,
                rating: 1 + (i % 5),
                body: `Review ${i}, long enough to be a review.`,
                display_name: `m${i}`,
                member_since: INSTANTS[0]!,
                status: w.status as 'shown' | 'hidden' | 'held',
                hidden_reason: w.status === 'hidden' ? 'off-topic' : null,
                created_at: w.instant,
              })
              .returning({ id: reviews.id, created_at: reviews.created_at, status: reviews.status });
            all.push(row!);
          }
          for (const ask of asks) {
            let at: { page: number } | { before: Key } | { after: Key };
            if ('page' in ask) at = ask;
            else {
              // A review's own key (held ones too), or a key no review has.
              const of = all.length && ask.own ? all[ask.of % all.length]! : null;
              const key = of
                ? { createdAt: of.created_at, id: of.id }
                : { createdAt: INSTANTS[ask.of % INSTANTS.length]!, id: ask.id + 1 };
              at = ask.dir === 'before' ? { before: key } : { after: key };
            }
            const got = await listPublicReviews(t.db, serverId, at, size);
            const want = expected(all, at, size);
            expect({
              total: got.total,
              ids: got.reviews.map((r) => r.id),
              from: got.from,
              newer: got.newer,
              older: got.older,
            }).toEqual(want);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("a page of a listing's reviews and its rating summary at scale", () => {
  /** SQLite's plan of a drizzle read, as one line. */
  const planOf = async (query: { toSQL: () => { sql: string; params: unknown[] } }) => {
    const { sql, params } = query.toSQL();
    const plan = await t.client.execute({ sql: `EXPLAIN QUERY PLAN ${sql}`, args: params as never[] });
    return plan.rows.map((r) => String(r.detail)).join(' | ');
  };

  it('reads a page in the order of an index and stops after it, and counts the ratings from an index alone: no sort of all the reviews', async () => {
    const key = { createdAt: INSTANTS[1]!, id: 5 };
    for (const at of [{ page: 1 }, { page: 3 }, { before: key }, { after: key }]) {
      const plan = await planOf(publicReviewsRead(t.db, serverId, at, 10));
      expect(plan, JSON.stringify(at)).toContain('reviews_server_order_idx');
      expect(plan, JSON.stringify(at)).not.toContain('TEMP B-TREE');
    }
    const summary = await planOf(ratingCountsRead(t.db, serverId));
    expect(summary).toContain('COVERING INDEX reviews_server_status_rating_idx');
    expect(summary).not.toContain('TEMP B-TREE');
  });
});
