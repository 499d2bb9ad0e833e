import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer, getServerById } from '../../db/queries/servers';
import {
  approveSubmission,
  deleteSubmission,
  getSubmissionById,
  getSubmissionStats,
  insertSubmission,
  listSubmissions,
  type SubmissionWrite,
  updateSubmissionStatus,
} from '../../db/queries/submissions';
import { createTestDb, type TestDb } from '../helpers/db';

let t: TestDb;
beforeEach(async () => {
  t = await createTestDb();
});
afterEach(() => t.cleanup());

const input = (o: Partial<SubmissionWrite> = {}): SubmissionWrite => ({
  server_name: 'The Chart Room',
  server_description: 'Price action and journaling for swing traders.',
  category: 'Trading',
  invite_link: 'https://discord.gg/chartroom',
  server_image: 'https://cdn.example.com/chart.png',
  contact_email: 'owner@example.com',
  features: 'Daily watchlists\n- Trade journal reviews\n\n  Live calls  ',
  member_count: 3200,
  active_users: 410,
  submitter_name: 'Lin',
  is_owner: true,
  ...o,
});

describe('submission queries', () => {
  it('insertSubmission stores a pending row with every field', async () => {
    const row = await insertSubmission(t.db, input());
    expect(row).toMatchObject({ ...input(), status: 'pending', admin_notes: null, server_id: null });
    expect(await getSubmissionById(t.db, row.id)).toEqual(row);
  });

  it('listSubmissions orders newest first, filters by status and pages', async () => {
    const a = await insertSubmission(t.db, input({ server_name: 'A' }));
    const b = await insertSubmission(t.db, input({ server_name: 'B' }));
    const c = await insertSubmission(t.db, input({ server_name: 'C' }));
    await updateSubmissionStatus(t.db, b.id, 'rejected');
    const all = await listSubmissions(t.db);
    expect(all.submissions.map((s) => s.server_name)).toEqual(['C', 'B', 'A']);
    expect(all.total).toBe(3);
    const pending = await listSubmissions(t.db, { status: 'pending' });
    expect(pending.submissions.map((s) => s.id)).toEqual([c.id, a.id]);
    const page2 = await listSubmissions(t.db, { perPage: 2, page: 2 });
    expect(page2.submissions.map((s) => s.server_name)).toEqual(['A']);
    expect(page2.total).toBe(3);
  });

  it('updateSubmissionStatus sets the status and notes only when given', async () => {
    const row = await insertSubmission(t.db, input());
    const reviewed = await updateSubmissionStatus(t.db, row.id, 'under_review', 'Checking the invite');
    expect(reviewed).toMatchObject({ status: 'under_review', admin_notes: 'Checking the invite' });
    const rejected = await updateSubmissionStatus(t.db, row.id, 'rejected');
    expect(rejected).toMatchObject({ status: 'rejected', admin_notes: 'Checking the invite' });
    expect(await updateSubmissionStatus(t.db, 9999, 'approved')).toBeNull();
  });

  it('approveSubmission creates the listing from the submission and links it', async () => {
    const row = await insertSubmission(t.db, input());
    const result = await approveSubmission(t.db, row.id, 'Looks good');
    if (!result.ok) throw new Error(result.reason);
    expect(result.server).toMatchObject({
      name: 'The Chart Room',
      description: 'Price action and journaling for swing traders.',
      category: 'Trading',
      slug: 'chart-room',
      members: 3200,
      active_users: 410,
      rating: 0,
      image_url: 'https://cdn.example.com/chart.png',
      pros: ['Daily watchlists', 'Trade journal reviews', 'Live calls'],
      cons: [],
      tags: [],
      is_premium: false,
      is_sponsored: false,
      sort_order: 0,
      is_active: true,
      affiliate_link: 'https://discord.gg/chartroom',
    });
    expect(result.submission).toMatchObject({
      status: 'approved',
      server_id: result.server.id,
      admin_notes: 'Looks good',
    });
    expect(await getServerById(t.db, result.server.id)).toEqual(result.server);
  });

  it('approveSubmission gives a unique slug when the name is taken', async () => {
    await createServer(t.db, { name: 'The Chart Room', category: 'Trading' });
    const row = await insertSubmission(t.db, input());
    const result = await approveSubmission(t.db, row.id);
    expect(result.ok && result.server.slug).toBe('chart-room-2');
  });

  it('approveSubmission refuses a second approval and an unknown id without creating listings', async () => {
    const row = await insertSubmission(t.db, input());
    expect((await approveSubmission(t.db, row.id)).ok).toBe(true);
    expect(await approveSubmission(t.db, row.id)).toEqual({ ok: false, reason: 'already_approved' });
    expect(await approveSubmission(t.db, 4242)).toEqual({ ok: false, reason: 'not_found' });
    const n = await t.client.execute('SELECT count(*) AS n FROM discord_servers');
    expect(Number(n.rows[0]!.n)).toBe(1);
  });

  it('two concurrent approvals of one submission create one listing', async () => {
    const row = await insertSubmission(t.db, input());
    const results = await Promise.all([approveSubmission(t.db, row.id), approveSubmission(t.db, row.id)]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const n = await t.client.execute('SELECT count(*) AS n FROM discord_servers');
    expect(Number(n.rows[0]!.n)).toBe(1);
  });

  it('approveSubmission leaves nothing behind when the status update fails', async () => {
    const row = await insertSubmission(t.db, input());
    // A trigger makes the second statement of the transaction fail.
    await t.client.execute(
      `CREATE TRIGGER block_approve BEFORE UPDATE OF status ON server_submissions WHEN NEW.status = 'approved'
       BEGIN SELECT RAISE(ABORT, 'blocked'); END`,
    );
    await expect(approveSubmission(t.db, row.id)).rejects.toThrow();
    const n = await t.client.execute('SELECT count(*) AS n FROM discord_servers');
    expect(Number(n.rows[0]!.n)).toBe(0);
    expect((await getSubmissionById(t.db, row.id))?.status).toBe('pending');
  });

  it('deleteSubmission removes the row and says whether it did', async () => {
    const row = await insertSubmission(t.db, input());
    expect(await deleteSubmission(t.db, row.id)).toBe(true);
    expect(await deleteSubmission(t.db, row.id)).toBe(false);
    expect(await getSubmissionById(t.db, row.id)).toBeNull();
  });

  it('getSubmissionStats counts the total and each status', async () => {
    expect(await getSubmissionStats(t.db)).toEqual({ total: 0, pending: 0, under_review: 0, approved: 0, rejected: 0 });
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await insertSubmission(t.db, input({ server_name: `S${i}` }))).id);
    await updateSubmissionStatus(t.db, ids[0]!, 'rejected');
    await updateSubmissionStatus(t.db, ids[1]!, 'under_review');
    await approveSubmission(t.db, ids[2]!);
    expect(await getSubmissionStats(t.db)).toEqual({ total: 5, pending: 2, under_review: 1, approved: 1, rejected: 1 });
  });
});
