// The reads of a server page rendered on request (#18) are built once and run on the native
// prepared connection (db/prepared.ts readBuilt), or through the client where there is none (the
// Worker). Both must give what the build's reads give for the same listing, row for row.
import { createClient } from '@libsql/client';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, toDb } from '../../db/client';
import { preparedStatementsFor } from '../../db/prepared';
import { confirmedFlags, confirmedFlagsOf } from '../../db/queries/flags';
import { memberHistory, memberHistoryOf } from '../../db/queries/history';
import { createServer, getServerPageBySlug } from '../../db/queries/servers';
import { discordServers, serverFlags, serverSnapshots } from '../../db/schema';
import { createTestDb, type TestDb } from '../helpers/db';

let t: TestDb;
/** The same file through a bare client: no prepared statements registered, the Worker's path. */
let bare: Db;
let closeBare: () => void;
let ids: number[];
const NOW = new Date('2026-11-27T12:00:00.000Z');
const DAYS = 30;

beforeAll(async () => {
  t = await createTestDb();
  const client = createClient({ url: t.url });
  bare = toDb(client);
  closeBare = () => client.close();
  ids = [];
  for (const name of ['Alpha Guild', 'Beta Guild', 'Gamma Guild']) {
    ids.push((await createServer(t.db, { name, category: 'Gaming' })).id);
  }
});
afterAll(() => {
  closeBare?.();
  t?.cleanup();
});

const snapshot = fc.record({
  server: fc.integer({ min: 0, max: 2 }),
  // Some before the window, several checks a day.
  minutesAgo: fc.integer({ min: 0, max: (DAYS + 5) * 24 * 60 }),
  members: fc.option(fc.integer({ min: 0, max: 100_000 })),
  online: fc.option(fc.integer({ min: 0, max: 100_000 })),
});
const flag = fc.record({
  server: fc.integer({ min: 0, max: 2 }),
  rule: fc.constantFrom('member_spike', 'online_spike', 'ratio'),
  verdict: fc.constantFrom('confirmed', 'dismissed', null),
  closed: fc.boolean(),
  minutesAgo: fc.integer({ min: 0, max: 60 * 24 * 40 }),
});

describe('the reads of a server page rendered on request', () => {
  it('give the same history and flags as the build’s reads, prepared and through the client', async () => {
    expect(preparedStatementsFor(t.db)).toBeDefined();
    expect(preparedStatementsFor(bare)).toBeUndefined();
    await fc.assert(
      fc.asyncProperty(
        fc.array(snapshot, { maxLength: 60 }),
        fc.array(flag, { maxLength: 8 }),
        async (snaps, flags) => {
          await t.db.delete(serverSnapshots);
          await t.db.delete(serverFlags);
          for (const s of snaps) {
            await t.db
              .insert(serverSnapshots)
              .values({
                server_id: ids[s.server]!,
                checked_at: new Date(NOW.getTime() - s.minutesAgo * 60_000).toISOString(),
                outcome: 'ok',
                member_count: s.members,
                online_count: s.online,
              })
              .onConflictDoNothing();
          }
          for (const f of flags) {
            // One open flag per listing and rule (server_flags_open_unique).
            await t.db
              .insert(serverFlags)
              .values({
                server_id: ids[f.server]!,
                rule: f.rule,
                detail: `${f.rule} detail`,
                verdict: f.verdict,
                opened_at: new Date(NOW.getTime() - f.minutesAgo * 60_000).toISOString(),
                closed_at: f.closed ? NOW.toISOString() : null,
              })
              .onConflictDoNothing();
          }
          const history = await memberHistory(t.db, 'all', DAYS, NOW);
          const allFlags = await confirmedFlags(t.db);
          for (const id of ids) {
            for (const db of [t.db, bare]) {
              expect(await memberHistoryOf(db, id, DAYS, NOW)).toEqual(history.get(id) ?? []);
              expect(await confirmedFlagsOf(db, id)).toEqual(allFlags.get(id) ?? []);
            }
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('reads a listing by its slug as drizzle does, and only one with a page', async () => {
    const [row] = await t.db.select().from(discordServers).where(eq(discordServers.id, ids[0]!));
    for (const db of [t.db, bare]) expect(await getServerPageBySlug(db, row!.slug)).toEqual(row);
    await t.db.update(discordServers).set({ is_active: false }).where(eq(discordServers.id, ids[0]!));
    for (const db of [t.db, bare]) expect(await getServerPageBySlug(db, row!.slug)).toBeNull();
    await t.db.update(discordServers).set({ is_active: true }).where(eq(discordServers.id, ids[0]!));
    expect(await getServerPageBySlug(t.db, 'no-such-listing')).toBeNull();
  });
});
