import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@libsql/client';
import { migrate } from 'drizzle-orm/libsql/migrator';
import { type Db, openDb } from '../../db/client';
import { insertFakeServers } from '../../db/fake';
import { MIGRATIONS_FOLDER, migrateDb } from '../../db/migrate';
import { seedIfEmpty } from '../../db/seed';
import { badgeTallyFor } from '../../functions/_app/lib/badge-tally';

export interface TestDb {
  db: Db;
  client: Client;
  dir: string;
  url: string;
  /** Closes the client and deletes the folder. */
  cleanup: () => void;
}

/**
 * One database per test process migrated by the real migrator, checkpointed and closed: each test
 * database starts as a copy of its file. Migrating every test database from nothing cost about
 * 65 ms of CPU and a quarter of a second of fsyncs each, several hundred times a run; the
 * migrations themselves are tested where they are the subject (the *-migration tests run the
 * migrator on databases of their own).
 */
let migratedTemplate: Promise<string> | undefined;

function migratedFile(): Promise<string> {
  migratedTemplate ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'guildrank-template-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'migrated.db');
    const { db, client } = await openDb({ url: `file:${file}` });
    await migrateDb(db);
    // Everything in the main file, so a copy of it alone is the whole database.
    await client.execute('PRAGMA wal_checkpoint(TRUNCATE)');
    client.close();
    return file;
  })();
  return migratedTemplate;
}

/** A fresh, migrated libSQL file in its own temp dir (no seed: each test writes its own rows). */
export async function createTestDb(): Promise<TestDb> {
  const dir = mkdtempSync(join(tmpdir(), 'guildrank-test-'));
  copyFileSync(await migratedFile(), join(dir, 'test.db'));
  const url = `file:${join(dir, 'test.db')}`;
  const { db, client } = await openDb({ url });
  return {
    db,
    client,
    dir,
    url,
    cleanup: () => {
      client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The database a real build is tested on: `url` opened, migrated, the sample servers seeded and
 * `fakes` made-up listings added (db:fake's rows). The caller closes the client.
 */
export async function openSeededDb(url: string, fakes: number): Promise<{ db: Db; client: Client }> {
  const opened = await openDb({ url });
  await migrateDb(opened.db);
  await seedIfEmpty(opened.db);
  await insertFakeServers(opened.client, fakes);
  return opened;
}

/**
 * A copy of the migrations folder whose journal stops after migration `lastIdx` (in a new temp
 * dir pushed to `dirs` for the caller to delete): a database migrated with it is one from before
 * the migrations that follow, for tests of a data migration.
 */
export function migrationsUpTo(lastIdx: number, dirs: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'guildrank-migrations-'));
  dirs.push(dir);
  cpSync(MIGRATIONS_FOLDER, dir, { recursive: true });
  const journalPath = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((e) => e.idx <= lastIdx);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

/**
 * A fresh database file migrated up to migration `lastIdx` only: a migration test stores rows as the
 * older schema held them, then runs the rest (migrateDb). Its folders go into `dirs` for cleanup.
 */
export async function dbAtMigration(lastIdx: number, dirs: string[]): Promise<{ db: Db; client: Client }> {
  const dir = mkdtempSync(join(tmpdir(), 'guildrank-test-'));
  dirs.push(dir);
  const opened = await openDb({ url: `file:${join(dir, 'test.db')}` });
  await migrate(opened.db, { migrationsFolder: migrationsUpTo(lastIdx, dirs) });
  return opened;
}

/**
 * Closes and deletes a test database an app served, as the server closes its own
 * (functions/_app/node.ts): the badge fetches still counted in memory are stored first, so no
 * flush timer outlives the database and writes into a closed one during a later test file.
 */
export async function closeAppDb(tdb: TestDb): Promise<void> {
  await badgeTallyFor(tdb.db).flush();
  tdb.cleanup();
}
