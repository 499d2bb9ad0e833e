import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@libsql/client';
import { type Db, openDb } from '../../db/client';
import { migrateDb } from '../../db/migrate';

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
