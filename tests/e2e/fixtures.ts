import { appendFileSync, cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Client } from '@libsql/client';
import { type Db, openDb } from '../../db/client';
import { migrateDb } from '../../db/migrate';
import { seedIfEmpty } from '../../db/seed';
import { loadEnv } from '../../functions/_app/env';
import { startNodeServer } from '../../functions/_app/node';
import { type DiscordStandIn, STAND_IN_CLIENT, startDiscordStandIn } from '../helpers/discord-stand-in';
import { test as base } from './reused-context';

export interface SiteServer {
  baseURL: string;
  /** The server's own database, for asserting what a journey stored. */
  db: Db;
  dbUrl: string;
  /** The site's Discord (DISCORD_API_BASE): a permissive loopback stand-in; set invites to shape answers. */
  discord: DiscordStandIn;
}

/** The address every test site is built and mails with (it listens on a port of its own). */
export const TEST_SITE_URL = 'http://localhost:4321';

/** The settings every test site starts with (startSite's app settings add to them). */
function siteEnv(dbUrl: string, discord: DiscordStandIn, appEnv?: Record<string, string>) {
  return loadEnv({
    DATABASE_URL: dbUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    SITE_URL: TEST_SITE_URL,
    REFRESH_ENABLED: 'false',
    DISCORD_API_BASE: discord.url,
    // Owner sign-in (#17) against the same stand-in's OAuth2.
    DISCORD_OAUTH_BASE: discord.origin,
    DISCORD_CLIENT_ID: STAND_IN_CLIENT.id,
    DISCORD_CLIENT_SECRET: STAND_IN_CLIENT.secret,
    ...appEnv,
  });
}

/**
 * The servers' log lines (builds, publishes) go to the file this variable names, with the time and
 * the site's name, when it is set: where a run spends its builds (docs/testing.md). Silent otherwise.
 */
export const SITE_LOG_VAR = 'GUILDRANK_E2E_SITE_LOG';

function siteLog(name: string): (line: string) => void {
  const file = process.env[SITE_LOG_VAR];
  if (!file) return () => {};
  const worker = process.env.TEST_WORKER_INDEX ?? '-';
  return (line) => appendFileSync(file, `${new Date().toISOString()} w${worker} ${name} ${line}\n`);
}

/** Where the run's template site is (tests/e2e/global-setup.ts): its database and its builds. */
export const TEMPLATE_DIR_VAR = 'GUILDRANK_E2E_TEMPLATE';

/**
 * Builds the template site: the sample servers, migrated and seeded, and a live build of them.
 * A site with nothing of its own before its build (no rows, no build settings, the default app
 * settings) starts from a copy of it instead of building the same pages again.
 */
export async function buildTemplateSite(dir: string): Promise<void> {
  const dbUrl = `file:${join(dir, 'site.db')}`;
  const discord = await startDiscordStandIn({ permissive: true });
  try {
    const server = await startNodeServer({
      env: siteEnv(dbUrl, discord),
      buildsDir: join(dir, 'builds'),
      log: siteLog('template'),
    });
    await server.close();
  } finally {
    await discord.close();
  }
}

/** Tables whose rows only listings' pages show (a server page, the listing pages it stands in, the home). */
const LISTING_TABLES = ['discord_servers', 'server_snapshots', 'server_flags'] as const;
/**
 * A listing's member reviews and their replies: its server page shows them (the build's
 * firstReviewPages), and a review's change is published as the listing's page (routes/reviews.ts).
 */
const REVIEW_TABLES = ['reviews', 'review_replies'] as const;
/**
 * Tables the build never reads (src/data/site-data.ts and the pages' queries): the console's, the
 * owners' accounts and sessions, analytics, mail, budgets. Rows there change no built page, so a
 * spec's rows in them keep the copied build as it is. A table missing here (a new one) counts as
 * read: the site is built in full. Keep it to tables no prerendered page shows.
 */
