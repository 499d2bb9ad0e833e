import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { test as base } from '@playwright/test';
import { type Db, openDb } from '../../db/client';
import { migrateDb } from '../../db/migrate';
import { seedIfEmpty } from '../../db/seed';
import { loadEnv } from '../../functions/_app/env';
import { startNodeServer } from '../../functions/_app/node';
import type { SiteServer } from './fixtures';

/**
 * A `test` whose worker gets a site of its own, as fixtures.ts makes one (`npm start` on a temp
 * database and port), for a spec that needs its own rows before the build (`prepare`, after the
 * sample servers) or its own rate-limit budget (the writes of the other specs count against
 * the shared site's).
 */
export function testWithOwnSite(name: string, prepare?: (db: Db) => Promise<void>) {
  return base.extend<{ site: SiteServer }, { ownSite: SiteServer }>({
    ownSite: [
      // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature
      async ({}, use) => {
        const dir = mkdtempSync(join(tmpdir(), `guildrank-${name}-`));
        const dbUrl = `file:${join(dir, 'site.db')}`;
        const seeding = await openDb({ url: dbUrl });
        await migrateDb(seeding.db);
        await seedIfEmpty(seeding.db);
        await prepare?.(seeding.db);
        seeding.client.close();
        const env = loadEnv({ DATABASE_URL: dbUrl, PORT: '0', HOST: '127.0.0.1', SITE_URL: 'http://localhost:4321' });
        const buildsDir = join(process.cwd(), '.tmp', `e2e-${basename(dir)}`);
        const server = await startNodeServer({ env, buildsDir, log: () => {} });
        const { db, client } = await openDb({ url: dbUrl });
        await use({ baseURL: `http://127.0.0.1:${server.port}`, db, dbUrl });
        client.close();
        await server.close();
        rmSync(dir, { recursive: true, force: true });
        rmSync(buildsDir, { recursive: true, force: true });
      },
      { scope: 'worker', timeout: 180_000 },
    ],
    site: async ({ ownSite }, use) => use(ownSite),
    baseURL: async ({ ownSite }, use) => use(ownSite.baseURL),
  });
}
