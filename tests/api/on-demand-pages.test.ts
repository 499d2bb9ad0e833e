import { mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDb } from '../../db/client';
import { insertFakeServers } from '../../db/fake';
import { migrateDb } from '../../db/migrate';
import { createOperator } from '../../db/queries/operators';
import { createServer, listServersWithPages, type Server } from '../../db/queries/servers';
import { seedIfEmpty } from '../../db/seed';
import { loadEnv } from '../../functions/_app/env';
import { startNodeServer } from '../../functions/_app/node';
import { createOnDemandPages } from '../../functions/_app/on-demand';
import { createStaticHandler } from '../../functions/_app/static';
import { compareServers } from '../../src/lib/listing';
import { startLibsqlHttpServer } from '../fixtures/libsql-http-server';

// #18 on Node: the build prerenders only the top PRERENDER_SERVERS server pages by rank; every
// other one is rendered on request by the same page code inside the server `npm start` runs.

const PRERENDERED = 3;
const PASSWORD = 'on-demand test password';

let dir: string;
let buildsDir: string;
let server: Awaited<ReturnType<typeof startNodeServer>>;
let db: Db;
let close: () => void;
let base: string;
let ranked: Server[];

/** The headers a visitor can see, without the ones that differ per response. */
const visible = (res: Response) =>
  Object.fromEntries(
    [...res.headers].filter(
      ([name]) => !['date', 'x-request-id', 'content-length', 'connection', 'keep-alive'].includes(name),
    ),
  );

const clientDir = () => server.builder.liveDir() as string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'guildrank-on-demand-'));
  const url = `file:${join(dir, 'site.db')}`;
  const seeding = await openDb({ url });
  await migrateDb(seeding.db);
  await seedIfEmpty(seeding.db);
  await insertFakeServers(seeding.client, 30);
  await createOperator(seeding.db, { email: 'ops@example.com', password: PASSWORD, role: 'admin' });
  seeding.client.close();
  const env = loadEnv({
    DATABASE_URL: url,
    PORT: '0',
    HOST: '127.0.0.1',
    SITE_URL: 'http://localhost:4321',
    REFRESH_ENABLED: 'false',
    RATE_LIMITS: 'false',
  });
  // Inside the project: Astro stages prerender chunks beside an output folder within the working directory.
  buildsDir = join(process.cwd(), '.tmp', `on-demand-${basename(dir)}`);
  server = await startNodeServer({
    env,
    buildsDir,
    log: () => {},
    buildEnv: { PRERENDER_SERVERS: String(PRERENDERED) },
  });
  base = `http://127.0.0.1:${server.port}`;
  const opened = await openDb({ url });
  db = opened.db;
  close = () => opened.client.close();
  ranked = (await listServersWithPages(db)).toSorted(compareServers('active'));
}, 600_000);

afterAll(async () => {
  close?.();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(buildsDir, { recursive: true, force: true });
});

