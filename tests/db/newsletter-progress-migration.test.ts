import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateDb } from '../../db/migrate';
import { dbAtMigration } from '../helpers/db';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('migration 0024: an issue written before it goes on from its last copy', () => {
  it('takes enqueued_through from the highest subscriber whose copy of that week is in the outbox', async () => {
    const { db, client } = await dbAtMigration(23, dirs);
    try {
      for (const week of ['2026-W47', '2026-W48', '2026-W49'])
        await client.execute({
          sql: "INSERT INTO newsletter_issues (week, subject, content) VALUES (?, 's', '{}')",
          args: [week],
        });
      // W47: copies for subscribers 3, 12 and 9 (12 sorts before 3 as text); W48: another kind's key only; W49: none.
      for (const [kind, key] of [
        ['newsletter_issue', 'newsletter-issue:2026-W47:3'],
        ['newsletter_issue', 'newsletter-issue:2026-W47:12'],
        ['newsletter_issue', 'newsletter-issue:2026-W47:9'],
        ['newsletter_welcome', 'newsletter-issue:2026-W48:40'],
      ])
        await client.execute({
          sql: `INSERT INTO mail_outbox (kind, dedupe_key, to_address, subject, text_body, html_body)
            VALUES (?, ?, 'a@example.com', 's', 't', 'h')`,
          args: [kind!, key!],
        });
      await migrateDb(db);
      const rows = await client.execute('SELECT week, enqueued_through FROM newsletter_issues ORDER BY week');
      expect(rows.rows.map((r) => [r.week, r.enqueued_through])).toEqual([
        ['2026-W47', 12],
        ['2026-W48', 0],
        ['2026-W49', 0],
      ]);
    } finally {
      client.close();
    }
  });
});
