import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateDb } from '../../db/migrate';
import { dbAtMigration } from '../helpers/db';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('migration 0004: rows stored before #13 count each action once', () => {
  it('turns beacon clicks into save/unsave/share worth 0 and drops the duplicate report and signup beacons', async () => {
    const { db, client } = await dbAtMigration(3, dirs);
    try {
      // What the old code stored for one visit to a premium server: a view, save, share, report
      // (the server's row and the page's valued beacon), a join, and a signup (server and beacon).
      const rows: [string, string, string | null, string | null, number | null][] = [
        ['view', 'server', '1', null, null],
        ['click', 'server', '1', '{"action":"save"}', 5],
        ['click', 'server', '1', '{"action":"unsave"}', 5],
        ['click', 'server', '1', '{"action":"share"}', 5],
        ['click', 'server', '1', '{"action":"report","reason":"spam","details":null}', null],
        ['click', 'server', '1', '{"action":"report","reason":"spam","details":null}', 5],
        ['click', 'server', 'apex', '{"action":"join"}', 5],
        ['signup', 'newsletter', '7', '{"source":"homepage"}', 2],
        ['signup', 'newsletter', 'homepage', null, 2],
        ['click', 'server', '1', 'not json', 1],
      ];
      for (const r of rows) {
        await client.execute({
          sql: 'INSERT INTO user_interactions (interaction_type, target_type, target_id, metadata, conversion_value) VALUES (?, ?, ?, ?, ?)',
          args: r,
        });
      }
      await migrateDb(db);
      const after = await client.execute(
        'SELECT interaction_type, target_id, conversion_value FROM user_interactions ORDER BY id',
      );
      expect(after.rows.map((r) => `${r.interaction_type} ${r.target_id} ${r.conversion_value ?? 0}`)).toEqual([
        'view 1 0',
        'save 1 0',
        'unsave 1 0',
        'share 1 0',
        'report 1 0',
        'click apex 5',
        'signup 7 2',
        'click 1 1',
      ]);
    } finally {
      client.close();
    }
  });
});
