import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { getServerBySlug, listServersWithPages, type Server, updateServer } from '../../db/queries/servers';
import { rawProcessEnv } from '../../functions/_app/env';
import { createOnDemandPages } from '../../functions/_app/on-demand';
import { runAstroBuild, SiteBuilder } from '../../functions/_app/site-builder';
import { isListed } from '../../src/lib/listing';
import { openSeededDb } from '../helpers/db';

// Issue 35: a change to a few listings is published without a build. The live build is
// hard-linked into a fresh folder and only the pages the change can touch are rendered from the
// database by the build's own components (functions/_app/site-publish.ts). Pinned against a real
// build: what the publish writes is exactly what a full build from the same database changes, and
// every other file is the live build's own file. Builds are slow: one site, two full builds.

const SERVERS = 800;
const LISTING_PAGES = 3;
const SERVER_PAGES = 60;
const SITE = 'http://localhost:4321';
const SUPPORT = 'support@example.com';

let dir: string;
let buildsDir: string;
let db: Db;
let close: () => void;
let builder: SiteBuilder;
let env: NodeJS.ProcessEnv;
/** What the builder logged, with the state it reported at that moment. */
const logged: { message: string; state: string }[] = [];

/** Every file of a folder, relative to it. */
function filesOf(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .sort();
}

/** The public path of a page file of `client/` (index.html is `/`). */
const pathOf = (file: string) => (file === 'index.html' ? '/' : `/${file.slice(0, -'.html'.length)}`);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'guildrank-publish-'));
  const url = `file:${join(dir, 'site.db')}`;
  const opened = await openSeededDb(url, SERVERS);
  db = opened.db;
  close = () => opened.client.close();
  // Inside the project: Astro stages prerender chunks beside an output folder within the working directory.
  buildsDir = join(process.cwd(), '.tmp', `publish-${basename(dir)}`);
  env = rawProcessEnv({
    DATABASE_URL: url,
    SITE_URL: SITE,
    SUPPORT_EMAIL: SUPPORT,
    PRERENDER_LISTING_PAGES: String(LISTING_PAGES),
    PRERENDER_SERVERS: String(SERVER_PAGES),
    ASTRO_TELEMETRY_DISABLED: '1',
  });
  const pages = createOnDemandPages({ entry: () => builder.serverEntry(), db, supportEmail: SUPPORT });
  builder = new SiteBuilder({
    root: process.cwd(),
    buildsDir,
    env,
    db,
    debounceMs: 0,
    log: (message) => logged.push({ message, state: builder.status().state }),
    renderer: (entry) => pages.publishRenderer(entry),
  });
  await builder.init();
  await builder.buildNow('first build');
}, 600_000);

afterAll(() => {
  close?.();
  rmSync(dir, { recursive: true, force: true });
  if (buildsDir) rmSync(buildsDir, { recursive: true, force: true });
});

/** A listed server whose page is a file of the live build and that sits in a subcategory. */
async function prerenderedListing(): Promise<Server> {
  const client = builder.liveDir()!;
  const servers = (await listServersWithPages(db)).filter(isListed);
  const found = servers.find(
    (s) =>
      s.subcategory &&
      s.category === 'Crypto' &&
      readdirSync(join(client, 'server')).includes(`${s.slug}.html`) &&
      (s.image_url === null || s.image_url.startsWith('https://')),
  );
  if (!found) throw new Error('no prerendered Crypto listing with a subcategory');
  return found;
}

