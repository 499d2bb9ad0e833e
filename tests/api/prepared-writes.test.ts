import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDb } from '../../db/client';
import { preparedStatementsFor } from '../../db/prepared';
import { insertEvents } from '../../db/queries/interactions';
import { insertSubmission } from '../../db/queries/submissions';
import { countRows, createTestApp, postJson, seedServer, type TestApp, validSubmission } from './api-harness';

let t: TestApp;
afterEach(() => t?.cleanup());

const event = (server_id: number | null) => ({
  interaction_type: 'share' as const,
  target_type: 'server' as const,
  target_id: null,
  server_id,
  metadata: null,
  session_id: 's',
  user_agent: null,
  ip_address: 'h',
  campaign_id: null,
  referrer: null,
  utm_source: null,
  utm_medium: null,
  utm_campaign: null,
});

describe('hot-path writes on kept-prepared statements (Node, file database)', () => {
  it('a file database offers prepared statements, and closing the client withdraws them', async () => {
    t = await createTestApp();
    expect(preparedStatementsFor(t.db)).toBeDefined();
    t.client.close();
    expect(preparedStatementsFor(t.db)).toBeUndefined();
  });

  it('closing the client ends the write thread, with nothing asked of the prepared statements after', async () => {
    t = await createTestApp();
    const prepared = preparedStatementsFor(t.db)!;
    await prepared.run('INSERT INTO newsletter_subscribers (email) VALUES (?)', ['closing@example.com']);
    // The thread's own connection (and its isolate) stayed until someone asked for the statements again.
    const threads = () => readdirSync('/proc/self/task').length;
    const withThread = threads();
    t.client.close();
    await vi.waitFor(() => expect(threads()).toBeLessThan(withThread));
  });

  it('an in-memory database offers none (a second connection would be another database)', async () => {
    const { db, client } = await openDb({ url: 'file::memory:' });
    try {
      expect(preparedStatementsFor(db)).toBeUndefined();
    } finally {
      client.close();
    }
  });

  it('events and submissions written through them are visible to the pooled client, batch after batch', async () => {
    t = await createTestApp();
    const server = await seedServer(t.db, { is_premium: true });
    // The same batch size twice reuses the statement; a new size prepares another.
    for (const n of [3, 3, 1]) {
      await insertEvents(
        t.db,
        Array.from({ length: n }, () => event(server.id)),
      );
    }
    const rows = (await t.client.execute('SELECT server_id, conversion_value FROM user_interactions')).rows;
    expect(rows).toHaveLength(7);
    for (const r of rows) expect(r).toMatchObject({ server_id: server.id, conversion_value: null });

    const input = {
      server_name: 'A',
      server_description: 'd',
      category: 'Gaming',
      invite_link: 'https://discord.gg/a',
      server_image: null,
      contact_email: 'a@example.com',
      features: null,
      member_count: 3,
      active_users: 1,
      submitter_name: 'S',
      is_owner: false,
    };
    const stored = [await insertSubmission(t.db, input), await insertSubmission(t.db, { ...input, server_name: 'B' })];
    expect(stored.map((s) => [s.server_name, s.status, s.is_owner, s.member_count])).toEqual([
      ['A', 'pending', false, 3],
      ['B', 'pending', false, 3],
    ]);
    expect(stored[0]!.id).toBeLessThan(stored[1]!.id);
    expect(await countRows(t.client, 'server_submissions')).toBe(2);
  });

  it('a write refused by the database fails its request, as on the pooled client', async () => {
    t = await createTestApp();
    // A NOT NULL column left empty is refused by SQLite itself.
    await expect(insertEvents(t.db, [{ ...event(null), interaction_type: null as never }])).rejects.toThrow();
    expect(await countRows(t.client, 'user_interactions')).toBe(0);
    const res = await postJson(t.app, '/api/submissions', validSubmission());
    expect(res.status).toBe(201);
  });
});
