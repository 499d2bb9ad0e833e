// Reasons and appeals (#32): a rejection picks reasons (a requirement named) and may add a note; the
// mail gives them with a signed appeal link; one appeal per decision without an account; another
// moderator decides it; the outcome is mailed; hiding a live listing works the same way; every
// action is audited in the batch of its write.
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { listMails } from '../../db/queries/mail';
import { auditLog, discordServers, moderationDecisions, serverSubmissions } from '../../db/schema';
import { createAdminHarness } from '../helpers/admin';
import { countRows, postForm, postJson, seedServer, validSubmission } from './api-harness';

let h: Awaited<ReturnType<typeof createAdminHarness>>;
afterEach(() => h.cleanup());

async function submitted(name = 'Appealing Guild') {
  const res = await postJson(h.app, '/api/submissions', validSubmission({ server_name: name }));
  expect(res.status).toBe(201);
  return ((await res.json()) as { submission: { id: number } }).submission.id;
}

/** The appeal link's path and token from the newest mail of `kind`. */
async function appealLinkOf(kind: 'submission_rejected' | 'listing_hidden') {
  const [mail] = (await listMails(h.db, { kind })).mails;
  const url = /http:\/\/localhost:4321(\/appeal\?token=(\S+))/.exec(mail!.text_body);
  expect(url).not.toBeNull();
  return { mail: mail!, token: decodeURIComponent(url![2]!) };
}

const actions = async () => (await h.db.select().from(auditLog)).map((a) => a.action);

describe('a rejection with reasons', () => {
  it('needs at least one reason, and names the requirement a "requirement" reason is about', async () => {
    h = await createAdminHarness({ env: { RATE_LIMITS: 'false' } });
    const id = await submitted();
    const mod = await h.signIn('moderator');
    const none = await h.call(mod, 'PATCH', `/api/admin/submissions/${id}`, { status: 'rejected' });
    expect(none.status).toBe(400);
    expect(((await none.json()) as { error: { issues: { path: string }[] } }).error.issues[0]!.path).toBe('reasons');
    const unnamed = await h.call(mod, 'PATCH', `/api/admin/submissions/${id}`, {
      status: 'rejected',
      reasons: ['requirement'],
    });
    expect(unnamed.status).toBe(400);
    expect(((await unnamed.json()) as { error: { issues: { path: string }[] } }).error.issues[0]!.path).toBe(
      'requirement',
    );
    const unknown = await h.call(mod, 'PATCH', `/api/admin/submissions/${id}`, {
      status: 'rejected',
      reasons: ['because'],
    });
    expect(unknown.status).toBe(400);
    // Nothing was decided, mailed or audited.
    expect(await countRows(h.client, 'moderation_decisions')).toBe(0);
    expect((await listMails(h.db, { kind: 'submission_rejected' })).mails).toEqual([]);
    expect(await actions()).not.toContain('reject');
  });

  it('mails the reasons (the requirement linked), the note and a signed appeal link; decision, status and audit row together', async () => {
    h = await createAdminHarness({ env: { RATE_LIMITS: 'false' } });
    const id = await submitted();
    const mod = await h.signIn('moderator');
    const res = await h.call(mod, 'PATCH', `/api/admin/submissions/${id}`, {
      status: 'rejected',
      reasons: ['requirement', 'misleading'],
      requirement: 'members',
      admin_notes: 'The member count in the description is not the real one.',
    });
    expect(res.status).toBe(200);
    const { mail } = await appealLinkOf('submission_rejected');
    expect(mail.to_address).toBe('owner@example.com');
    expect(mail.text_body).toContain(
      '- Does not meet a requirement: At least 50 members (http://localhost:4321/requirements#members)',
    );
    expect(mail.text_body).toContain('- Misleading description');
    expect(mail.text_body).toContain('> The member count in the description is not the real one.');
    const [row] = await h.db.select().from(serverSubmissions).where(eq(serverSubmissions.id, id));
    expect(row).toMatchObject({ status: 'rejected' });
    expect(row!.decided_at).not.toBeNull();
    const [decision] = await h.db.select().from(moderationDecisions);
    expect(decision).toMatchObject({ kind: 'rejection', submission_id: id, reasons: ['requirement', 'misleading'] });
    const [audit] = await h.db.select().from(auditLog).where(eq(auditLog.action, 'reject'));
    expect(audit?.details).toMatchObject({ reasons: ['requirement', 'misleading'], requirement: 'members' });
    expect(audit?.details?.decision_id).toBe(decision!.id);
  });
});

