// Paths without a page on Cloudflare: the Worker (functions/worker.ts in workerd through wrangler
// dev, wrangler.toml's assets settings) over a libSQL database reached by HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, updateServer } from '../../db/queries/servers';
import { type EdgeStack, startEdgeStack, type WranglerDev } from '../helpers/wrangler-dev';

let worker: WranglerDev;
let stack: EdgeStack | undefined;

const page = (title: string) => `<!doctype html><title>${title}</title><p>__REQUESTED_SLUG__</p>`;

beforeAll(async () => {
  stack = await startEdgeStack({
    prepare: async (tdb) => {
      const renamed = await createServer(tdb.db, { name: 'Pixel Raiders', category: 'Gaming' });
      await updateServer(tdb.db, renamed.id, { name: 'Retro Legends' });
    },
    assets: {
      'index.html': page('Home'),
      'best-gaming-discord.html': page('Gaming'),
      'server/retro-legends.html': page('Retro Legends'),
      '404.html': page('Page Not Found'),
      'server-not-found.html': page('Server not found'),
      'category-not-found.html': page('Category Not Found'),
    },
  });
  ({ worker } = stack);
}, 240_000);

afterAll(async () => {
  await stack?.stop();
});

const get = (path: string) => fetch(`${worker.url}${path}`, { redirect: 'manual' });
const title = async (res: Response) => /<title>([^<]*)<\/title>/.exec(await res.text())?.[1];

describe('the Worker for paths without a page', () => {
  it('answers a renamed server’s old address 301 to its current page, query kept', async () => {
    const res = await get('/server/pixel-raiders?utm_source=x');
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/server/retro-legends?utm_source=x');
  });

  it('answers an unknown server with the server-not-found screen, 404', async () => {
    const res = await get('/server/no-such-guild');
    expect(res.status).toBe(404);
    expect(await title(res)).toBe('Server not found');
  });

  it('answers a category page past the end 301 to the category', async () => {
    const res = await get('/best-gaming-discord/page/2');
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/best-gaming-discord');
  });

  it('answers an address with a trailing slash 301 to the address without it, as Node does', async () => {
    const res = await get('/best-gaming-discord/?ref=x');
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/best-gaming-discord?ref=x');
    const moved = await get('/server/pixel-raiders/');
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe('/server/retro-legends');
  });
});
