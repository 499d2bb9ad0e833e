import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import {
  clearSiteChangesThrough,
  listSiteChanges,
  recordSiteChange,
  siteChangeInserts,
} from '../../db/queries/site-changes';
import { siteContent } from '../../db/schema';
import { HOOK_RETRY_AFTER_MS, HookRebuildTrigger } from '../../functions/_app/lib/rebuild-hook';
import { SiteBuilder } from '../../functions/_app/site-builder';
import { createTestDb, type TestDb } from '../helpers/db';

let t: TestDb | undefined;
const dirs: string[] = [];
afterEach(() => {
  t?.cleanup();
  t = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A deploy hook that answers each call with the next status of `statuses` (the last one after that). */
function hookAnswering(...statuses: number[]) {
  const calls: string[] = [];
  const fetchImpl = (async (_url: string | URL | Request, init?: RequestInit) => {
    calls.push(JSON.parse(String(init?.body)).reason);
    const status = statuses[Math.min(calls.length - 1, statuses.length - 1)]!;
    return new Response(null, { status });
  }) as typeof fetch;
  return { calls, fetchImpl };
}

/** A builds folder holding one live build that began at `startedAt` (ms). */
/** The production trigger over `db`, calling `hook` on a clock the test steps (no debounce firing by itself). */
function hookTrigger(hook: ReturnType<typeof hookAnswering>, db: TestDb['db'], now: () => number) {
  return new HookRebuildTrigger({
    url: 'https://hooks.example/deploy',
    fetch: hook.fetchImpl,
    db,
    now,
    debounceMs: 60_000,
  });
}

function buildsWithLive(startedAt: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'guildrank-builds-'));
  dirs.push(dir);
  const name = `build-${startedAt}`;
  mkdirSync(join(dir, name, 'client'), { recursive: true });
  mkdirSync(join(dir, name, 'server'));
  writeFileSync(join(dir, name, 'client', 'index.html'), '<h1>Live</h1>');
  writeFileSync(join(dir, name, 'server', 'entry.mjs'), 'export {};');
  writeFileSync(join(dir, 'current'), name);
  return dir;
}

