// The sitemap from the database (#18) in workerd: the Worker entry over HTTP libSQL answers the
// index and the server files that no build wrote, the same as the Node server does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../db/queries/servers';
import { type EdgeStack, startEdgeStack } from '../helpers/wrangler-dev';

let stack: EdgeStack | undefined;

beforeAll(async () => {
  stack = await startEdgeStack({
    assets: { 'index.html': '<!doctype html><title>GuildRank</title><h1>Home</h1>' },
  });
}, 240_000);

afterAll(async () => {
  await stack?.stop();
});

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);

describe('sitemaps in the Worker', () => {
  it('names and serves the files with every listed server, read over HTTP libSQL', async () => {
    const { tdb, worker } = stack!;
    await createServer(tdb.db, { name: 'Edge Sitemap Guild', category: 'Crypto', affiliate_link: null });
    const index = await fetch(`${worker.url}/sitemap-index.xml`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(locs(await index.text())).toEqual(['/sitemap-0.xml', '/sitemap-servers-0.xml']);
    const servers = await (await fetch(`${worker.url}/sitemap-servers-0.xml`)).text();
    expect(locs(servers)).toEqual(['/server/edge-sitemap-guild']);
    const pages = locs(await (await fetch(`${worker.url}/sitemap-0.xml`)).text());
    expect(pages).toContain('/best-crypto-discord');
  });
});