describe('an appeal round trip', () => {
  it('one appeal through the signed link, decided by another moderator, the outcome mailed and the submission back in the queue', async () => {
    h = await createAdminHarness({ env: { RATE_LIMITS: 'false' } });
    const id = await submitted();
    const first = await h.signIn('moderator');
    await h.call(first, 'PATCH', `/api/admin/submissions/${id}`, { status: 'rejected', reasons: ['scam_risk'] });
    const { token } = await appealLinkOf('submission_rejected');

    // A forged or mangled code is refused; the link's code works once, without an account.
    const forged = await postJson(h.app, '/api/moderation/appeals', {
      token: `${token.split('.')[0]}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`,
      appeal: 'This is a real community, not a scam.',
    });
    expect(forged.status).toBe(404);
    const tooLong = await postJson(h.app, '/api/moderation/appeals', { token, appeal: 'x'.repeat(1001) });
    expect(tooLong.status).toBe(400);
    const appeal = await postJson(h.app, '/api/moderation/appeals', {
      token,
      appeal: 'This is a real community, not a scam: see our rules channel.',
    });
    expect(appeal.status).toBe(201);
    const again = await postForm(h.app, '/api/moderation/appeals', { token, appeal: 'A second appeal of it.' });
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toMatch(/^\/appeal\?error=already_appealed/);

    // The queue shows it; the moderator who rejected it may not decide it while another exists.
    const queue = (await (await h.call(first, 'GET', '/api/admin/appeals')).json()) as {
      appeals: { id: number; appeal_text: string; decided_by_me: boolean; reasons: string[] }[];
    };
    expect(queue.appeals).toEqual([
      expect.objectContaining({
        appeal_text: 'This is a real community, not a scam: see our rules channel.',
        decided_by_me: true,
        refused: null,
        reasons: ['Scam risk'],
      }),
    ]);
    const decisionId = queue.appeals[0]!.id;
    const second = await h.signIn('moderator');
    // Once another operator exists, the queue says why its buttons are off for the one who decided.
    const mine = (await (await h.call(first, 'GET', '/api/admin/appeals')).json()) as {
      appeals: { refused: string | null }[];
    };
    expect(mine.appeals[0]!.refused).toBe('You made this decision: another moderator decides its appeal.');
    const theirs = (await (await h.call(second, 'GET', '/api/admin/appeals')).json()) as {
      appeals: { refused: string | null }[];
    };
    expect(theirs.appeals[0]!.refused).toBeNull();
    const own = await h.call(first, 'POST', `/api/admin/appeals/${decisionId}`, { outcome: 'overturned' });
    expect(own.status).toBe(409);
    expect(((await own.json()) as { error: { code: string } }).error.code).toBe('another_moderator');

    const decided = await h.call(second, 'POST', `/api/admin/appeals/${decisionId}`, {
      outcome: 'overturned',
      note: 'Checked the rules channel: fine.',
    });
    expect(decided.status).toBe(200);
    expect((await h.call(second, 'POST', `/api/admin/appeals/${decisionId}`, { outcome: 'upheld' })).status).toBe(409);
    const [row] = await h.db.select().from(serverSubmissions).where(eq(serverSubmissions.id, id));
    expect(row).toMatchObject({ status: 'pending', decided_at: null });
    const [outcome] = (await listMails(h.db, { kind: 'appeal_decided' })).mails;
    expect(outcome?.to_address).toBe('owner@example.com');
    expect(outcome?.subject).toMatch(/decision overturned/);
    expect(outcome?.text_body).toContain('back in the review queue');
    expect(outcome?.text_body).toContain('> Checked the rules channel: fine.');
    expect(await actions()).toEqual(expect.arrayContaining(['reject', 'appeal', 'appeal_overturned']));
    expect(
      ((await (await h.call(second, 'GET', '/api/admin/appeals')).json()) as { appeals: unknown[] }).appeals,
    ).toEqual([]);
  });

  it('the moderator who decided may decide the appeal when no other operator exists', async () => {
    h = await createAdminHarness({ env: { RATE_LIMITS: 'false' } });
    const id = await submitted();
    const only = await h.signIn('admin');
    await h.call(only, 'PATCH', `/api/admin/submissions/${id}`, { status: 'rejected', reasons: ['duplicate'] });
    const { token } = await appealLinkOf('submission_rejected');
    expect(
      (await postJson(h.app, '/api/moderation/appeals', { token, appeal: 'Not a duplicate at all.' })).status,
    ).toBe(201);
    const [decision] = await h.db.select().from(moderationDecisions);
    const res = await h.call(only, 'POST', `/api/admin/appeals/${decision!.id}`, { outcome: 'upheld' });
    expect(res.status).toBe(200);
    const [row] = await h.db.select().from(serverSubmissions).where(eq(serverSubmissions.id, id));
    expect(row!.status).toBe('rejected');
    expect((await listMails(h.db, { kind: 'appeal_decided' })).mails[0]?.subject).toMatch(/decision upheld/);
  });
});

