// The database taken away while the app runs: the Node app (createApp + @hono/node-server +
// the static handler over a small prebuilt folder) talks to libSQL over HTTP, like a
// Node server in front of Turso, and the HTTP endpoint is stopped and restarted under it.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb } from '../../db/client';
import { createApp } from '../../functions/_app/app';
import { loadEnv } from '../../functions/_app/env';
import { createStaticHandler } from '../../functions/_app/static';
import { startLibsqlHttpServer } from '../fixtures/libsql-http-server';
import { createTestDb } from '../helpers/db';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

async function appOverHttpDb() {
  const tdb = await createTestDb();
  cleanups.push(() => tdb.cleanup());
  const libsql = await startLibsqlHttpServer({ file: tdb.url.replace(/^file:/, '') });
  cleanups.push(() => libsql.stop());
  const site = join(tdb.dir, 'site');
  mkdirSync(site);
  writeFileSync(join(site, 'index.html'), '<!doctype html><title>GuildRank</title><h1>Home</h1>');
  const env = loadEnv({ DATABASE_URL: libsql.url, RATE_LIMITS: 'false' });
  const { db, client } = await openDb({ url: env.DATABASE_URL });
  cleanups.push(() => client.close());
  const app = createApp({ db, env, staticSite: createStaticHandler(() => site) });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((ok) => server.once('listening', () => ok()));
  cleanups.push(() => new Promise<void>((ok) => server.close(() => ok())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const subscribe = (email: string) =>
    fetch(`${base}/api/newsletter`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
  return { base, libsql, tdb, subscribe };
}

const emails = async (tdb: { client: import('@libsql/client').Client }) =>
  (await tdb.client.execute('SELECT email FROM newsletter_subscribers ORDER BY id')).rows.map((r) => r.email);

describe('the database taken away while the app runs', () => {
  it('answers writes 503 with Retry-After while the database is unreachable, and accepts them again once it is back', async () => {
    const { base, libsql, tdb, subscribe } = await appOverHttpDb();
    expect((await subscribe('before@example.com')).status).toBe(201);

    await libsql.stop();
    const down = await subscribe('during@example.com');
    expect(down.status).toBe(503);
    expect(Number(down.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await down.json()) as { error: { code: string } }).error.code).toBe('db_unavailable');
    const health = await fetch(`${base}/api/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ ok: false, db: 'down' });

    // Static pages keep serving.
    const home = await fetch(`${base}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('<h1>Home</h1>');

    // The listing falls back to the sample servers, and says so.
    const list = await fetch(`${base}/api/servers`);
    expect(list.status).toBe(200);
    expect(list.headers.get('x-data-source')).toBe('sample');
    expect(((await list.json()) as { servers: unknown[] }).servers.length).toBeGreaterThan(0);

    // Back on the same port: the same app, with no restart, writes again.
    await libsql.start();
    expect((await subscribe('after@example.com')).status).toBe(201);
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    expect(await emails(tdb)).toEqual(['before@example.com', 'after@example.com']);
  });

  it('answers writes 503 with Retry-After while the database endpoint itself answers 503', async () => {
    const { libsql, tdb, subscribe } = await appOverHttpDb();
    libsql.setUnavailable(true);
    const down = await subscribe('during@example.com');
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).not.toBeNull();
    libsql.setUnavailable(false);
    expect((await subscribe('after@example.com')).status).toBe(201);
    expect(await emails(tdb)).toEqual(['after@example.com']);
  });
});
