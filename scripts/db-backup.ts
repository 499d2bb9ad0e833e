// `npm run db:backup [-- --db file:db/local.db] [--out db/backups/<timestamp>.db]`
// A consistent snapshot of the file database while the server runs: VACUUM INTO reads one
// transaction's view (WAL lets writers carry on), writes a compact copy, and the copy is
// checked with PRAGMA integrity_check before the script says it is done.
import { mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createClient } from '@libsql/client';
import { checkIntegrity, setBusyTimeout, vacuumInto } from '../db/queries/maintenance';
import { processEnv } from '../functions/_app/env';

/** Folder of the default backups (git-ignored). */
export const BACKUP_DIR = 'db/backups';

/** The file path of a `file:` URL; other URLs (Turso) have no file to copy. */
export function filePathOf(url: string): string {
  if (!url.startsWith('file:')) {
    throw new Error(
      `Only file databases are backed up by this script (got ${url.replace(/\?.*$/, '')}). ` +
        'Turso keeps point-in-time history: restore with `turso db create <new> --from-db <db> --timestamp <ISO time>`, ' +
        'or export with `turso db shell <db> .dump > backup.sql`.',
    );
  }
  return resolve(url.slice('file:'.length).replace(/\?.*$/, ''));
}

/** `PRAGMA integrity_check` of a database file, opened without changing its journal mode. */
export async function integrityCheck(path: string): Promise<string> {
  const client = createClient({ url: pathToFileURL(path).href });
  try {
    return await checkIntegrity(client);
  } finally {
    client.close();
  }
}

/** A file-name-safe UTC timestamp, e.g. 2026-11-22T02-05-52-123Z. */
export const timestamp = (d = new Date()) => d.toISOString().replace(/[:.]/g, '-');

/**
 * Snapshots the database at `url` into `out` (default db/backups/<timestamp>.db) and
 * verifies the copy. Returns the path and size.
 */
export async function backupDatabase(url: string, out?: string): Promise<{ path: string; bytes: number }> {
  const source = filePathOf(url);
  statSync(source); // a clear ENOENT instead of backing up an empty new database
  const target = resolve(out ?? `${BACKUP_DIR}/${timestamp()}.db`);
  mkdirSync(dirname(target), { recursive: true });
  // VACUUM INTO refuses an existing file; write beside and rename so a crash leaves no half backup.
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  const client = createClient({ url: pathToFileURL(source).href });
  try {
    await setBusyTimeout(client, 10_000);
    await vacuumInto(client, partial);
  } finally {
    client.close();
  }
  const check = await integrityCheck(partial);
  if (check !== 'ok') {
    rmSync(partial, { force: true });
    throw new Error(`The snapshot failed its integrity check:\n${check}`);
  }
  renameSync(partial, target);
  return { path: target, bytes: statSync(target).size };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { db: { type: 'string' }, out: { type: 'string' } } });
  const url = values.db ?? processEnv().DATABASE_URL;
  try {
    const { path, bytes } = await backupDatabase(url, values.out);
    console.log(`Backed up ${url} to ${path} (${(bytes / 1024).toFixed(0)} KiB, integrity ok)`);
  } catch (err) {
    console.error(`Backup failed: ${(err as Error).message}`);
    process.exit(1);
  }
}
