// Paths of the built site that have no page, as `npm start` answers them: the static handler with
// the redirect lookup node.ts gives it, over a real libSQL file and a small built site.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServer, setServerActive, updateServer } from '../../db/queries/servers';
import { createApp } from '../../functions/_app/app';
import { loadEnv } from '../../functions/_app/env';
import { siteRedirect } from '../../functions/_app/routes/site-redirects';
import { createStaticHandler } from '../../functions/_app/static';
import { createTestDb, type TestDb } from '../helpers/db';

let t: TestDb | undefined;
afterEach(() => t?.cleanup());

const page = (title: string) => `<!doctype html><title>${title}</title><h1>${title}</h1><p>__REQUESTED_SLUG__</p>`;

/** A migrated database, a built site with a few pages and the not-found screens, and the app over both. */
async function siteApp() {
  t = await createTestDb();
  const db = t.db;
  const site = join(t.dir, 'site');
  mkdirSync(join(site, 'server'), { recursive: true });
  mkdirSync(join(site, 'best-crypto-discord'), { recursive: true });
  for (const [file, title] of [
    ['index.html', 'Home'],
    ['servers.html', 'All servers'],
    ['best-gaming-discord.html', 'Gaming'],
    ['best-crypto-discord.html', 'Crypto'],
    ['best-crypto-discord/bitcoin-discord.html', 'Bitcoin'],
    ['server/retro-legends.html', 'Retro Legends'],
    ['server/night-owls.html', 'Night Owls'],
    ['404.html', 'Page Not Found'],
    ['server-not-found.html', 'Server not found'],
    ['category-not-found.html', 'Category Not Found'],
    ['subcategory-not-found.html', 'Subcategory Not Found'],
  ]) {
    writeFileSync(join(site, file!), page(title!));
  }
  const app = createApp({
    db,
    env: loadEnv({ RATE_LIMITS: 'false' }),
    staticSite: createStaticHandler(() => site, { redirect: (path) => siteRedirect(db, path) }),
  });
  return { db, app };
}

const title = async (res: Response) => /<title>([^<]*)<\/title>/.exec(await res.text())?.[1];

describe('a renamed server’s old address', () => {
  it('GET /server/{former slug} answers 301 to the current page, keeping the query', async () => {
    const { db, app } = await siteApp();
    const row = await createServer(db, { name: 'Pixel Raiders', category: 'Gaming' });
    await updateServer(db, row.id, { name: 'Retro Legends' });
    const res = await app.request('/server/pixel-raiders?utm_source=newsletter');
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/server/retro-legends?utm_source=newsletter');
    // The current address is the page itself.
    expect((await app.request('/server/retro-legends')).status).toBe(200);
  });

  it('GET /server/{former slug}/reviews?before=K answers 301 to the current reviews page, key kept; an unknown one the server-not-found screen', async () => {
    const { db, app } = await siteApp();
    const row = await createServer(db, { name: 'Pixel Raiders', category: 'Gaming' });
    await updateServer(db, row.id, { name: 'Retro Legends' });
    const key = encodeURIComponent('2026-05-01T10:00:00.000Z~42');
    const res = await app.request(`/server/pixel-raiders/reviews?before=${key}`);
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(`/server/retro-legends/reviews?before=${key}`);
    const gone = await app.request(`/server/no-such-guild/reviews?before=${key}`);
    expect(gone.status).toBe(404);
    expect(await title(gone)).toBe('Server not found');
  });

  it('GET /server/{name variant, other case or words of the name} answers 301 (the name-variant fallback)', async () => {
    const { db, app } = await siteApp();
    await createServer(db, { name: 'Night Owls Community', slug: 'night-owls', category: 'Crypto' });
    for (const path of [
      '/server/night-owls-community',
      '/server/Night-Owls',
      '/server/nightowlscommunity',
      '/server/owls-night',
    ]) {
      const res = await app.request(path);
      expect(res.status, path).toBe(301);
      expect(res.headers.get('location'), path).toBe('/server/night-owls');
    }
  });

  it('GET /server/{unknown, hidden or unlisted} answers the server-not-found screen with 404', async () => {
    const { db, app } = await siteApp();
    const hidden = await createServer(db, { name: 'Quiet Corner', category: 'Gaming' });
    await updateServer(db, hidden.id, { name: 'Quieter Corner' });
    await setServerActive(db, hidden.id, false);
    await createServer(db, { name: 'Study Together', category: 'Education' });
    for (const path of ['/server/no-such-guild', '/server/quiet-corner', '/server/study-together']) {
      const res = await app.request(path);
      expect(res.status, path).toBe(404);
      expect(await title(res), path).toBe('Server not found');
    }
  });

  it('answers the not-found screen, not an error, when the database cannot be read', async () => {
    const { app } = await siteApp();
    t!.client.close();
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const res = await app.request('/server/anything');
      expect(res.status).toBe(404);
      expect(await title(res)).toBe('Server not found');
      expect(String(warned.mock.calls[0]?.[0])).toContain('/server/anything');
    } finally {
      warned.mockRestore();
    }
  });
});