describe('server pages past PRERENDER_SERVERS (Node)', () => {
  it('prerenders the top listings by rank and no other server page', () => {
    const files = readFileSync(join(clientDir(), 'server', `${ranked[0]!.slug}.html`), 'utf8');
    expect(files).toContain(ranked[0]!.name.replaceAll('&', '&amp;'));
    expect(() => readFileSync(join(clientDir(), 'server', `${ranked[PRERENDERED]!.slug}.html`))).toThrow();
  });

  it('renders a long-tail page on request with the headers of a prerendered page', async () => {
    const tail = ranked.at(-1)!;
    const [staticRes, tailRes] = await Promise.all([
      fetch(`${base}/server/${ranked[0]!.slug}`),
      fetch(`${base}/server/${tail.slug}`),
    ]);
    expect(tailRes.status).toBe(200);
    expect(visible(tailRes)).toEqual(visible(staticRes));
    const html = await tailRes.text();
    expect(html).toContain(`<h1>${tail.name.replaceAll('&', '&amp;')}</h1>`);
    expect(html).toContain(`/server/${tail.slug}`);
  });

  it('gives a listing the same HTML on request as the build wrote for it', async () => {
    const top = ranked[1]!;
    const file = join(clientDir(), 'server', `${top.slug}.html`);
    const built = readFileSync(file, 'utf8');
    // Without its file, the same path is answered by the on-demand page.
    unlinkSync(file);
    const res = await fetch(`${base}/server/${top.slug}`, { headers: { 'accept-encoding': 'identity' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(built);
  });

  it('answers a slug no server has with the server-not-found screen, and caches nothing for it', async () => {
    const before = server.onDemand.size();
    const res = await fetch(`${base}/server/no-such-server-here`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('Server not found');
    expect(server.onDemand.size()).toBe(before);
  });

  it('keeps a rendered page in the cache until something changes', async () => {
    const tail = ranked.at(-2)!;
    server.onDemand.invalidate();
    await (await fetch(`${base}/server/${tail.slug}`)).text();
    expect(server.onDemand.size()).toBe(1);
    await (await fetch(`${base}/server/${tail.slug}`)).text();
    expect(server.onDemand.size()).toBe(1);
  });

  it('serves an approved long-tail listing at once, before any rebuild', async () => {
    const created = await createServer(db, {
      name: 'Fresh Tail Guild',
      description: 'A community added after the build, for the on-demand test.',
      category: 'Gaming',
      members: 12,
      active_users: 3,
    });
    const res = await fetch(`${base}/server/${created.slug}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Fresh Tail Guild');
  });

  it('stops serving a prerendered page the moment an operator hides its listing', async () => {
    const top = ranked[0]!;
    const login = await fetch(`${base}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ email: 'ops@example.com', password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const { csrfToken } = (await login.json()) as { csrfToken: string };
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const hide = await fetch(`${base}/api/admin/servers/${top.id}/visibility`, {
      method: 'PATCH',
      headers: { cookie, origin: base, 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
      body: JSON.stringify({ is_active: false, reasons: ['other'] }),
    });
    expect(hide.status).toBe(200);
    // The build's file is still there (the rebuild has not finished), but it is stale now.
    expect(readFileSync(join(clientDir(), 'server', `${top.slug}.html`), 'utf8')).toContain(top.slug);
    const res = await fetch(`${base}/server/${top.slug}`);
    expect(res.status).toBe(404);
    await server.builder.idle();
    expect(server.builder.status().state).toBe('idle');
    expect((await fetch(`${base}/server/${top.slug}`)).status).toBe(404);
    // A whole rebuild happens inside this test: its time, not the 30 s of a request-sized test.
  }, 120_000);

  it('answers an on-demand page with a trailing slash 301 to its address without it', async () => {
    const tail = ranked.at(-3)!;
    const res = await fetch(`${base}/server/${tail.slug}/?ref=x`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(`/server/${tail.slug}?ref=x`);
    expect((await fetch(`${base}/server/${tail.slug}`)).status).toBe(200);
  });

  it('answers /_image with the image type of each image it is asked for, not as HTML', async () => {
    const png = await fetch(`${base}/_image?href=${encodeURIComponent('/icon-192.png')}&w=192&h=192&f=png`);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toMatch(/^image\/png/);
    const pngBytes = new Uint8Array(await png.arrayBuffer());
    expect([...pngBytes.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
    const jpeg = await fetch(`${base}/_image?href=${encodeURIComponent('/og-default.jpg')}&w=1200&h=630&f=jpeg`);
    expect(jpeg.status).toBe(200);
    expect(jpeg.headers.get('content-type')).toMatch(/^image\/jpeg/);
    expect([...new Uint8Array(await jpeg.arrayBuffer()).subarray(0, 2)]).toEqual([0xff, 0xd8]);
  });

  it('answers an uncached long-tail page 503 with Retry-After while the database is unreachable, never its not-found screen', async () => {
    // The same build's page code over a database reached by HTTP, as a Node server in front of Turso.
    const libsql = await startLibsqlHttpServer({ file: join(dir, 'site.db') });
    const remote = await openDb({ url: libsql.url });
    try {
      const pages = createOnDemandPages({
        entry: () => server.builder.serverEntry(),
        db: remote.db,
        supportEmail: 'support@localhost',
      });
      const app = new Hono().get(
        '*',
        async (c) => (await createStaticHandler(clientDir, { onDemand: (r) => pages.render(r) })(c)) ?? c.notFound(),
      );
      const tail = ranked.at(-4)!;
      libsql.setUnavailable(true);
      const down = await app.request(`http://127.0.0.1/server/${tail.slug}`);
      expect(down.status).toBe(503);
      expect(Number(down.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await down.text()).not.toContain('Server not found');
      libsql.setUnavailable(false);
      const back = await app.request(`http://127.0.0.1/server/${tail.slug}`);
      expect(back.status).toBe(200);
    } finally {
      remote.client.close();
      await libsql.stop();
    }
  });
});
