import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertFakeServers } from '../../db/fake';
import { SEARCH_TOTAL_CAP } from '../../db/queries/servers';
import { createTestApp, type TestApp } from './api-harness';

interface Page {
  servers: { id: number; name: string }[];
  total: number;
  total_exact: boolean;
  page: number;
}

// 3,500 fake servers, every one a "community": more matches than a search counts.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await insertFakeServers(t.client, 3_500);
});
afterAll(() => t.cleanup());

const get = async (query: string) => (await (await t.app.request(`/api/servers?${query}`)).json()) as Page;

describe('GET /api/servers counts', () => {
  it('says a count that stopped at the cap: total is the cap and total_exact false', async () => {
    const body = await get('search=community&per_page=24');
    expect(body).toMatchObject({ total: SEARCH_TOTAL_CAP, total_exact: false, page: 1 });
    expect(body.servers).toHaveLength(24);
  });

  it('gives an exact total for a search with fewer matches than the cap', async () => {
    const body = await get('search=valorant&per_page=100');
    expect(body.total_exact).toBe(true);
    expect(body.total).toBeLessThan(SEARCH_TOTAL_CAP);
    expect(body.servers.length).toBe(Math.min(100, body.total));
    expect(body.servers.every((s) => s.name.toLowerCase().includes('valorant'))).toBe(true);
  });

  it('caps the count of a filter on row values, never the count of a category', async () => {
    expect(await get('min_members=50')).toMatchObject({ total: SEARCH_TOTAL_CAP, total_exact: false });
    const all = await get('');
    expect(all.total_exact).toBe(true);
    expect(all.total).toBeGreaterThan(3_000);
    expect((await get('category=Gaming')).total_exact).toBe(true);
    const few = await get('min_members=200000');
    expect(few.total_exact).toBe(true);
    expect(few.total).toBeLessThan(SEARCH_TOTAL_CAP);
  });
});
