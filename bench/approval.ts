import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openDb } from '../db/client';
import { insertFakeServers } from '../db/fake';
import { migrateDb } from '../db/migrate';
import { countRows } from '../db/queries/maintenance';
import { createOperator } from '../db/queries/operators';
import { insertSubmission } from '../db/queries/submissions';
import { seedIfEmpty } from '../db/seed';
import type { RebuildTrigger } from '../functions/_app/context';
import { loadEnv } from '../functions/_app/env';
import { startNodeServer } from '../functions/_app/node';
import { benchSubmission, seconds } from './lib/measure';
import type { BenchModule } from './types';

const PASSWORD = 'bench operator password';

/** Signs in over HTTP and returns a function that POSTs as that operator. */
async function signIn(base: string, email: string) {
  const res = await fetch(`${base}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status}`);
  const { csrfToken } = (await res.json()) as { csrfToken: string };
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  return (path: string) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { cookie, origin: base, 'x-csrf-token': csrfToken } });
}

/** Polls a URL until it answers 200; returns the milliseconds since `start`. Fails fast when the build failed. */
async function waitLive(url: string, start: number, builder: RebuildTrigger, timeoutMs = 300_000): Promise<number> {
  for (;;) {
    const res = await fetch(url);
    await res.arrayBuffer();
    if (res.status === 200) return performance.now() - start;
    const status = builder.status();
    if (status.state === 'failed') throw new Error(`The rebuild failed: ${status.lastError}`);
    if (performance.now() - start > timeoutMs) throw new Error(`${url} not live after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Approval-to-live: POST /api/admin/submissions/:id/approve on the real Node server
 * (`npm start`'s code path) until the new /server/{slug} page is served, at the seed size
 * and with 10,000 extra servers; then a burst of five approvals, which must coalesce.
 */
export const bench: BenchModule = async (ctx) => {
  mkdirSync(ctx.tmp, { recursive: true });
  const sizes = ctx.quick ? [0, 1_000] : [0, 10_000];
  const rows: (string | number)[][] = [
    [
      'servers',
      'first build s',
      'approve answer ms',
      'approval to live s',
      'rebuild s',
      'burst of 5: builds',
      'burst of 5: all live s',
    ],
  ];
  const notes: string[] = [];
  for (const extra of sizes) {
    const url = `file:${join(ctx.tmp, `approval-${extra}.db`)}`;
    const { db, client } = await openDb({ url });
    await migrateDb(db);
    await seedIfEmpty(db);
    if (extra) await insertFakeServers(client, extra);
    await createOperator(db, { email: 'bench@example.com', password: PASSWORD, role: 'admin' });
    const total = await countRows(client, 'discord_servers');
    client.close();

    let builds = 0;
    const buildsDir = join(ctx.root, '.tmp', `bench-approval-${extra}-${process.pid}`);
    const env = loadEnv({
      DATABASE_URL: url,
      PORT: '0',
      HOST: '127.0.0.1',
      RATE_LIMITS: 'false',
      REFRESH_ENABLED: 'false',
    });
    ctx.log(`starting the server with ${total} servers (first build)…`);
    const bootStart = performance.now();
    const server = await startNodeServer({
      env,
      root: ctx.root,
      // Inside the project: Astro stages prerender chunks under the output folder only when
      // it lies within the working directory (else in a shared ./.astro/ other builds also use).
      buildsDir,
      log: (line) => {
        if (line.startsWith('Site rebuilt')) builds++;
      },
    });
    const firstBuildMs = performance.now() - bootStart;
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const post = await signIn(base, 'bench@example.com');

      const one = await insertSubmission(server.db, benchSubmission(`Approval Bench ${extra}`));
      const start = performance.now();
      const res = await post(`/api/admin/submissions/${one.id}/approve`);
      const answerMs = performance.now() - start;
      const { server: created } = (await res.json()) as { server: { slug: string } };
      const liveMs = await waitLive(`${base}/server/${created.slug}`, start, server.builder);
      await server.builder.idle();
      const rebuildMs = server.builder.status().lastDurationMs ?? 0;
      ctx.log(`${total} servers: approval to live ${seconds(liveMs)} s`);

      const burst = await Promise.all(
        [1, 2, 3, 4, 5].map((i) => insertSubmission(server.db, benchSubmission(`Burst Bench ${extra} ${i}`))),
      );
      const before = builds;
      const burstStart = performance.now();
      const slugs: string[] = [];
      for (const s of burst) {
        const r = await post(`/api/admin/submissions/${s.id}/approve`);
        slugs.push(((await r.json()) as { server: { slug: string } }).server.slug);
      }
      const burstMs = Math.max(
        ...(await Promise.all(slugs.map((slug) => waitLive(`${base}/server/${slug}`, burstStart, server.builder)))),
      );
      await server.builder.idle();
      rows.push([
        total.toLocaleString('en-US'),
        seconds(firstBuildMs),
        Math.round(answerMs),
        seconds(liveMs),
        seconds(rebuildMs),
        builds - before,
        seconds(burstMs),
      ]);
      if (extra >= 10_000) {
        notes.push(
          `Approval to live at ${total.toLocaleString('en-US')} servers: ${seconds(liveMs)} s (goal: under 10 s): ${liveMs < 10_000 ? 'met' : 'missed'}.`,
        );
      }
    } finally {
      await server.close();
      rmSync(buildsDir, { recursive: true, force: true });
    }
  }
  notes.push(
    'The approval answers at once; the page goes live when the background build (fresh folder, atomic swap) finishes. Builds requested within the debounce window or during a build are merged.',
  );
  return [
    {
      title: 'Approval to live',
      description:
        'An operator approves a pending submission through `POST /api/admin/submissions/:id/approve` on the Node server `npm start` runs; the clock stops when the new `/server/{slug}` page answers 200 (polled every 50 ms). Then five approvals are sent back to back and the builds they caused are counted.',
      rows,
      notes,
    },
  ];
};
