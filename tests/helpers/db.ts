import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@libsql/client';
import { type Db, openDb } from '../../db/client';
import { insertFakeServers } from '../../db/fake';
import { MIGRATIONS_FOLDER, migrateDb } from '../../db/migrate';
import { seedIfEmpty } from '../../db/seed';

export interface TestDb {
  db: Db;
  client: Client;
  dir: string;
  url: string;
  /** Closes the client and deletes the folder. */
  cleanup: () => void;
}

/** A fresh, migrated libSQL file in its own temp dir (no seed: each test writes its own rows). */
export async function createTestDb(): Promise<TestDb> {
  const dir = mkdtempSync(join(tmpdir(), 'guildrank-test-'));
  const url = `file:${join(dir, 'test.db')}`;
  const { db, client } = await openDb({ url });
  await migrateDb(db);
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