describe('addresses with a trailing slash', () => {
  it('answer 301 to the page without it, query kept', async () => {
    const { db, app } = await siteApp();
    await createServer(db, { name: 'Retro Legends', category: 'Gaming' });
    for (const [path, location] of [
      ['/best-gaming-discord/', '/best-gaming-discord'],
      ['/best-crypto-discord/bitcoin-discord/', '/best-crypto-discord/bitcoin-discord'],
      ['/server/retro-legends/?ref=x', '/server/retro-legends?ref=x'],
      ['/servers/', '/servers'],
    ]) {
      const res = await app.request(path!);
      expect(res.status, path).toBe(301);
      expect(res.headers.get('location'), path).toBe(location);
    }
  });

  it('answer 301 whether or not a page is there (one rule; the bare address answers for itself)', async () => {
    const { app } = await siteApp();
    const res = await app.request('/nothing-here/');
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/nothing-here');
    expect((await app.request('/nothing-here')).status).toBe(404);
  });

  it('never redirect to another site', async () => {
    const { app } = await siteApp();
    for (const path of ['//evil.example/', '//index/']) {
      const res = await app.request(`http://localhost${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('location'), path).toBeNull();
    }
  });
});

describe('listing pages past the end', () => {
  it('GET /best-{category}-discord/page/{n} without a page answers 301 to the category, never Subcategory Not Found', async () => {
    const { app } = await siteApp();
    const res = await app.request('/best-gaming-discord/page/2');
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/best-gaming-discord');
    const all = await app.request('/servers/page/7');
    expect(all.status).toBe(301);
    expect(all.headers.get('location')).toBe('/servers');
  });

  it('GET /best-{unknown}-discord/page/{n} answers Category Not Found with 404', async () => {
    const { app } = await siteApp();
    const res = await app.request('/best-anime-discord/page/2');
    expect(res.status).toBe(404);
    expect(await title(res)).toBe('Category Not Found');
    const sub = await app.request('/best-gaming-discord/nope-discord');
    expect(sub.status).toBe(404);
    expect(await title(sub)).toBe('Subcategory Not Found');
  });
});

describe('a new build going live', () => {
  it('serves the new folder’s file at a path the old folder had no file for, after that path was answered without one', async () => {
    t = await createTestDb();
    const db = t.db;
    const folders = ['old', 'new'].map((name) => join(t!.dir, name));
    for (const folder of folders) {
      mkdirSync(join(folder, 'server'), { recursive: true });
      writeFileSync(join(folder, '404.html'), page('Page Not Found'));
      writeFileSync(join(folder, 'server-not-found.html'), page('Server not found'));
    }
    writeFileSync(join(folders[1]!, 'server', 'late-comers.html'), page('Late Comers'));
    let live = folders[0]!;
    const app = createApp({
      db,
      env: loadEnv({ RATE_LIMITS: 'false' }),
      staticSite: createStaticHandler(() => live, { redirect: (path) => siteRedirect(db, path) }),
    });
    // Asked twice of the old folder: the second answer comes from the remembered miss, the same one.
    for (let i = 0; i < 2; i++) {
      const res = await app.request('/server/late-comers');
      expect(res.status).toBe(404);
      expect(await title(res)).toBe('Server not found');
    }
    live = folders[1]!;
    const res = await app.request('/server/late-comers');
    expect(res.status).toBe(200);
    expect(await title(res)).toBe('Late Comers');
  });
});
