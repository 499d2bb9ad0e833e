// Issue #13 item 10: the search box says "name or topic", so tags are searched on every path.
import { afterEach, describe, expect, it } from 'vitest';
import { listSampleServers } from '../../db/sample-data';
import { createTestApp, seedServer, type TestApp } from './api-harness';

let t: TestApp | undefined;
afterEach(() => t?.cleanup());

describe('GET /api/servers?search= matches tags', () => {
  it('finds a server by one of its tags, long or short', async () => {
    t = await createTestApp({ RATE_LIMITS: 'false' });
    await seedServer(t.db, { name: 'Quiet Corner', description: 'Slow chat', tags: ['Chess', 'Go'] });
    await seedServer(t.db, { name: 'Loud Corner', description: 'Fast chat', tags: ['Shooters'] });
    for (const search of ['chess', 'go']) {
      const res = await t.app.request(`/api/servers?search=${search}`);
      const body = (await res.json()) as { servers: { name: string }[] };
      expect(
        body.servers.map((s) => s.name),
        search,
      ).toEqual(['Quiet Corner']);
    }
  });

  it('matches tags in the sample set too (the fallback while the database is away)', () => {
    expect(listSampleServers({ search: 'price action' }).servers.map((s) => s.name)).toEqual(['Forex Signals Room']);
  });
});
