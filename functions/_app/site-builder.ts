import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { clearSiteChanges, listSiteChanges, recordSiteChange, siteChangeInserts } from '../../db/queries/site-changes';
import type { ChangeScope, PreparedChange, RebuildStatus, RebuildTrigger } from './context';
import { toolEnv } from './env';
import { BASE_CONTENT_SECURITY_POLICY, CSP_POLICY_FILE } from './lib/security-headers';
import { type PublishRender, publishChanges, SERVER_FOLDER } from './site-publish';

export interface SiteBuilderOptions {
  /** Project root (where astro.config.mjs is). */
  root: string;
  /** Folder holding the builds and the `current` pointer. */
  buildsDir: string;
  /** Environment for the build process (DATABASE_URL, SITE_URL...). */
  env: NodeJS.ProcessEnv;
  /** Quiet period that merges a burst of requests into one build. */
  debounceMs?: number;
  /** Builds kept besides the live one, for visitors still loading the previous site. */
  keep?: number;
  log?: (line: string) => void;
  /**
   * Where the record of what changed since the live build is kept (site_changes): with it, a change
   * made before a restart is built at start, and `stale` survives the restart.
   */
  db?: Db | undefined;
  /**
   * Renders pages of a build from the database (on-demand.ts's publishRenderer): with it, changes
   * that touch only a few listings are published without a build (site-publish.ts). Without it,
   * every change is a full build.
   */
  renderer?: ((serverEntry: string) => PublishRender) | undefined;
}

/** A change waiting for its publish: the pages it names, or null when it may touch anything (a full build). */
interface PendingChange {
  reason: string;
  pages: readonly string[] | null;
}

/**
 * The most server pages (files) one incremental publish renders, about 25 ms each at a million
 * listings: an approval names every listing whose place in its category it moved, and past a few
 * hundred files a full build is the cheaper way (site-publish.ts's PublishTooLarge).
 */
export const PUBLISH_MAX_SERVER_FILES = 200;
/** The most pages a change may name and still be published incrementally (most of them are not files). */
export const PUBLISH_MAX_NAMED = 20_000;

/** A build's folder: `build-<ms since the epoch when it started reading the database>`. */
const BUILD_NAME = /^build-(\d+)$/;

/**
 * Rebuilds the static site in the background and swaps it in atomically: each build goes
 * to a fresh folder, and only a successful one becomes live (the in-memory pointer and the
 * `current` file change together). A failed build leaves the live site as it was.
 */
export class SiteBuilder implements RebuildTrigger {
  #live: string | null = null;
  /** When the live build started (ms since the epoch): it holds every change made before. */
  #liveStartedAt = 0;
  /** The pages changed since the live build began, by when (a mirror of site_changes' rows with a page). */
  #changedAt = new Map<string, number>();
  #state: RebuildStatus = { state: 'idle', liveSince: null, lastDurationMs: null, lastError: null, lastReason: null };
  #timer: ReturnType<typeof setTimeout> | null = null;
  #running: Promise<void> | null = null;
  #pending: PendingChange[] = [];
  #waiters: (() => void)[] = [];
  /** Stops a running `astro build` when the server closes. */
  #stop = new AbortController();

