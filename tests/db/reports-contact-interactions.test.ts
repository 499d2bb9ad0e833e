import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContactMessage, listContactMessages, setContactStatus } from '../../db/queries/contact';
import { countInteractions, getFunnel, insertInteractions } from '../../db/queries/interactions';
import { countReportsByServer, createReport, listReports, setReportStatus } from '../../db/queries/reports';
import { createServer } from '../../db/queries/servers';
import { createTestDb, type TestDb } from '../helpers/db';

let t: TestDb;
beforeEach(async () => {
  t = await createTestDb();
});
afterEach(() => t.cleanup());

const server = (name: string) => createServer(t.db, { name, category: 'Gaming' });

describe('report queries', () => {
  it('createReport stores an open report and its interaction together', async () => {
    const s = await server('Alpha');
    const report = await createReport(
      t.db,
      { server_id: s.id, reason: 'spam', details: 'bots', session_id: 'x' },
      { interaction_type: 'click', target_type: 'server', server_id: s.id, metadata: { action: 'report' } },
    );
    expect(report).toMatchObject({ server_id: s.id, reason: 'spam', status: 'open', resolved_at: null });
    expect(await countInteractions(t.db)).toBe(1);
  });

  it('createReport stores neither row when the report is refused (unknown server)', async () => {
    await expect(
      createReport(
        t.db,
        { server_id: 999, reason: 'spam' },
        { interaction_type: 'click', target_type: 'server', metadata: { action: 'report' } },
      ),
    ).rejects.toThrow();
    expect(await countInteractions(t.db)).toBe(0);
    expect((await listReports(t.db)).total).toBe(0);
  });

  it('listReports filters by status and server; setReportStatus records the resolution time', async () => {
    const a = await server('Alpha');
    const b = await server('Beta');
    const r1 = await createReport(t.db, { server_id: a.id, reason: 'spam' });
    await createReport(t.db, { server_id: a.id, reason: 'other' });
    await createReport(t.db, { server_id: b.id, reason: 'broken_link' });
    const resolved = await setReportStatus(t.db, r1.id, 'resolved');
    expect(resolved?.status).toBe('resolved');
    expect(resolved?.resolved_at).toBeTruthy();
    expect((await listReports(t.db, { status: 'open' })).total).toBe(2);
    expect((await listReports(t.db, { serverId: a.id })).reports.map((r) => r.reason)).toEqual(['other', 'spam']);
    expect((await setReportStatus(t.db, r1.id, 'open'))?.resolved_at).toBeNull();
    expect(await setReportStatus(t.db, 999, 'dismissed')).toBeNull();
  });

  it('countReportsByServer groups by server with open counts, most open first', async () => {
    const a = await server('Alpha');
    const b = await server('Beta');
    const r = await createReport(t.db, { server_id: a.id, reason: 'spam' });
    await createReport(t.db, { server_id: b.id, reason: 'spam' });
    await createReport(t.db, { server_id: b.id, reason: 'other' });
    await setReportStatus(t.db, r.id, 'dismissed');
    const groups = await countReportsByServer(t.db);
    expect(groups.map((g) => [g.name, g.total, g.open])).toEqual([
      ['Beta', 2, 2],
      ['Alpha', 1, 0],
    ]);
    expect((await countReportsByServer(t.db, 'open')).map((g) => g.server_id)).toEqual([b.id]);
  });
});

describe('contact queries', () => {
  it('createContactMessage stores status new; list filters; setContactStatus changes it', async () => {
    const m = await createContactMessage(t.db, {
      name: 'A',
      email: 'a@example.com',
      subject: 'general',
      message: 'Hello there',
      priority: 'normal',
    });
    expect(m.status).toBe('new');
    await createContactMessage(t.db, {
      name: 'B',
      email: 'b@example.com',
      subject: 'billing',
      message: 'Invoice please',
      priority: 'urgent',
    });
    expect((await listContactMessages(t.db)).messages.map((x) => x.name)).toEqual(['B', 'A']);
    expect((await setContactStatus(t.db, m.id, 'replied'))?.status).toBe('replied');
    expect((await listContactMessages(t.db, { status: 'new' })).messages.map((x) => x.name)).toEqual(['B']);
    expect(await setContactStatus(t.db, 999, 'read')).toBeNull();
  });
});

describe('interaction queries', () => {
  it('getFunnel counts the last 7 days by type, optionally for one server', async () => {
    const a = await server('Alpha');
    const b = await server('Beta');
    await insertInteractions(t.db, [
      { interaction_type: 'view', target_type: 'server', server_id: a.id },
      { interaction_type: 'view', target_type: 'server', server_id: a.id },
      { interaction_type: 'click', target_type: 'server', server_id: a.id },
      { interaction_type: 'view', target_type: 'server', server_id: b.id },
      { interaction_type: 'signup', target_type: 'newsletter' },
      { interaction_type: 'conversion', target_type: 'premium_cta' },
    ]);
    // An old event outside the window.
    await t.client.execute(
      "INSERT INTO user_interactions (interaction_type, target_type, server_id, created_at) VALUES ('click', 'server', ?, '2020-01-01T00:00:00.000Z')",
      [a.id],
    );
    expect(await getFunnel(t.db)).toEqual({ views: 3, clicks: 1, signups: 1, conversions: 1 });
    expect(await getFunnel(t.db, { serverId: a.id })).toEqual({ views: 2, clicks: 1, signups: 0, conversions: 0 });
    expect(await countInteractions(t.db)).toBe(7);
    expect(await insertInteractions(t.db, [])).toBe(0);
  });
});
