// `npm run db:restore -- <backup.db> [--db file:db/local.db] [--force]`
// Puts a backup back in place of the file database. The backup is verified first
// (integrity_check and the app's tables); a database another process has open is left
// alone unless --force; the replaced database is kept beside the backups.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readlinkSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createClient } from '@libsql/client';
import { checkpointWal, hasProjectTables } from '../db/queries/maintenance';
import { processEnv } from '../functions/_app/env';
import { BACKUP_DIR, filePathOf, integrityCheck, timestamp } from './db-backup';

/** Pids (other than ours) that have `path` or its -wal/-shm open, from /proc (Linux). */
export function processesUsing(path: string): number[] {
  const names = new Set([path, `${path}-wal`, `${path}-shm`]);
  const pids: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (names.has(readlinkSync(`/proc/${entry}/fd/${fd}`))) {
          pids.push(Number(entry));
          break;
        }
      } catch {
        // fd closed meanwhile
      }
    }
  }
  return pids;
}

/** Refuses a file that is not a healthy GuildRank database. */
export async function verifyBackup(path: string): Promise<void> {
  if (!existsSync(path)) throw new Error(`No backup at ${path}`);
  let check: string;
  try {
    check = await integrityCheck(path);
  } catch (err) {
    throw new Error(`${path} is not a readable database: ${(err as Error).message}`);
  }
  if (check !== 'ok') throw new Error(`${path} failed its integrity check:\n${check}`);
  const client = createClient({ url: pathToFileURL(path).href });
  try {
    if (!(await hasProjectTables(client))) throw new Error(`${path} does not hold the GuildRank tables`);
  } finally {
    client.close();
  }
}

export interface RestoreResult {
  restored: string;
  /** Where the database that was replaced now lives (null if there was none). */
  previous: string | null;
}

/** Verifies `backup`, then swaps it in for the database at `url`. */
export async function restoreDatabase(backup: string, url: string, force = false): Promise<RestoreResult> {
  const source = resolve(backup);
  const target = filePathOf(url);
  await verifyBackup(source);
  const users = processesUsing(target);
  if (users.length && !force) {
    throw new Error(
      `${target} is open in process ${users.join(', ')} (is the server running?). Stop it first, or pass --force and restart it after.`,
    );
  }
  const staging = `${target}.restoring`;
  copyFileSync(source, staging);
  let previous: string | null = null;
  if (existsSync(target)) {
    // Fold the WAL into the old file so the kept copy is whole, then set it aside.
    const old = createClient({ url: pathToFileURL(target).href });
    try {
      await checkpointWal(old);
    } finally {
      old.close();
    }
    previous = join(dirname(target), basename(BACKUP_DIR), `pre-restore-${timestamp()}.db`);
    mkdirSync(dirname(previous), { recursive: true });
    copyFileSync(target, previous);
  }
  rmSync(`${target}-wal`, { force: true });
  rmSync(`${target}-shm`, { force: true });
  renameSync(staging, target);
  return { restored: target, previous };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { db: { type: 'string' }, force: { type: 'boolean', default: false } },
  });
  const backup = positionals[0];
  if (!backup) {
    console.error('Usage: npm run db:restore -- <backup.db> [--db file:db/local.db] [--force]');
    process.exit(2);
  }
  const url = values.db ?? processEnv().DATABASE_URL;
  try {
    const { restored, previous } = await restoreDatabase(backup, url, values.force);
    console.log(`Restored ${restored} from ${resolve(backup)} (integrity ok).`);
    if (previous) console.log(`The database it replaced is kept at ${previous}.`);
  } catch (err) {
    console.error(`Restore refused: ${(err as Error).message}`);
    process.exit(1);
  }
}