  constructor(private readonly options: SiteBuilderOptions) {
    // A build's server code imports its packages (react, the drivers) by name, which Node finds in
    // the node_modules of a folder above it: outside the project the build fails on its first page.
    const inside = relative(resolve(options.root), resolve(options.buildsDir));
    if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
      throw new Error(
        `The builds folder ${options.buildsDir} is outside the project ${options.root}: a build's server code finds its packages in the project's node_modules, so builds go in a folder inside it`,
      );
    }
  }

  #policy: { dir: string | null; value: string } = { dir: null, value: BASE_CONTENT_SECURITY_POLICY };

  /** The live build's Content-Security-Policy (Astro's, written by the build), read once per build. */
  contentSecurityPolicy(): string {
    if (this.#policy.dir !== this.#live) {
      let value = BASE_CONTENT_SECURITY_POLICY;
      try {
        const client = this.liveDir();
        if (client) value = readFileSync(join(client, CSP_POLICY_FILE), 'utf8').trim();
      } catch {
        value = BASE_CONTENT_SECURITY_POLICY;
      }
      this.#policy = { dir: this.#live, value };
    }
    return this.#policy.value;
  }

  /** The folder of static files being served (the build's `client/`), or null before the first build. */
  liveDir(): string | null {
    return this.#live && join(this.#live, 'client');
  }

  /**
   * The live build's server entry (`server/entry.mjs`): the page code that renders the pages the
   * build did not prerender (functions/_app/on-demand.ts, #18). Null before the first build.
   */
  serverEntry(): string | null {
    return this.#live && join(this.#live, 'server', 'entry.mjs');
  }

  /** When the live build started reading the database (ms since the epoch); 0 before the first build. */
  liveBuildStartedAt(): number {
    return this.#liveStartedAt;
  }

  status(): RebuildStatus {
    return { ...this.#state };
  }

  /** Picks up the build a previous run left live, and clears what a build killed midway left behind. */
  async init(): Promise<void> {
    await mkdir(this.options.buildsDir, { recursive: true });
    // A build's folder and the pointer are written as `*.tmp` and renamed when complete; one
    // still named so at start-up is from a process that died mid-build, and nothing reads it.
    const leftovers = (await readdir(this.options.buildsDir)).filter((n) => n.endsWith('.tmp'));
    await Promise.all(leftovers.map((n) => rm(join(this.options.buildsDir, n), { recursive: true, force: true })));
    try {
      const name = (await readFile(join(this.options.buildsDir, 'current'), 'utf8')).trim();
      const dir = join(this.options.buildsDir, name);
      if (name && existsSync(join(dir, 'client', 'index.html')) && existsSync(join(dir, 'server', 'entry.mjs'))) {
        this.#live = dir;
        this.#liveStartedAt = Number(BUILD_NAME.exec(name)?.[1] ?? 0);
        this.#state.liveSince = new Date().toISOString();
      }
    } catch {
      // no live build yet
    }
    await this.#resumeChanges();
  }

  /**
   * The changes a previous run recorded that the live build does not hold (a restart before their
   * rebuild finished): their pages are stale, and a build starts now. Without a live build the
   * first build holds them anyway.
   */
  async #resumeChanges(): Promise<void> {
    if (!this.options.db) return;
    const changes = await listSiteChanges(this.options.db, this.#liveStartedAt);
    for (const change of changes) if (change.page) this.#changedAt.set(change.page, change.requestedAt);
    if (changes.length === 0 || !this.#live) return;
    const reasons = [...new Set(changes.map((c) => c.reason))];
    this.options.log?.(`Rebuilding for ${changes.length} change(s) made before the restart`);
    this.request(`before the restart: ${reasons.join(', ')}`);
  }

  /**
   * Records a change in the database (site_changes), marks its pages stale and asks for a build:
   * resolved once the record is written, so a change answered to its author survives a restart.
   */
  async record(reason: string, pages: readonly string[] = [], scope: ChangeScope = 'site'): Promise<void> {
    const at = Date.now();
    if (this.options.db) await recordSiteChange(this.options.db, { reason, pages, at, scope });
    this.#recorded(reason, pages, scope, at);
  }

  /** `record` for the caller's batch (RebuildTrigger.prepare): the rows, then the stale pages and the build once stored. */
  prepareRecord(
    db: Db,
    reason: string,
    pages: readonly string[],
    scope: ChangeScope = 'site',
    when?: SQL,
  ): PreparedChange {
    const at = Date.now();
    return {
      statements: this.options.db ? siteChangeInserts(db, { reason, pages, at, scope }, when) : [],
      requested: () => this.#recorded(reason, pages, scope, at),
    };
  }

  #recorded(reason: string, pages: readonly string[], scope: ChangeScope, at: number): void {
    for (const page of pages) this.#changedAt.set(page, at);
    this.#enqueue({ reason, pages: scope === 'listings' && pages.length > 0 ? pages : null });
  }

  /**
   * Whether the live build's file of `path` predates a change to it: such a page is rendered on
   * request until a build that began after the change is live.
   */
  stale(path: string): boolean {
    const at = this.#changedAt.get(path);
    if (at === undefined) return false;
    if (at < this.#liveStartedAt) {
      this.#changedAt.delete(path);
      return false;
    }
    return true;
  }

  /**
   * Stops building: nothing queued starts, and a running build is killed (its `.tmp` folder
   * removed, the live build untouched). Resolves once the build process has exited.
   */
  async close(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#pending = [];
    this.#stop.abort();
    await this.#running;
  }

  /** Asks for a full build (coalesced with anything queued). */
  request(reason: string): void {
    this.#enqueue({ reason, pages: null });
  }

  #enqueue(change: PendingChange): void {
    if (this.#stop.signal.aborted) return;
    this.#pending.push(change);
    if (this.#state.state !== 'building') this.#state.state = 'queued';
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#drain();
    }, this.options.debounceMs ?? 300);
  }

  /** Whether a change waits for the next build (queued, or in the quiet period before it). */
  #hasPending(): boolean {
    return this.#pending.length > 0 || this.#timer !== null;
  }

  /** Resolves once no build is queued or running (tests, start-up). */
  idle(): Promise<void> {
    if (!this.#timer && !this.#running && this.#pending.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Builds now (coalesced with anything queued) and waits for the result. */
  async buildNow(reason: string): Promise<void> {
    this.request(reason);
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = null;
      void this.#drain();
    }
    await this.idle();
    if (this.#state.state === 'failed') throw new Error(this.#state.lastError ?? 'Build failed');
  }

  async #drain(): Promise<void> {
    if (this.#running) return; // the running loop picks up what is pending
    this.#running = (async () => {
      while (this.#pending.length > 0) {
        const changes = this.#pending.splice(0);
        const reason = changes.map((c) => c.reason).join(', ');
        const pages = new Set<string>();
        for (const c of changes) for (const p of c.pages ?? []) pages.add(p);
        const incremental =
          this.options.renderer && this.#live && changes.every((c) => c.pages) && pages.size <= PUBLISH_MAX_NAMED;
        if (incremental && (await this.#publishOnce(reason, [...pages]))) continue;
        await this.#buildOnce(reason);
      }
    })();
    await this.#running;
    this.#running = null;
    if (this.#timer) return;
    for (const resolve of this.#waiters.splice(0)) resolve();
  }

  /**
   * Publishes changes that touch a few listings without a build (site-publish.ts): the live build
   * hard-linked into a fresh folder, the touched pages rendered from the database and written,
   * then swapped in as a build is. False when it failed (the caller builds in full instead).
   */
  async #publishOnce(reason: string, pages: string[]): Promise<boolean> {
    const live = this.#live;
    const entry = this.serverEntry();
    if (!live || !entry || !this.options.renderer || !this.options.db) return false;
    const started = performance.now();
    const startedAt = Date.now();
    this.#state = { ...this.#state, state: 'building', lastReason: reason };
    const name = `build-${startedAt}`;
    const tmp = join(this.options.buildsDir, `${name}.tmp`);
    // The live build's prerender settings: its builds are given this environment.
    const settings = toolEnv(this.options.env);
    try {
      const result = await publishChanges({
        live,
        out: tmp,
        db: this.options.db,
        pages,
        render: this.options.renderer(entry),
        listingPages: settings.PRERENDER_LISTING_PAGES,
        serverPages: settings.PRERENDER_SERVERS,
        maxServerPages: PUBLISH_MAX_SERVER_FILES,
      });
      this.lastPublish = result;
      await this.#goLive(tmp, name, startedAt, started, reason);
      this.options.log?.(
        `Published ${result.written.length} page(s) of ${result.rendered.length} rendered, ${result.removed.length} removed, in ${(this.#state.lastDurationMs! / 1000).toFixed(1)} s (${reason})`,
      );
      return true;
    } catch (err) {
      await rm(tmp, { recursive: true, force: true });
      this.options.log?.(`Incremental publish failed, building in full: ${err instanceof Error ? err.message : err}`);
      return false;
    }
  }

  /** What the last incremental publish rendered, wrote and removed (tests, the bench); null before one. */
  lastPublish: import('./site-publish').PublishResult | null = null;

  /** Swaps a finished build folder in: the pointer file first (for the next start), then the in-memory root. */
  async #goLive(tmp: string, name: string, startedAt: number, started: number, reason: string): Promise<void> {
    const dir = join(this.options.buildsDir, name);
    await rename(tmp, dir);
    await writeFile(join(this.options.buildsDir, 'current.tmp'), name);
    await rename(join(this.options.buildsDir, 'current.tmp'), join(this.options.buildsDir, 'current'));
    this.#live = dir;
    this.#liveStartedAt = startedAt;
    // What this build holds is no longer pending (a crash before this line only builds it again).
    if (this.options.db) {
      await clearSiteChanges(this.options.db, startedAt).catch((err: unknown) =>
        this.options.log?.(`Could not clear the built changes: ${String(err)}`),
      );
    }
    this.#state = {
      // A change recorded while this build ran is still to do: not idle until it is live too.
      state: this.#hasPending() ? 'queued' : 'idle',
      liveSince: new Date().toISOString(),
      lastDurationMs: Math.round(performance.now() - started),
      lastError: null,
      lastReason: reason,
    };
    await this.#prune();
  }

  async #buildOnce(reason: string): Promise<void> {
    const started = performance.now();
    const startedAt = Date.now();
    this.#state = { ...this.#state, state: 'building', lastReason: reason };
    const name = `build-${startedAt}`;
    const tmp = join(this.options.buildsDir, `${name}.tmp`);
    try {
      await this.#runAstro(tmp);
      await this.#goLive(tmp, name, startedAt, started, reason);
      this.options.log?.(`Site rebuilt in ${(this.#state.lastDurationMs! / 1000).toFixed(1)} s (${reason})`);
    } catch (err) {
      await rm(tmp, { recursive: true, force: true });
      this.#state = {
        ...this.#state,
        state: 'failed',
        lastDurationMs: Math.round(performance.now() - started),
        lastError: err instanceof Error ? err.message : String(err),
      };
      this.options.log?.(`Site build failed: ${this.#state.lastError}`);
    }
  }

  #runAstro(outDir: string): Promise<void> {
    return runAstroBuild(
      this.options.root,
      outDir,
      {
        ASTRO_CACHE_DIR: join(this.options.buildsDir, '.astro-cache'),
        // Builds here follow each other with the cache kept: re-render only what changed.
        ASTRO_INCREMENTAL: '1',
        ...this.options.env,
        ASTRO_TELEMETRY_DISABLED: '1',
      },
      this.#stop.signal,
    );
  }

  async #prune(): Promise<void> {
    const keep = this.options.keep ?? 1;
    const builds = (await readdir(this.options.buildsDir)).filter((n) => BUILD_NAME.test(n)).sort();
    const live = this.#live ? this.#live.split(/[\\/]/).pop() : null;
    const old = builds.filter((n) => n !== live).slice(0, -keep || undefined);
    // A build whose server code a kept build (a publish made from it) links to stays.
    const linked = new Set<string>();
    for (const n of builds.filter((b) => !old.includes(b))) {
      const target = await realpath(join(this.options.buildsDir, n, SERVER_FOLDER)).catch(() => null);
      if (target) linked.add(basename(dirname(target)));
    }
    await Promise.all(
      old
        .filter((n) => !linked.has(n))
        .map((n) => rm(join(this.options.buildsDir, n), { recursive: true, force: true })),
    );
  }
}

/**
 * `astro build` of the project at `root` into `outDir`, with exactly `env`; rejects with the
 * last lines of its output when it fails, or when `signal` stops it (the process is killed).
 */
export function runAstroBuild(
  root: string,
  outDir: string,
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const astro = join(root, 'node_modules', 'astro', 'bin', 'astro.mjs');
    const child = spawn(process.execPath, [astro, 'build', '--outDir', outDir], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(signal && { signal }),
    });
    let tail = '';
    const keep = (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    // A stopped build (`signal`) answers once its process has exited, not when the kill is sent.
    let failure: Error | null = null;
    child.on('error', (err) => {
      failure = err;
      if (child.pid === undefined) reject(err);
    });
    child.on('close', (code) => {
      if (code === 0 && !failure) resolve();
      else
        reject(
          failure ??
            new Error(`astro build exited with ${code}: ${tail.split('\n').filter(Boolean).slice(-8).join('\n')}`),
        );
    });
  });
}
