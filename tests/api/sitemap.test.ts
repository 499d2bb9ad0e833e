import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discordServers } from '../../db/schema';
import { createTestApp, ORIGIN, seedServer, type TestApp } from './api-harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedServer(t.db, { name: 'Sitemap Listed', slug: 'sitemap-listed', category: 'Crypto' });
  await seedServer(t.db, { name: 'Sitemap Dead', slug: 'sitemap-dead', invite_status: 'dead' });
  await seedServer(t.db, { name: 'Sitemap Hidden', slug: 'sitemap-hidden', is_active: false });
  // A listing far along the ids: the third server file (ids 100,001 to 150,000) holds it.
  const far = await seedServer(t.db, { name: 'Sitemap Far', slug: 'sitemap-far' });
  await t.db.update(discordServers).set({ id: 120_001 }).where(eq(discordServers.id, far.id));
});
afterAll(() => t.cleanup());

const get = (path: string) => t.app.request(path);
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);

describe('the sitemap from the database', () => {
  it('GET /sitemap-index.xml names the listing pages file and a server file per 50,000 ids', async () => {
    const res = await get('/sitemap-index.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(locs(await res.text())).toEqual([
      `${ORIGIN}/sitemap-0.xml`,
      `${ORIGIN}/sitemap-servers-0.xml`,
      `${ORIGIN}/sitemap-servers-1.xml`,
      `${ORIGIN}/sitemap-servers-2.xml`,
    ]);
  });

  it('lists the fixed, category and subcategory pages', async () => {
    const pages = locs(await (await get('/sitemap-0.xml')).text());
    expect(pages).toContain(`${ORIGIN}/`);
    expect(pages).toContain(`${ORIGIN}/ranking`);
    expect(pages).toContain(`${ORIGIN}/best-crypto-discord`);
    expect(pages).toContain(`${ORIGIN}/best-crypto-discord/bitcoin-discord`);
    expect(pages.some((p) => /saved|offline|not-found|admin/.test(p!))).toBe(false);
  });

  it('lists every listed server with when it last changed, never a dead or hidden one', async () => {
    const xml = await (await get('/sitemap-servers-0.xml')).text();
    expect(locs(xml)).toEqual([`${ORIGIN}/server/sitemap-listed`]);
    expect(xml).toMatch(/<lastmod>\d{4}-\d\d-\d\dT[\d:.]+Z<\/lastmod>/);
    expect(locs(await (await get('/sitemap-servers-1.xml')).text())).toEqual([]);
    expect(locs(await (await get('/sitemap-servers-2.xml')).text())).toEqual([`${ORIGIN}/server/sitemap-far`]);
  });

  it('answers 404 for a file past the last one', async () => {
    expect((await get('/sitemap-servers-3.xml')).status).toBe(404);
    expect((await get('/sitemap-1.xml')).status).toBe(404);
  });

  it('lists the numbered pages of a subcategory page as its listing pages them', async () => {
    for (let i = 0; i < 25; i++) {
      await seedServer(t.db, { name: `Sitemap DeFi ${i}`, category: 'Crypto', subcategory: 'DeFi', members: 100 + i });
    }
    const pages = locs(await (await get('/sitemap-0.xml')).text());
    expect(pages).toContain(`${ORIGIN}/best-crypto-discord/defi-discord`);
    expect(pages).toContain(`${ORIGIN}/best-crypto-discord/defi-discord/page/2`);
    expect(pages).not.toContain(`${ORIGIN}/best-crypto-discord/defi-discord/page/3`);
    expect(pages).not.toContain(`${ORIGIN}/best-crypto-discord/nft-discord/page/2`);
  });
});