describe('the record of what changed since the live build', () => {
  it('a change whose deploy-hook call failed is recorded and called again by retryFailed, then kept for the deploy job', async () => {
    t = await createTestDb();
    let now = 1_000_000;
    const hook = hookAnswering(502, 200);
    const trigger = hookTrigger(hook, t.db, () => now);
    await trigger.request('approved a', ['/server/a']);
    await trigger.flush();
    expect(trigger.status().state).toBe('failed');
    expect(await listSiteChanges(t.db)).toMatchObject([
      { reason: 'approved a', page: '/server/a', requestedAt: 1_000_000 },
    ]);

    // Too soon: an isolate may still be about to call; nothing is sent.
    now += HOOK_RETRY_AFTER_MS - 1;
    expect(await trigger.retryFailed()).toBe(0);
    expect(hook.calls).toEqual(['approved a']);

    now += 1;
    expect(await trigger.retryFailed()).toBe(1);
    expect(hook.calls).toEqual(['approved a', 'retry: approved a']);
    expect(trigger.status().state).toBe('idle');
    // The row stays for the deploy job to read (it clears what it deployed); no call is made again for it.
    expect((await listSiteChanges(t.db)).map((c) => c.page)).toEqual(['/server/a']);
    expect(await trigger.retryFailed(now + 10 * HOOK_RETRY_AFTER_MS)).toBe(0);
    expect(hook.calls).toHaveLength(2);
  });

  it('a successful call keeps the rows it covered until the deploy job clears them, and retries only what no call covered', async () => {
    t = await createTestDb();
    let now = 1_000_000;
    // The first call succeeds, the second fails, the third succeeds.
    const hook = hookAnswering(200, 500, 200);
    const trigger = hookTrigger(hook, t.db, () => now);
    await trigger.request('edited a', ['/server/a'], 'listings');
    await trigger.flush();
    now += 1_000;
    await trigger.request('edited b', ['/server/b'], 'listings');
    await trigger.flush();
    expect(trigger.status().state).toBe('failed');
    // Both rows are there for the job, with their scope: the first call covered a, nothing covered b.
    expect((await listSiteChanges(t.db)).map((c) => [c.page, c.scope])).toEqual([
      ['/server/a', 'listings'],
      ['/server/b', 'listings'],
    ]);
    now += HOOK_RETRY_AFTER_MS;
    expect(await trigger.retryFailed()).toBe(1);
    expect(hook.calls).toEqual(['edited a', 'edited b', 'retry: edited b']);
    expect(await trigger.retryFailed(now + HOOK_RETRY_AFTER_MS)).toBe(0);
    // The job deployed the first row only (it read the database before b): b stays, a is gone.
    const [a] = await listSiteChanges(t.db);
    await clearSiteChangesThrough(t.db, a!.id);
    expect((await listSiteChanges(t.db)).map((c) => c.page)).toEqual(['/server/b']);
    // A change named without pages may touch anything: recorded as a site change.
    await trigger.request('texts', [], 'listings');
    expect((await listSiteChanges(t.db)).map((c) => c.scope)).toEqual(['listings', 'site']);
  });

  it('a request made while the hook is being called keeps the status queued after that call, then gets its own call', async () => {
    t = await createTestDb();
    const calls: string[] = [];
    let answer: () => void = () => {};
    const states: string[] = [];
    const trigger: HookRebuildTrigger = new HookRebuildTrigger({
      url: 'https://hooks.example/deploy',
      fetch: (async (_url: string | URL | Request, init?: RequestInit) => {
        calls.push(JSON.parse(String(init?.body)).reason);
        if (calls.length === 1) await new Promise<void>((resolve) => (answer = resolve));
        return new Response(null, { status: 200 });
      }) as typeof fetch,
      db: t.db,
      debounceMs: 60_000,
      log: (line) => states.push(`${line}: ${trigger.status().state}`),
    });
    await trigger.request('edited a', ['/server/a'], 'listings');
    const first = trigger.flush();
    await expect.poll(() => calls.length, { interval: 1 }).toBe(1);
    await trigger.request('edited b', ['/server/b'], 'listings');
    answer();
    await first;
    expect(trigger.status().state).toBe('queued');
    // b waits for its own quiet period (here: the flush).
    await trigger.flush();
    // The first call is answered with b still to send: queued, not idle.
    expect(states).toEqual(['Deploy hook called (edited a): queued', 'Deploy hook called (edited b): idle']);
    expect(calls).toEqual(['edited a', 'edited b']);
  });

  it('a successful call leaves what was recorded before it for the deploy job, and what came after uncovered', async () => {
    t = await createTestDb();
    let now = 5_000;
    const hook = hookAnswering(200);
    const trigger = new HookRebuildTrigger({
      url: 'https://hooks.example/deploy',
      fetch: hook.fetchImpl,
      db: t.db,
      now: () => now,
    });
    await trigger.request('edited b');
    await trigger.flush();
    now += 1;
    await recordSiteChange(t.db, { reason: 'later', at: now });
    expect((await listSiteChanges(t.db)).map((c) => c.reason)).toEqual(['edited b', 'later']);
    now += HOOK_RETRY_AFTER_MS;
    expect(await trigger.retryFailed()).toBe(1);
    expect(hook.calls).toEqual(['edited b', 'retry: later']);
  });

  it('a Node start finds the changes its live build lacks: their pages are stale and a build is queued', async () => {
    t = await createTestDb();
    const dir = buildsWithLive(2_000);
    await recordSiteChange(t.db, { reason: 'built already', pages: ['/server/old'], at: 1_999 });
    await recordSiteChange(t.db, { reason: 'approved new', pages: ['/server/new'], at: 2_500 });
    const lines: string[] = [];
    // A long quiet period: the queued build is observed, never run (this folder has no project to build).
    const builder = new SiteBuilder({
      root: dir,
      buildsDir: dir,
      env: {},
      db: t.db,
      debounceMs: 3_600_000,
      log: (l) => lines.push(l),
    });
    await builder.init();
    expect(builder.liveBuildStartedAt()).toBe(2_000);
    expect(builder.stale('/server/new')).toBe(true);
    expect(builder.stale('/server/old')).toBe(false);
    expect(builder.status()).toMatchObject({ state: 'queued', lastReason: null });
    expect(lines).toEqual(['Rebuilding for 1 change(s) made before the restart']);
  });

  it('records a change naming tens of thousands of pages (an approval at a million listings), every one', async () => {
    t = await createTestDb();
    const pages = Array.from({ length: 30_000 }, (_, i) => `/server/moved-${i}`);
    await recordSiteChange(t.db, { reason: 'approved big-one', pages, at: 1_000 });
    const recorded = await listSiteChanges(t.db);
    expect(recorded).toHaveLength(30_000);
    expect(new Set(recorded.map((c) => c.page))).toEqual(new Set(pages));
  });

  it('a Node start with nothing pending queues no build', async () => {
    t = await createTestDb();
    const dir = buildsWithLive(2_000);
    await recordSiteChange(t.db, { reason: 'built already', at: 1_000 });
    const builder = new SiteBuilder({ root: dir, buildsDir: dir, env: {}, db: t.db, debounceMs: 3_600_000 });
    await builder.init();
    expect(builder.status().state).toBe('idle');
  });
});

describe("a change's record in the batch of its write (siteChangeInserts with a condition)", () => {
  it('is written in full (over several INSERTs) when the write before it changed a row, and not at all when it changed none', async () => {
    t = await createTestDb();
    const db = t.db;
    const pages = Array.from({ length: 2_500 }, (_, i) => `/server/s${i}`);
    const [row] = await db
      .insert(siteContent)
      .values({ page: 'home', section: 'hero', content_key: 'title', content_value: 'Hi', is_active: true })
      .returning();
    const touch = (id: number) => db.run(sql`UPDATE site_content SET content_value = 'Changed' WHERE id = ${id}`);
    const record = (reason: string) =>
      siteChangeInserts(db, { reason, pages, at: 1, scope: 'listings' }, sql`changes() > 0`);

    // Each later INSERT reads changes() of the one before it: every chunk follows the write.
    expect(record('changed')).toHaveLength(3);
    await db.batch([touch(row!.id), ...record('changed')]);
    // An UPDATE that matched no row: nothing recorded.
    await db.batch([touch(row!.id + 1), ...record('nothing')]);
    const rows = await listSiteChanges(db);
    expect(rows).toHaveLength(2_500);
    expect(new Set(rows.map((r) => r.reason))).toEqual(new Set(['changed']));
    expect(new Set(rows.map((r) => r.page))).toEqual(new Set(pages));
    expect(new Set(rows.map((r) => r.scope))).toEqual(new Set(['listings']));
  });
});