const UNREAD_TABLES = new Set([
  'user_interactions',
  'contact_messages',
  'operators',
  'sign_in_failures',
  'sessions',
  'owner_users',
  'owner_sessions',
  'listing_edits',
  'oauth_states',
  'invite_answers',
  'client_budgets',
  'badge_fetches',
  'webhook_outbox',
  'review_flags',
  'review_proofs',
  'account_settings',
  'mail_outbox',
  'newsletter_issues',
  'stripe_events',
]);
/**
 * App settings no build reads: the server passes its build the process's environment and, of the
 * app's settings, only what the pages show (functions/_app/node.ts: SITE_URL, SUPPORT_EMAIL, the
 * Stripe keys, the sponsored cap, MIN_MEMBERS). A site whose own settings are all in this list
 * (the mail spec's SMTP server and secrets) starts from a copy of the template. A setting missing
 * here counts as read by the build: the site is built in full. Keep it to settings no page shows.
 */
const UNBUILT_SETTINGS = new Set(['PORT', 'SMTP_URL', 'MAIL_FROM', 'SESSION_SECRET', 'IP_HASH_SECRET', 'RATE_LIMITS']);

/** Tables kept from the listings' rows by triggers or bookkeeping: they follow, never lead. */
const DERIVED_TABLE = /^(discord_servers_fts.*|listing_groups|site_changes|__drizzle_migrations|sqlite_.*)$/;

/** Every table's rows as JSON lines (the samples are a few hundred rows): what a spec's rows changed. */
async function listingRows(client: Client): Promise<Map<string, Set<string>>> {
  const tables = await client.execute("SELECT name FROM sqlite_master WHERE type = 'table'");
  const out = new Map<string, Set<string>>();
  for (const { name } of tables.rows) {
    if (typeof name !== 'string' || DERIVED_TABLE.test(name)) continue;
    const rows = await client.execute(`SELECT * FROM "${name}"`);
    out.set(name, new Set(rows.rows.map((r) => JSON.stringify(r))));
  }
  return out;
}

/**
 * The `/server/{slug}` pages a spec's rows changed, when every changed row is a listing's
 * (LISTING_TABLES) or its reviews' (REVIEW_TABLES), or in a table the build never reads
 * (UNREAD_TABLES): then the copied build is published incrementally (kept as it is when no page
 * changed). Null when other tables changed too (their rows may be on any page: built in full).
 */
function listingPagesChanged(before: Map<string, Set<string>>, after: Map<string, Set<string>>): string[] | null {
  const slugsById = new Map<number, string[]>();
  const changedIds = new Set<number>();
  // A reply's listing is its review's (either side of the change).
  const reviewServer = new Map<number, number>();
  for (const json of [...(before.get('reviews') ?? []), ...(after.get('reviews') ?? [])]) {
    const row = JSON.parse(json) as { id: number; server_id: number };
    reviewServer.set(row.id, row.server_id);
  }
  for (const [table, rows] of after) {
    const old = before.get(table) ?? new Set<string>();
    const moved = [...rows].filter((r) => !old.has(r)).concat([...old].filter((r) => !rows.has(r)));
    if (moved.length === 0 || UNREAD_TABLES.has(table)) continue;
    if (![...LISTING_TABLES, ...REVIEW_TABLES].includes(table as never)) return null;
    for (const json of moved) {
      const row = JSON.parse(json) as { id?: number; server_id?: number; review_id?: number; slug?: string };
      const id =
        table === 'discord_servers'
          ? row.id
          : table === 'review_replies'
            ? reviewServer.get(row.review_id ?? -1)
            : row.server_id;
      if (id === undefined) return null;
      changedIds.add(id);
      if (table === 'discord_servers' && row.slug) slugsById.set(id, [...(slugsById.get(id) ?? []), row.slug]);
    }
  }
  for (const json of after.get('discord_servers') ?? []) {
    const row = JSON.parse(json) as { id: number; slug: string };
    if (changedIds.has(row.id)) slugsById.set(row.id, [...(slugsById.get(row.id) ?? []), row.slug]);
  }
  return [...new Set([...changedIds].flatMap((id) => slugsById.get(id) ?? []))].map((slug) => `/server/${slug}`);
}

