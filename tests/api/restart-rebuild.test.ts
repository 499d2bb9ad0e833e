import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../../db/client';
import { migrateDb } from '../../db/migrate';
import { createOperator } from '../../db/queries/operators';
import { listSiteChanges } from '../../db/queries/site-changes';
import { insertSubmission } from '../../db/queries/submissions';
import { siteChanges } from '../../db/schema';
import { seedIfEmpty } from '../../db/seed';

const SITE_URL = 'http://localhost:4321';
const EMAIL = 'restart-admin@example.com';
const PASSWORD = 'correct horse battery staple';
const NAME = 'Restart Proof Guild';
const SLUG = 'restart-proof-guild';

const dir = mkdtempSync(join(tmpdir(), 'guildrank-restart-'));
const dbUrl = `file:${join(dir, 'site.db')}`;
// Inside the project: Astro stages prerender chunks beside an output folder within the working directory.
const buildsDir = join(resolve('.'), '.tmp', `restart-${basename(dir)}`);
const running = new Set<ChildProcess>();

/** Kills a server and the `astro build` it spawned: the whole process group, at once (SIGKILL). */
function killGroup(child: ChildProcess): void {
  if (child.pid && child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGKILL');
}

afterAll(() => {
  for (const child of running) killGroup(child);
  rmSync(dir, { recursive: true, force: true });
  rmSync(buildsDir, { recursive: true, force: true });
});

/** Starts the server in its own process group; resolves with its port once it listens. */
async function startServer(): Promise<{ child: ChildProcess; port: number; output: () => string }> {
  const child = spawn(
    process.execPath,
    [resolve('node_modules/tsx/dist/cli.mjs'), 'tests/helpers/node-server-process.ts'],
    {
      cwd: resolve('.'),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        DATABASE_URL: dbUrl,
        PORT: '0',
        HOST: '127.0.0.1',
        SITE_URL,
        REFRESH_ENABLED: 'false',
        // The full build's durability: an incremental publish (a second or so here) is too short to
        // kill midway, and it records and clears the change the same way (SiteBuilder.#goLive).
        INCREMENTAL_PUBLISH: 'false',
        TEST_BUILDS_DIR: buildsDir,
        ASTRO_TELEMETRY_DISABLED: '1',
      },
    },
  );
  running.add(child);
  let out = '';
  child.stdout!.on('data', (b: Buffer) => {
    out += b.toString();
  });
  child.stderr!.on('data', (b: Buffer) => {
    out += b.toString();
  });
  const port = await new Promise<number>((ok, fail) => {
    const check = () => {
      const m = /Listening on http:\/\/localhost:(\d+)/.exec(out);
      if (m) {
        clearInterval(timer);
        ok(Number(m[1]));
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        fail(new Error(`server exited with ${child.exitCode}:\n${out}`));
      }
    };
    const timer = setInterval(check, 50);
  });
  return { child, port, output: () => out };
}

/** Waits until `cond` holds, checking every 100 ms, for at most `ms`. */
async function until(cond: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The live build's folder, as the `current` pointer names it. */
const liveBuild = () => join(buildsDir, readFileSync(join(buildsDir, 'current'), 'utf8').trim());
/** The new listing's prerendered page in the live build. */
const prerenderedPage = () => join(liveBuild(), 'client', 'server', `${SLUG}.html`);

describe('a change survives a restart', () => {
  it('approve, kill the server mid-rebuild, start it: the prerendered pages show the listing with no other action', async () => {
    const seeding = await openDb({ url: dbUrl });
    await migrateDb(seeding.db);
    await seedIfEmpty(seeding.db);
    await createOperator(seeding.db, { email: EMAIL, password: PASSWORD, role: 'admin' });
    const submission = await insertSubmission(seeding.db, {
      server_name: NAME,
      server_description: 'A guild approved just before its server was killed.',
      category: 'Gaming',
      invite_link: 'https://discord.gg/restartproof',
      server_image: 'https://cdn.example.com/restart.png',
      contact_email: 'owner@example.com',
      features: 'Survives restarts',
      member_count: 4321,
      active_users: 321,
      submitter_name: 'Ana',
      is_owner: true,
    });
    seeding.client.close();

    // First start: builds the site, then listens.
    const first = await startServer();
    const base = `http://127.0.0.1:${first.port}`;
    const login = await fetch(`${base}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: SITE_URL },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const { csrfToken } = (await login.json()) as { csrfToken: string };
    const headers = {
      origin: SITE_URL,
      cookie: (login.headers.get('set-cookie') ?? '').split(';')[0]!,
      'x-csrf-token': csrfToken,
      'content-type': 'application/json',
    };
    const builtBefore = liveBuild();
    expect(existsSync(prerenderedPage())).toBe(false);

    const approve = await fetch(`${base}/api/admin/submissions/${submission.id}/approve`, {
      method: 'POST',
      headers,
      body: '{}',
    });
    expect(approve.status).toBe(200);
    expect(((await approve.json()) as { server: { slug: string } }).server.slug).toBe(SLUG);

    // The rebuild has begun: kill the server (and its astro build) before it finishes.
    await until(
      async () => {
        const res = await fetch(`${base}/api/admin/build`, { headers });
        return ((await res.json()) as { state: string }).state === 'building';
      },
      60_000,
      'the rebuild to start',
    );
    killGroup(first.child);
    await until(() => first.child.exitCode !== null || first.child.signalCode !== null, 10_000, 'the server to die');
    expect(liveBuild()).toBe(builtBefore);
    expect(existsSync(prerenderedPage())).toBe(false);
    // What the killed server left in the database: the approval (its page, and the pages of the
    // listings whose place it moved), not yet built.
    const left = await openDb({ url: dbUrl });
    const pending = await listSiteChanges(left.db);
    expect(new Set(pending.map((c) => c.reason))).toEqual(new Set([`approved ${SLUG}`]));
    expect(pending.map((c) => c.page)).toContain(`/server/${SLUG}`);
    left.client.close();

    // Second start, and nothing else: the change recorded in the database is built.
    const second = await startServer();
    await until(
      () => liveBuild() !== builtBefore && existsSync(prerenderedPage()),
      300_000,
      'the rebuild at start',
    ).catch((err: Error) => {
      throw new Error(`${err.message}; the server said:\n${second.output()}`);
    });
    expect(readFileSync(prerenderedPage(), 'utf8')).toContain(NAME);
    expect(readFileSync(join(liveBuild(), 'client', 'best-gaming-discord.html'), 'utf8')).toContain(NAME);
    expect(second.output()).toContain(`Rebuilding for ${pending.length} change(s) made before the restart`);

    // The built change is no longer pending.
    const check = await openDb({ url: dbUrl });
    await until(async () => (await check.db.select().from(siteChanges)).length === 0, 10_000, 'the record to clear');
    check.client.close();
    killGroup(second.child);
  }, 600_000);
});
