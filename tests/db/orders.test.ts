import { afterEach, describe, expect, it } from 'vitest';
import { takenSlots } from '../../db/queries/orders';
import { createServer, deleteServer } from '../../db/queries/servers';
import { orders } from '../../db/schema';
import { createTestDb, type TestDb } from '../helpers/db';

let t: TestDb;
afterEach(() => t.cleanup());

describe('sponsored slots', () => {
  it('a deleted listing’s running comp (its order kept, set null) holds no slot', async () => {
    t = await createTestDb();
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const comp = (serverId: number) => ({
      server_id: serverId,
      kind: 'comp' as const,
      placement: 'sponsored' as const,
      category: 'Crypto',
      term_days: 30,
      amount_cents: 0,
      currency: 'usd',
      state: 'paid' as const,
      version: `v-${serverId}`,
      starts_at: iso(now - 86_400_000),
      ends_at: iso(now + 29 * 86_400_000),
    });
    const kept = await createServer(t.db, { name: 'Kept Sponsor', description: 'd', category: 'Crypto', members: 100 });
    const gone = await createServer(t.db, { name: 'Gone Sponsor', description: 'd', category: 'Crypto', members: 100 });
    await t.db.insert(orders).values([comp(kept.id), comp(gone.id)]);
    expect(await takenSlots(t.db, 'Crypto', iso(now))).toHaveLength(2);
    expect(await deleteServer(t.db, gone.id)).toBe('deleted');
    // The order stays (a record), its slot is free.
    expect(await t.db.select().from(orders)).toHaveLength(2);
    expect(await takenSlots(t.db, 'Crypto', iso(now))).toHaveLength(1);
  });
});