/**
 * Starts the production server as `npm start` does, on its own database in a temp dir, its own
 * build folder and a free port; `prepare` adds rows (after migrating) before the first build;
 * `buildEnv` adds variables to the build's environment only (the Turnstile keys, say).
 * Answers the site and a function that stops it and removes everything it made.
 */
export async function startSite(
  name: string,
  prepare?: (db: Db) => Promise<void>,
  buildEnv?: Record<string, string>,
  /** Settings of the app on top of the defaults (the mail spec's SMTP_URL, PORT and SITE_URL). */
  appEnv?: Record<string, string>,
): Promise<{ site: SiteServer; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), `guildrank-${name}-`));
  const dbUrl = `file:${join(dir, 'site.db')}`;
  // Builds go inside the project: Astro stages prerender chunks beside an output folder within
  // the working directory, but in one shared ./.astro/ for folders outside it (concurrent builds collide).
  const buildsDir = join(process.cwd(), '.tmp', `e2e-${basename(dir)}`);
  const template = process.env[TEMPLATE_DIR_VAR];
  const fromTemplate =
    !buildEnv &&
    Object.keys(appEnv ?? {}).every((key) => UNBUILT_SETTINGS.has(key)) &&
    template &&
    existsSync(join(template, 'builds', 'current'));
  if (fromTemplate) {
    // The template's database and live build, copied (a rebuild here must not touch the template's files).
    for (const file of ['site.db', 'site.db-wal']) {
      if (existsSync(join(template, file))) cpSync(join(template, file), join(dir, file));
    }
    cpSync(join(template, 'builds'), buildsDir, { recursive: true });
  }
  let published: string[] | null = null;
  if (prepare) {
    const seeding = await openDb({ url: dbUrl });
    await migrateDb(seeding.db);
    await seedIfEmpty(seeding.db);
    const before = fromTemplate ? await listingRows(seeding.client) : null;
    await prepare(seeding.db);
    if (before) published = listingPagesChanged(before, await listingRows(seeding.client));
    seeding.client.close();
    // Rows of tables any page may show (beyond the listings' and their reviews'): built again.
    if (fromTemplate && !published) rmSync(buildsDir, { recursive: true, force: true });
  }
  // No refresh timer: a test server never asks the real Discord (a spec that wants the job runs it against a stand-in).
  // Submission checks ask a loopback stand-in that knows every invite (specs add their own).
  const discord = await startDiscordStandIn({ permissive: true });
  const env = siteEnv(dbUrl, discord, appEnv);
  const server = await startNodeServer({ env, buildsDir, log: siteLog(name), ...(buildEnv && { buildEnv }) });
  if (published && published.length > 0) {
    // The spec's listings are published into the copied build as an approval's are (site-publish.ts):
    // their pages, the listing pages they stand in and the home, rendered by the build's own code.
    await server.builder.record("the spec's own listings", published, 'listings');
    await server.builder.idle();
    if (!server.builder.lastPublish) throw new Error(`${name}: the spec's listings were not published incrementally`);
  }
  const { db, client } = await openDb({ url: dbUrl });
  return {
    site: { baseURL: `http://127.0.0.1:${server.port}`, db, dbUrl, discord },
    stop: async () => {
      client.close();
      await server.close();
      await discord.close();
      rmSync(dir, { recursive: true, force: true });
      rmSync(buildsDir, { recursive: true, force: true });
    },
  };
}

/** One production server per worker (startSite), shared by the specs that use this `test`. */
export const test = base.extend<{ site: SiteServer }, { workerSite: SiteServer }>({
  workerSite: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature
    async ({}, use) => {
      const { site, stop } = await startSite('e2e');
      await use(site);
      await stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  site: async ({ workerSite }, use) => use(workerSite),
  baseURL: async ({ workerSite }, use) => use(workerSite.baseURL),
});

export { expect } from '@playwright/test';
