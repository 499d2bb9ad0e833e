// The public moderation log (#32): its monthly counts, after real decisions through the API, are
// the audit log's (approvals, rejections and hides by reason, appeals and outcomes), the
// submissions' (received, median decision time) and the reports' (received, acted on).
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { listMails } from '../../db/queries/mail';
import { readModerationLog } from '../../db/queries/moderation';
import { auditLog, moderationDecisions, serverReports } from '../../db/schema';
import { monthLog } from '../../src/lib/moderation/log';
import { createAdminHarness } from '../helpers/admin';
import { postJson, validSubmission } from './api-harness';

let h: Awaited<ReturnType<typeof createAdminHarness>>;
afterEach(() => h.cleanup());

describe('the moderation log', () => {
  it('counts each month from the decisions themselves, and its counts are the audit log’s', async () => {
    h = await createAdminHarness({ env: { RATE_LIMITS: 'false' } });
    const ids: number[] = [];
    for (const name of ['Log One', 'Log Two', 'Log Three', 'Log Four']) {
      const res = await postJson(h.app, '/api/submissions', validSubmission({ server_name: name }));
      ids.push(((await res.json()) as { submission: { id: number } }).submission.id);
    }
    const first = await h.signIn('moderator');
    const second = await h.signIn('moderator');
    const approved = await h.call(first, 'POST', `/api/admin/submissions/${ids[0]}/approve`, {});
    const { server } = (await approved.json()) as { server: { id: number } };
    // A report on the live listing, acted on; another left open.
    for (const reason of ['spam', 'inactive_server']) {
      const res = await postJson(h.app, '/api/reports', { server_id: server.id, reason });
      expect(res.status).toBe(201);
    }
    const reports = (await (await h.call(first, 'GET', '/api/admin/reports')).json()) as {
      groups: { reports: { id: number }[] }[];
    };
    const reportId = reports.groups[0]!.reports[0]!.id;
    expect((await h.call(first, 'PATCH', `/api/admin/reports/${reportId}`, { action: 'resolve' })).status).toBe(200);
    await h.call(first, 'PATCH', `/api/admin/submissions/${ids[1]}`, {
      status: 'rejected',
      reasons: ['scam_risk', 'misleading'],
    });
    await h.call(first, 'PATCH', `/api/admin/submissions/${ids[2]}`, { status: 'rejected', reasons: ['scam_risk'] });
    await h.call(second, 'PATCH', `/api/admin/servers/${server.id}/visibility`, {
      is_active: false,
      reasons: ['duplicate'],
    });
    // One appeal, upheld by the other moderator.
    const [mail] = (await listMails(h.db, { kind: 'submission_rejected' })).mails;
    const token = decodeURIComponent(/\/appeal\?token=(\S+)/.exec(mail!.text_body)![1]!);
    expect(
      (await postJson(h.app, '/api/moderation/appeals', { token, appeal: 'Please look again at it.' })).status,
    ).toBe(201);
    const [decision] = await h.db
      .select()
      .from(moderationDecisions)
      .where(eq(moderationDecisions.appeal_key, token.split('.')[0]!));
    expect((await h.call(second, 'POST', `/api/admin/appeals/${decision!.id}`, { outcome: 'upheld' })).status).toBe(
      200,
    );

    const log = await readModerationLog(h.db);
    expect(log).toHaveLength(1);
    const [month] = log;
    // The same counts, read from the audit log directly.
    const audit = await h.db.select().from(auditLog);
    const count = (action: string, entity: string) =>
      audit.filter((a) => a.action === action && a.entity === entity).length;
    const reasonsOf = (action: string) => {
      const by: Record<string, number> = {};
      for (const a of audit.filter((x) => x.action === action))
        for (const r of (a.details?.reasons as string[]) ?? []) by[r] = (by[r] ?? 0) + 1;
      return by;
    };
    expect(month).toMatchObject({
      month: new Date().toISOString().slice(0, 7),
      received: 4,
      approved: count('approve', 'submission'),
      rejected: count('reject', 'submission'),
      rejectedBy: reasonsOf('reject'),
      hidden: count('hide', 'server'),
      hiddenBy: reasonsOf('hide'),
      appeals: count('appeal', 'decision'),
      upheld: count('appeal_upheld', 'decision'),
      overturned: count('appeal_overturned', 'decision'),
      reportsReceived: 2,
      // Acted on: the reports closed as resolved, each once.
      reportsActedOn: (await h.db.select().from(serverReports).where(eq(serverReports.status, 'resolved'))).length,
    });
    expect(month).toMatchObject({
      approved: 1,
      rejected: 2,
      rejectedBy: { scam_risk: 2, misleading: 1 },
      hidden: 1,
      hiddenBy: { duplicate: 1 },
      appeals: 1,
      upheld: 1,
      overturned: 0,
      reportsActedOn: 1,
    });
    expect(month!.medianDecisionMs).not.toBeNull();
    // Counts only: nothing of a name, an address or a note.
    const text = JSON.stringify(log);
    for (const secret of ['Log One', 'Log Two', 'owner@example.com', 'Ada']) expect(text).not.toContain(secret);
  });

  it('counts each report acted on once: all the reports a hide answers, and a report clicked twice once', async () => {
    h = await createAdminHarness({ env: { RATE_LIMITS: 'false' } });
    const sub = await postJson(h.app, '/api/submissions', validSubmission({ server_name: 'Reported One' }));
    const { submission } = (await sub.json()) as { submission: { id: number } };
    const mod = await h.signIn('moderator');
    const approved = await h.call(mod, 'POST', `/api/admin/submissions/${submission.id}/approve`, {});
    const { server } = (await approved.json()) as { server: { id: number } };
    for (const reason of ['spam', 'misleading_info', 'other', 'broken_link'])
      expect((await postJson(h.app, '/api/reports', { server_id: server.id, reason })).status).toBe(201);
    const open = (await (await h.call(mod, 'GET', '/api/admin/reports')).json()) as {
      groups: { reports: { id: number }[] }[];
    };
    const [first, second] = open.groups[0]!.reports;
    // One report resolved, and resolved again (a second click, refused); then a hide answers the other three.
    expect((await h.call(mod, 'PATCH', `/api/admin/reports/${first!.id}`, { action: 'resolve' })).status).toBe(200);
    expect((await h.call(mod, 'PATCH', `/api/admin/reports/${first!.id}`, { action: 'resolve' })).status).toBe(409);
    expect(
      (
        await h.call(mod, 'PATCH', `/api/admin/reports/${second!.id}`, {
          action: 'hide_server',
          reasons: ['scam_risk'],
        })
      ).status,
    ).toBe(200);
    const [month] = await readModerationLog(h.db);
    expect(month).toMatchObject({ reportsReceived: 4, reportsActedOn: 4, hidden: 1 });
  });

  it('groups fixed events by month, newest first, with hand-computed medians', () => {
    const H = 3_600_000;
    const log = monthLog([
      { month: '2026-10', kind: 'received' },
      { month: '2026-10', kind: 'decision', ms: 2 * H },
      { month: '2026-10', kind: 'decision', ms: 4 * H },
      { month: '2026-11', kind: 'decision', ms: 1 * H },
      { month: '2026-11', kind: 'decision', ms: 10 * H },
      { month: '2026-11', kind: 'decision', ms: 3 * H },
      { month: '2026-11', kind: 'rejected', reasons: ['other', 'other'] },
      { month: '2026-11', kind: 'hidden', reasons: [] },
      { month: '2026-11', kind: 'report' },
      { month: '2026-11', kind: 'acted' },
    ]);
    expect(log.map((m) => [m.month, m.medianDecisionMs, m.received])).toEqual([
      ['2026-11', 3 * H, 0],
      ['2026-10', 3 * H, 1],
    ]);
    expect(log[0]).toMatchObject({
      rejected: 1,
      rejectedBy: { other: 1 },
      hidden: 1,
      hiddenBy: { 'not recorded': 1 },
      reportsReceived: 1,
      reportsActedOn: 1,
    });
  });
});