describe('incremental publish (issue 35)', () => {
  it('renders the home and first pages with the build’s HTML: a change that alters nothing writes no listing page', async () => {
    const server = await prerenderedListing();
    const before = builder.liveDir()!;
    const builtServer = realpathSync(builder.serverEntry()!);
    await builder.record(`touched ${server.slug}`, [`/server/${server.slug}`], 'listings');
    await builder.idle();
    expect(builder.status().state).toBe('idle');
    const result = builder.lastPublish!;
    expect(builder.liveDir()).not.toBe(before);
    // The publish shares the build's server code (a link): the server does not import it again.
    expect(realpathSync(builder.serverEntry()!)).toBe(builtServer);
    // Rendered: the home, the first pages of every listing it is in, their numbered pages, its page.
    expect(result.rendered).toEqual(
      expect.arrayContaining(['/', '/servers', '/best-crypto-discord', '/servers/page/2', `/server/${server.slug}`]),
    );
    // Nothing changed in the database: every listing page and the home are the build's own bytes.
    // Its server page may differ only by when it was rendered ("checked N ago").
    expect(result.written.filter((p) => p !== `/server/${server.slug}`)).toEqual([]);
    expect(result.removed).toEqual([]);
  }, 300_000);

  it('a change to one listing rewrites only the pages a full build changes; every other file is the live one', async () => {
    const server = await prerenderedListing();
    const liveBuild = join(builder.liveDir()!, '..');
    const oldClient = builder.liveDir()!;
    // Its card changes and moves up in every listing it is in: a new description and more members
    // than all but a few of its category.
    const crypto = (await listServersWithPages(db)).filter((s) => isListed(s) && s.category === 'Crypto');
    const members = (crypto[5]?.members ?? 0) + 1;
    await updateServer(db, server.id, { description: 'Edited for the incremental publish test.', members });
    // With it, a placement starting in another category, published the same way (order events, the
    // placement clock): the listing leads its category's pages as Sponsored and joins the home's Premium Picks.
    const promoted = (await listServersWithPages(db)).find(
      (s) => isListed(s) && s.category === 'Gaming' && !s.is_sponsored && !s.is_premium,
    )!;
    await updateServer(db, promoted.id, { is_sponsored: true, is_premium: true });
    // One publish for both (a burst of changes is coalesced into one).
    await builder.record(
      `edited ${server.slug}, placement of ${promoted.slug} started`,
      [`/server/${server.slug}`, `/server/${promoted.slug}`],
      'listings',
    );
    await builder.idle();
    const result = builder.lastPublish!;
    const newClient = builder.liveDir()!;
    expect(join(newClient, '..')).not.toBe(liveBuild);
    expect((await getServerBySlug(db, server.slug))?.members).toBe(members);

    // The ground truth: a full build of the same database.
    const full = join(buildsDir, 'ground-truth');
    await runAstroBuild(process.cwd(), full, { ...env, ASTRO_CACHE_DIR: join(dir, 'truth-cache') });
    const fullClient = join(full, 'client');

    const files = filesOf(newClient);
    expect(files).toEqual(filesOf(oldClient));
    const changedByBuild: string[] = [];
    for (const file of files.filter((f) => f.endsWith('.html') && !f.startsWith('server/'))) {
      const published = readFileSync(join(newClient, file), 'utf8');
      // Every page the publish left or wrote is what the full build wrote.
      expect(published, file).toBe(readFileSync(join(fullClient, file), 'utf8'));
      if (published !== readFileSync(join(oldClient, file), 'utf8')) changedByBuild.push(pathOf(file));
    }
    // Written: exactly the pages the change altered, and its own page.
    const ownPages = [server, promoted]
      .map((s) => `/server/${s.slug}`)
      .filter((p) => existsSync(join(newClient, `${p.slice(1)}.html`)));
    expect(result.written.sort()).toEqual([...changedByBuild, ...ownPages].sort());
    // Its first pages (the sums, the podium or the cards), the promoted listing's category and the home changed.
    expect(changedByBuild).toEqual(
      expect.arrayContaining(['/', '/servers', '/best-crypto-discord', '/best-gaming-discord']),
    );
    expect(changedByBuild.some((p) => p.startsWith('/best-trading-discord'))).toBe(false);
    expect(readFileSync(join(newClient, 'server', `${server.slug}.html`), 'utf8')).toContain(
      'Edited for the incremental publish test.',
    );
    // The second publish's prune kept the first build: both publishes link to its server code.
    expect(existsSync(realpathSync(builder.serverEntry()!))).toBe(true);
    // Every file it did not write is the live build's own file (a hard link: same inode).
    const written = new Set(result.written.map((p) => (p === '/' ? 'index.html' : `${p.slice(1)}.html`)));
    for (const file of files.filter((f) => !written.has(f))) {
      expect(statSync(join(newClient, file)).ino, file).toBe(statSync(join(oldClient, file)).ino);
    }
    rmSync(full, { recursive: true, force: true });
  }, 600_000);

  it('a change made while a publish runs keeps the status queued when that publish goes live', async () => {
    const [first, second] = (await listServersWithPages(db)).filter(isListed).slice(0, 2);
    const since = builder.status().liveSince;
    logged.length = 0;
    await builder.record(`touched ${first!.slug}`, [`/server/${first!.slug}`], 'listings');
    await expect.poll(() => builder.status().state, { interval: 1 }).toBe('building');
    await builder.record(`touched ${second!.slug}`, [`/server/${second!.slug}`], 'listings');
    await builder.idle();
    const publishes = logged.filter((l) => l.message.startsWith('Published'));
    expect(publishes).toHaveLength(2);
    // The first went live with the second still to do: an operator (or a test) polling the status
    // must not read "idle" and a new liveSince as "everything I changed is live".
    expect(publishes[0]!.state).toBe('queued');
    expect(publishes[1]!.state).toBe('idle');
    expect(builder.status()).toMatchObject({ state: 'idle', lastError: null });
    expect(builder.status().liveSince! > since!).toBe(true);
  }, 300_000);
});
