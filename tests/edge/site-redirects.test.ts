// Paths without a page on Cloudflare: the Worker (functions/worker.ts in workerd through wrangler
// dev, wrangler.toml's assets settings) over a libSQL database reached by HTTP.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, updateServer } from '../../db/queries/servers';
import { type LibsqlHttpServer, startLibsqlHttpServer } from '../fixtures/libsql-http-server';
import { createTestDb, type TestDb } from '../helpers/db';
import { startWranglerDev, type WranglerDev } from '../helpers/wrangler-dev';

const TOKEN = 'edge-redirect-token';

let tdb: TestDb;
let libsql: LibsqlHttpServer;
let worker: WranglerDev;

beforeAll(async () => {
  tdb = await createTestDb();
  const renamed = await createServer(tdb.db, { name: 'Pixel Raiders', category: 'Gaming' });
  await updateServer(tdb.db, renamed.id, { name: 'Retro Legends' });
  libsql = await startLibsqlHttpServer({ file: tdb.url.replace(/^file:/, ''), authToken: TOKEN });
  const assets = join(tdb.dir, 'assets');
  mkdirSync(join(assets, 'server'), { recursive: true });
  const page = (title: string) => `<!doctype html><title>${title}</title><p>__REQUESTED_SLUG__</p>`;
  writeFileSync(join(assets, 'index.html'), page('Home'));
  writeFileSync(join(assets, 'best-gaming-discord.html'), page('Gaming'));
  writeFileSync(join(assets, 'server', 'retro-legends.html'), page('Retro Legends'));
  writeFileSync(join(assets, '404.html'), page('Page Not Found'));
  writeFileSync(join(assets, 'server-not-found.html'), page('Server not found'));
  writeFileSync(join(assets, 'category-not-found.html'), page('Category Not Found'));
  worker = await startWranglerDev({
    dir: join(tdb.dir, 'wrangler'),
    assets,
    vars: {
      DATABASE_URL: libsql.url,
      DATABASE_AUTH_TOKEN: TOKEN,
      IP_HASH_SECRET: 'edge-redirect-ip-secret-0123456789abcdef01',
      SESSION_SECRET: 'edge-redirect-session-secret-0123456789abc',
    },
  });
}, 240_000);

afterAll(async () => {
  await worker?.stop();
  await libsql?.stop();
  tdb?.cleanup();
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

  it('redirects a page’s address with a trailing slash to the page (the assets layer, html_handling)', async () => {
    const res = await get('/best-gaming-discord/');
    // Cloudflare's assets layer answers these itself, with its own redirect status (307).
    expect([301, 307, 308]).toContain(res.status);
    expect(new URL(res.headers.get('location')!, worker.url).pathname).toBe('/best-gaming-discord');
    const moved = await get('/server/pixel-raiders/');
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe('/server/retro-legends');
  });
});
