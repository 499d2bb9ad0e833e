import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@libsql/client';
import { count, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openWebDb } from '../../db/client-web';
import { migrateDb } from '../../db/migrate';
import { newsletterSubscribers } from '../../db/schema';
import { type LibsqlHttpServer, startLibsqlHttpServer } from '../fixtures/libsql-http-server';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

async function fixture(authToken?: string): Promise<{ server: LibsqlHttpServer; file: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'guildrank-hrana-'));
  const file = join(dir, 'db.sqlite');
  const server = await startLibsqlHttpServer({ file, ...(authToken ? { authToken } : {}) });
  cleanups.push(
    () => rmSync(dir, { recursive: true, force: true }),
    () => server.stop(),
  );
  return { server, file };
}

describe('HTTP libSQL fixture with @libsql/client/web', () => {
  it('round-trips integers, floats, text, blobs and nulls with positional and named arguments', async () => {
    const { server } = await fixture();
    const { client } = openWebDb({ url: server.url });
    await client.execute('CREATE TABLE t (i INTEGER, f REAL, s TEXT, b BLOB, n TEXT)');
    const ins = await client.execute({
      sql: 'INSERT INTO t VALUES (?, ?, ?, ?, ?)',
      args: [1099511627776n, 1.5, 'héllo', new Uint8Array([1, 2, 255]), null],
    });
    expect(ins.rowsAffected).toBe(1);
    expect(ins.lastInsertRowid).toBe(1n);
    const rs = await client.execute({ sql: 'SELECT * FROM t WHERE s = :s', args: { s: 'héllo' } });
    expect(rs.columns).toEqual(['i', 'f', 's', 'b', 'n']);
    expect(rs.columnTypes[0]).toBe('INTEGER');
    const row = rs.rows[0];
    expect(String(row?.i)).toBe('1099511627776');
    expect(row?.f).toBe(1.5);
    expect(row?.s).toBe('héllo');
    expect([...new Uint8Array(row?.b as ArrayBuffer)]).toEqual([1, 2, 255]);
    expect(row?.n).toBeNull();
    client.close();
  });

  it('runs the drizzle migrations and an interactive transaction that rolls back on error', async () => {
    const { server, file } = await fixture();
    const { db, client } = openWebDb({ url: server.url });
    await migrateDb(db);
    await db.insert(newsletterSubscribers).values({ email: 'a@example.com' });
    const failed = await db
      .transaction(async (tx) => {
        await tx.insert(newsletterSubscribers).values({ email: 'b@example.com' });
        await tx.insert(newsletterSubscribers).values({ email: 'a@example.com' });
      })
      .then(
        () => null,
        (err: Error) => err,
      );
    expect(String((failed?.cause as Error | undefined)?.message)).toMatch(/UNIQUE constraint/);
    const [row] = await db.select({ n: count() }).from(newsletterSubscribers);
    expect(row?.n).toBe(1);
    // The rows live in the file: a direct file client sees them.
    const direct = createClient({ url: `file:${file}` });
    const seen = await direct.execute('SELECT email FROM newsletter_subscribers');
    expect(seen.rows.map((r) => r.email)).toEqual(['a@example.com']);
    direct.close();
    const got = await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, 'a@example.com'));
    expect(got).toHaveLength(1);
    client.close();
  });

  it('returns SQL errors with their SQLite code and rejects a wrong auth token', async () => {
    const { server } = await fixture('secret-token');
    const good = openWebDb({ url: server.url, authToken: 'secret-token' }).client;
    await expect(good.execute('SELECT * FROM missing_table')).rejects.toThrow(/no such table/);
    const bad = openWebDb({ url: server.url, authToken: 'wrong' }).client;
    await expect(bad.execute('SELECT 1')).rejects.toThrow(/Unauthorized/);
    good.close();
    bad.close();
  });

  it('refuses connections after stop() and serves again on the same port after start()', async () => {
    const { server } = await fixture();
    const port = server.port;
    const { client } = openWebDb({ url: server.url });
    await client.execute('CREATE TABLE t (x)');
    await server.stop();
    await expect(client.execute('SELECT 1')).rejects.toThrow();
    await server.start();
    expect(server.port).toBe(port);
    const rs = await client.execute('SELECT count(*) AS n FROM t');
    expect(Number(rs.rows[0]?.n)).toBe(0);
    server.setUnavailable(true);
    await expect(client.execute('SELECT 1')).rejects.toThrow(/503/);
    server.setUnavailable(false);
    client.close();
  });
});