describe('hiding a live listing', () => {
  it('needs a reason, mails the owner the reasons with an appeal link, and an overturned appeal shows it again', async () => {
    h = await createAdminHarness({ env: { RATE_LIMITS: 'false' } });
    const id = await submitted('Hidden Guild');
    const first = await h.signIn('moderator');
    const approved = await h.call(first, 'POST', `/api/admin/submissions/${id}/approve`, {});
    const { server } = (await approved.json()) as { server: { id: number; slug: string } };
    const path = `/api/admin/servers/${server.id}/visibility`;
    expect((await h.call(first, 'PATCH', path, { is_active: false })).status).toBe(400);
    const [still] = await h.db.select().from(discordServers).where(eq(discordServers.id, server.id));
    expect(still!.is_active).toBe(true);

    const hide = await h.call(first, 'PATCH', path, {
      is_active: false,
      reasons: ['misleading'],
      note: 'Fake numbers.',
    });
    expect(hide.status).toBe(200);
    const { mail, token } = await appealLinkOf('listing_hidden');
    expect(mail.to_address).toBe('owner@example.com');
    expect(mail.text_body).toContain('- Misleading description');
    expect(mail.text_body).toContain('> Fake numbers.');
    const [audit] = await h.db.select().from(auditLog).where(eq(auditLog.action, 'hide'));
    expect(audit?.details).toMatchObject({ slug: server.slug, reasons: ['misleading'] });

    expect(
      (await postJson(h.app, '/api/moderation/appeals', { token, appeal: 'The numbers are from Discord.' })).status,
    ).toBe(201);
    const second = await h.signIn('moderator');
    const [decision] = await h.db.select().from(moderationDecisions);
    expect((await h.call(second, 'POST', `/api/admin/appeals/${decision!.id}`, { outcome: 'overturned' })).status).toBe(
      200,
    );
    const [shown] = await h.db.select().from(discordServers).where(eq(discordServers.id, server.id));
    expect(shown!.is_active).toBe(true);
    expect((await listMails(h.db, { kind: 'appeal_decided' })).mails[0]?.text_body).toContain('visible again');
    expect(h.rebuild.reasons).toContain(`appeal showed ${server.slug} again`);
  });

  it('says whether anyone was mailed: a listing with no contact address on record is hidden with nobody mailed', async () => {
    h = await createAdminHarness({ env: { RATE_LIMITS: 'false' } });
    const mod = await h.signIn('moderator');
    // From a submission: its contact address is mailed.
    const id = await submitted('Mailed Guild');
    const approved = await h.call(mod, 'POST', `/api/admin/submissions/${id}/approve`, {});
    const { server: fromForm } = (await approved.json()) as { server: { id: number } };
    const mailed = await h.call(mod, 'PATCH', `/api/admin/servers/${fromForm.id}/visibility`, {
      is_active: false,
      reasons: ['misleading'],
    });
    expect(mailed.status).toBe(200);
    expect(await mailed.json()).toMatchObject({ owner_mailed: true });
    // Added in the console (no submission, no contact address): hidden, and nobody is mailed.
    const bare = await seedServer(h.db, { name: 'No Contact Guild' });
    const hidden = await h.call(mod, 'PATCH', `/api/admin/servers/${bare.id}/visibility`, {
      is_active: false,
      reasons: ['misleading'],
    });
    expect(hidden.status).toBe(200);
    expect(await hidden.json()).toMatchObject({ owner_mailed: false, server: { is_active: false } });
    // The same from a report.
    const other = await seedServer(h.db, { name: 'Reported Guild' });
    expect((await postJson(h.app, '/api/reports', { server_id: other.id, reason: 'spam' })).status).toBe(201);
    const [report] = (await h.client.execute('SELECT id FROM server_reports WHERE server_id = ?', [other.id])).rows;
    const fromReport = await h.call(mod, 'PATCH', `/api/admin/reports/${report!.id}`, { action: 'hide_server' });
    expect(fromReport.status).toBe(200);
    expect(await fromReport.json()).toMatchObject({ owner_mailed: false, report: { status: 'resolved' } });
    expect((await listMails(h.db, { kind: 'listing_hidden' })).mails.map((m) => m.to_address)).toEqual([
      'owner@example.com',
    ]);
  });
});

