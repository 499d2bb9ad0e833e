import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateDb } from '../../db/migrate';
import { dbAtMigration } from '../helpers/db';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('migration 0010: verified submissions keep the proof they carried', () => {
  it('takes owner_proof from the owner_submit audit row, and leaves unverified or unrecorded ones null', async () => {
    const { db, client } = await dbAtMigration(9, dirs);
    try {
      await client.execute(
        "INSERT INTO owner_users (id, discord_user_id, username) VALUES (1, '900000000000000001', 'owner')",
      );
      // [verified, proof in the audit log (undefined: no audit row)]
      const sent: [boolean, string | null | undefined][] = [
        [true, 'owner'],
        [true, 'manage_guild'],
        [true, undefined],
        [false, null],
        [true, 'forged'],
      ];
      for (const [i, [verified, proof]] of sent.entries()) {
        const id = i + 1;
        await client.execute({
          sql: `INSERT INTO server_submissions (id, server_name, server_description, category, invite_link, contact_email,
            submitter_name, owner_id, owner_verified) VALUES (?, ?, 'd', 'Gaming', 'https://discord.gg/x', 'a@example.com', 'n', 1, ?)`,
          args: [id, `Sent ${id}`, verified ? 1 : 0],
        });
        if (proof !== undefined) {
          await client.execute({
            sql: "INSERT INTO audit_log (action, entity, entity_id, details) VALUES ('owner_submit', 'submission', ?, ?)",
            args: [String(id), JSON.stringify({ guild_id: '1', proof })],
          });
        }
      }
      await migrateDb(db);
      const rows = await client.execute('SELECT owner_proof FROM server_submissions ORDER BY id');
      expect(rows.rows.map((r) => r.owner_proof)).toEqual(['owner', 'manage_guild', null, null, null]);
    } finally {
      client.close();
    }
  });
});
