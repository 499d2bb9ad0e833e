import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeServer, insertFakeServers, rng } from '../../db/fake';
import { insertServersInBulk } from '../../db/queries/servers';
import { createTestDb, type TestDb } from '../helpers/db';

const COUNT = 20_000;
let bulk: TestDb;
let rowByRow: TestDb;
beforeAll(async () => {
  [bulk, rowByRow] = await Promise.all([createTestDb(), createTestDb()]);
  // The large-load path (indexes and triggers set aside, search index rebuilt) beside the same
  // servers inserted with every trigger and index maintained row by row.
  await insertFakeServers(bulk.client, COUNT, 7);
  const random = rng(7);
  await insertServersInBulk(
    rowByRow.client,
    Array.from({ length: COUNT }, (_, k) => fakeServer(k, random)),
  );
}, 120_000);
afterAll(() => {
  bulk?.cleanup();
  rowByRow?.cleanup();
});

const schemaOf = async (t: TestDb) =>
  (
    await t.client.execute(
      "SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'discord_servers' AND sql IS NOT NULL ORDER BY name",
    )
  ).rows.map((r) => [r.type, r.name, r.sql]);

describe('a large fake load', () => {
  it('stores the same rows as inserting them one by one', async () => {
    const dump = async (t: TestDb) =>
      (await t.client.execute('SELECT id, name, slug, description, tags, members FROM discord_servers ORDER BY id'))
        .rows;
    expect(await dump(bulk)).toEqual(await dump(rowByRow));
  });

  it('counts the loaded rows in listing_groups as the triggers count them row by row', async () => {
    const groups = async (t: TestDb) =>
      (await t.client.execute('SELECT * FROM listing_groups WHERE servers > 0 ORDER BY 1, 2, 3, 4, 5, 6')).rows;
    expect(await groups(bulk)).toEqual(await groups(rowByRow));
    expect((await groups(bulk)).length).toBeGreaterThan(10);
  });

  it('puts back every index and trigger of the servers table', async () => {
    expect(await schemaOf(bulk)).toEqual(await schemaOf(rowByRow));
  });

  it('leaves a search index that passes its integrity check and finds what the row-by-row one finds', async () => {
    await bulk.client.execute("INSERT INTO discord_servers_fts(discord_servers_fts) VALUES ('integrity-check')");
    for (const term of ['"valorant"', '"ranked"', '"hub"', '"zzqx"']) {
      const ids = async (t: TestDb) =>
        (
          await t.client.execute({
            sql: 'SELECT rowid FROM discord_servers_fts WHERE discord_servers_fts MATCH ? ORDER BY rowid',
            args: [term],
          })
        ).rows.map((r) => Number(r.rowid));
      expect(await ids(bulk)).toEqual(await ids(rowByRow));
    }
  });

  it('keeps the triggers working after the load: a later insert is searchable', async () => {
    await insertServersInBulk(bulk.client, [
      { ...fakeServer(COUNT, rng(1)), name: 'Quokkaland Lounge', slug: 'quokkaland' },
    ]);
    const rs = await bulk.client.execute(
      `SELECT count(*) AS n FROM discord_servers_fts WHERE discord_servers_fts MATCH '"quokkaland"'`,
    );
    expect(Number(rs.rows[0]?.n)).toBe(1);
  });
});
