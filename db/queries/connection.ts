import type { Client } from '@libsql/client';

// Settings of a file database's connection (db/client.ts opens it; the statements live here).

/**
 * Pages a connection keeps in memory, in KiB (SQLite's default is 2 MiB). A search among
 * 1,000,000 listings reads a few thousand pages of the trigram index and the table; with them in
 * the connection's cache it answers about twice as fast as through the operating system's
 * (uncached API search p99 15 ms instead of 22-25 ms on a quiet machine, #18). Filled only as
 * pages are read.
 */
const READ_CACHE_KIB = 64 * 1024;

/** The pragma that gives a connection a page cache of READ_CACHE_KIB. */
export const READ_CACHE_PRAGMA = `PRAGMA cache_size = -${READ_CACHE_KIB}`;

/** Gives the connection `client` runs its next statement on a page cache of READ_CACHE_KIB. */
export async function setReadCache(client: Pick<Client, 'execute'>): Promise<void> {
  await client.execute(READ_CACHE_PRAGMA);
}