describe('an overturned appeal lifts only its own decision', () => {
  it('a listing hidden again by a later decision stays hidden when the older hide is overturned', async () => {
    h = await createAdminHarness({ env: { RATE_LIMITS: 'false' } });
    const id = await submitted('Twice Hidden Guild');
    const first = await h.signIn('moderator');
    const approved = await h.call(first, 'POST', `/api/admin/submissions/${id}/approve`, {});
    const { server } = (await approved.json()) as { server: { id: number; slug: string } };
    const path = `/api/admin/servers/${server.id}/visibility`;
    // Hidden, shown again by hand, then hidden again for another reason: the later hide stands.
    expect((await h.call(first, 'PATCH', path, { is_active: false, reasons: ['misleading'] })).status).toBe(200);
    const { token } = await appealLinkOf('listing_hidden');
    expect((await h.call(first, 'PATCH', path, { is_active: true })).status).toBe(200);
    expect((await h.call(first, 'PATCH', path, { is_active: false, reasons: ['scam_risk'] })).status).toBe(200);
    expect(
      (await postJson(h.app, '/api/moderation/appeals', { token, appeal: 'The numbers were right.' })).status,
    ).toBe(201);
    const [older] = await h.db
      .select()
      .from(moderationDecisions)
      .where(eq(moderationDecisions.reasons, ['misleading']));
    const second = await h.signIn('moderator');
    const res = await h.call(second, 'POST', `/api/admin/appeals/${older!.id}`, { outcome: 'overturned' });
    expect(res.status).toBe(200);
    const [row] = await h.db.select().from(discordServers).where(eq(discordServers.id, server.id));
    expect(row!.is_active).toBe(false);
    const { appeal } = (await res.json()) as { appeal: { lifted: boolean; standing_decision_id: number } };
    expect(appeal.lifted).toBe(false);
    expect(appeal.standing_decision_id).toBeGreaterThan(older!.id);
    const [mail] = (await listMails(h.db, { kind: 'appeal_decided' })).mails;
    expect(mail?.text_body).not.toContain('visible again');
    expect(mail?.text_body).toContain('stays hidden');
    expect(h.rebuild.reasons).not.toContain(`appeal showed ${server.slug} again`);
    const [audit] = await h.db.select().from(auditLog).where(eq(auditLog.action, 'appeal_overturned'));
    expect(audit?.details).toMatchObject({ server_id: server.id, lifted: false });
  });

  it('a submission rejected again by a later decision stays rejected when the older rejection is overturned', async () => {
    h = await createAdminHarness({ env: { RATE_LIMITS: 'false' } });
    const id = await submitted();
    const first = await h.signIn('moderator');
    const reject = (reasons: string[]) =>
      h.call(first, 'PATCH', `/api/admin/submissions/${id}`, { status: 'rejected', reasons });
    expect((await reject(['duplicate'])).status).toBe(200);
    const { token } = await appealLinkOf('submission_rejected');
    expect((await h.call(first, 'PATCH', `/api/admin/submissions/${id}`, { status: 'pending' })).status).toBe(200);
    expect((await reject(['scam_risk'])).status).toBe(200);
    expect((await postJson(h.app, '/api/moderation/appeals', { token, appeal: 'Not a duplicate.' })).status).toBe(201);
    const [older] = await h.db
      .select()
      .from(moderationDecisions)
      .where(eq(moderationDecisions.reasons, ['duplicate']));
    const second = await h.signIn('moderator');
    expect((await h.call(second, 'POST', `/api/admin/appeals/${older!.id}`, { outcome: 'overturned' })).status).toBe(
      200,
    );
    const [row] = await h.db.select().from(serverSubmissions).where(eq(serverSubmissions.id, id));
    expect(row!.status).toBe('rejected');
    const [mail] = (await listMails(h.db, { kind: 'appeal_decided' })).mails;
    expect(mail?.text_body).not.toContain('back in the review queue');
  });
});
