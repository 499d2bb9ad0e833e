import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateDb } from '../../db/migrate';
import { dbAtMigration } from '../helpers/db';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('migration 0007: listings approved before the freshness checks get their invite code', () => {
  it('takes the code from plain discord.gg and discord.com/invite links, and leaves every other link unchecked', async () => {
    const { db, client } = await dbAtMigration(6, dirs);
    try {
      const links: [string, string | null][] = [
        ['https://discord.gg/pixelraid', 'pixelraid'],
        ['https://discord.com/invite/Trade-Desk9', 'Trade-Desk9'],
        ['https://discord.gg/withquery?event=1', null],
        ['https://discord.gg/', null],
        ['https://example.com/affiliate?ref=1', null],
        ['https://discord.gg/a/b', null],
      ];
      for (const [i, [link]] of links.entries()) {
        await client.execute({
          sql: "INSERT INTO discord_servers (name, category, slug, affiliate_link) VALUES (?, 'Gaming', ?, ?)",
          args: [`Old ${i}`, `old-${i}`, link],
        });
      }
      await client.execute(
        "INSERT INTO discord_servers (name, category, slug, affiliate_link, invite_code) VALUES ('Kept', 'Gaming', 'kept', 'https://discord.gg/other', 'kept')",
      );
      await migrateDb(db);
      const rows = await client.execute('SELECT affiliate_link, invite_code FROM discord_servers ORDER BY id');
      expect(rows.rows.map((r) => [r.affiliate_link, r.invite_code])).toEqual([
        ...links,
        ['https://discord.gg/other', 'kept'],
      ]);
    } finally {
      client.close();
    }
  });
});
