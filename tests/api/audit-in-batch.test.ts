import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { listAudit } from '../../db/queries/audit';
import { createContactMessage } from '../../db/queries/contact';
import { saveListingEdit } from '../../db/queries/listing-edits';
import { subscribeEmail } from '../../db/queries/newsletter';
import { createReport } from '../../db/queries/reports';
import { createServer, getServerById } from '../../db/queries/servers';
import { insertCheckedSubmission, insertSubmission } from '../../db/queries/submissions';
import {
  auditLog,
  contactMessages,
  discordServers,
  listingEdits,
  newsletterSubscribers,
  orders,
  ownerUsers,
  plans,
  serverFlags,
  serverReports,
  serverSlugs,
  serverSubmissions,
  siteContent,
} from '../../db/schema';
import { consoleListing, createAdminHarness } from '../helpers/admin';

let h: Awaited<ReturnType<typeof createAdminHarness>>;
afterEach(() => h?.cleanup());

const submission = (guild: string) => ({
  server_name: `Batch Guild ${guild}`,
  server_description: 'A guild whose approval is written all at once.',
  category: 'Gaming',
  invite_link: `https://discord.gg/batch${guild}`,
  server_image: 'https://cdn.example.com/batch.png',
  contact_email: 'owner@example.com',
  member_count: 900,
  active_users: 90,
  submitter_name: 'Ana',
  is_owner: true,
  guild_id: `55500000000000000${guild}`,
});

/** A listing's fields as the console sends them. */
const LISTING = consoleListing();

/** Makes every audit_log insert fail (as a crash or a full disk would), until `allowAudit`. */
const refuseAudit = () =>
  h.db.run(
    sql`CREATE TRIGGER audit_refused BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'audit refused'); END`,
  );
const allowAudit = () => h.db.run(sql`DROP TRIGGER audit_refused`);

/**
 * Each console write once while every audit row fails (500, and `snapshot` unchanged: nothing
 * written), then again with the audit allowed (each answered with its status).
 */
async function refusedThenAudited(
  session: Parameters<typeof h.call>[0],
  writes: [string, string, unknown, number][],
  snapshot: () => Promise<unknown>,
) {
  const before = await snapshot();
  await refuseAudit();
  for (const [method, path, body] of writes) {
    expect([method, path, (await h.call(session, method, path, body)).status]).toEqual([method, path, 500]);
  }
  expect(await snapshot()).toEqual(before);
  await allowAudit();
  for (const [method, path, body, status] of writes) {
    expect([method, path, (await h.call(session, method, path, body)).status]).toEqual([method, path, status]);
  }
}

describe('an audit row is written in the batch of the write it records', () => {
  it('an approval whose audit row fails leaves no listing, no approval and no mail; a good one writes all of them', async () => {
    h = await createAdminHarness();
    const stored = await insertCheckedSubmission(h.db, submission('1'));
    if (!stored.ok) throw new Error('not stored');
    const s = await h.signIn('moderator');
    const audited = (await listAudit(h.db)).total;

    await refuseAudit();
    const refused = await h.call(s, 'POST', `/api/admin/submissions/${stored.submission.id}/approve`, {});
    expect(refused.status).toBe(500);
    const [row] = await h.db.select().from(serverSubmissions).where(eq(serverSubmissions.id, stored.submission.id));
    expect(row).toMatchObject({ status: 'pending', server_id: null });
    expect(await h.db.select().from(discordServers)).toEqual([]);
    expect((await h.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM mail_outbox`))[0]!.n).toBe(0);
    expect((await listAudit(h.db)).total).toBe(audited);

    await allowAudit();
    const approved = await h.call(s, 'POST', `/api/admin/submissions/${stored.submission.id}/approve`, {});
    expect(approved.status).toBe(200);
    const { server } = (await approved.json()) as { server: { id: number; slug: string } };
    const [entry] = await h.db.select().from(auditLog).where(eq(auditLog.action, 'approve'));
    expect(entry).toMatchObject({
      entity: 'submission',
      entity_id: String(stored.submission.id),
      details: { server_id: server.id, slug: server.slug },
    });
    expect(entry!.operator_email).toMatch(/^moderator-/);

    // A second approval approves nothing and audits nothing.
    expect((await h.call(s, 'POST', `/api/admin/submissions/${stored.submission.id}/approve`, {})).status).toBe(409);
    expect(await h.db.select().from(auditLog).where(eq(auditLog.action, 'approve'))).toHaveLength(1);
  });

  it("an owner's submission whose audit row fails is not stored; a good one is audited with its id", async () => {
    h = await createAdminHarness();
    const author = { operatorId: null, name: 'owner ana (Discord 42)' };
    const audit = { author, details: { owner_id: 7, proof: 'manage_guild' } };
    await refuseAudit();
    await expect(insertCheckedSubmission(h.db, submission('2'), undefined, audit)).rejects.toThrow(/audit refused/);
    expect(await h.db.select().from(serverSubmissions)).toEqual([]);

    await allowAudit();
    const stored = await insertCheckedSubmission(h.db, submission('2'), undefined, audit);
    if (!stored.ok) throw new Error('not stored');
    const rows = await h.db.select().from(auditLog).where(eq(auditLog.action, 'owner_submit'));
    expect(rows).toEqual([
      expect.objectContaining({
        operator_id: null,
        operator_email: 'owner ana (Discord 42)',
        entity: 'submission',
        entity_id: String(stored.submission.id),
        details: { owner_id: 7, proof: 'manage_guild' },
      }),
    ]);
    // The same guild again is refused as pending, and audits nothing.
    expect(await insertCheckedSubmission(h.db, submission('2'), undefined, audit)).toEqual({
      ok: false,
      taken: 'pending',
    });
    expect(await h.db.select().from(auditLog).where(eq(auditLog.action, 'owner_submit'))).toHaveLength(1);
  });
});

describe('a report action is one write: the report, the hide and the audit rows', () => {
  const listing = LISTING;
  const reportStatuses = async () =>
    (await h.db.select().from(serverReports).orderBy(serverReports.id)).map((r) => r.status);

  it('a hide that fails leaves every report open and audits nothing; a good one resolves them all with the audit', async () => {
    h = await createAdminHarness();
    const s = await h.signIn('moderator');
    const server = await createServer(h.db, { ...listing, name: 'Reported Place' });
    const first = await createReport(h.db, { server_id: server.id, reason: 'spam', details: 'bots' });
    await createReport(h.db, { server_id: server.id, reason: 'broken_link', details: null });

    await h.db.run(
      sql`CREATE TRIGGER hide_refused BEFORE UPDATE OF is_active ON discord_servers BEGIN SELECT RAISE(ABORT, 'hide refused'); END`,
    );
    expect((await h.call(s, 'PATCH', `/api/admin/reports/${first.id}`, { action: 'hide_server' })).status).toBe(500);
    expect(await reportStatuses()).toEqual(['open', 'open']);
    expect((await getServerById(h.db, server.id))?.is_active).toBe(true);
    expect(await h.db.select().from(auditLog)).toEqual([expect.objectContaining({ action: 'login' })]);

    await h.db.run(sql`DROP TRIGGER hide_refused`);
    await refuseAudit();
    expect((await h.call(s, 'PATCH', `/api/admin/reports/${first.id}`, { action: 'hide_server' })).status).toBe(500);
    expect(await reportStatuses()).toEqual(['open', 'open']);
    expect((await getServerById(h.db, server.id))?.is_active).toBe(true);

    await allowAudit();
    const hidden = await h.call(s, 'PATCH', `/api/admin/reports/${first.id}`, { action: 'hide_server' });
    expect(hidden.status).toBe(200);
    expect(((await hidden.json()) as { report: { status: string } }).report.status).toBe('resolved');
    expect(await reportStatuses()).toEqual(['resolved', 'resolved']);
    expect((await getServerById(h.db, server.id))?.is_active).toBe(false);
    const rows = await h.db.select().from(auditLog).where(sql`${auditLog.action} != 'login'`);
    expect(rows.map((r) => [r.action, r.entity, r.entity_id])).toEqual([
      ['hide', 'server', String(server.id)],
      ['hide_server', 'report', String(first.id)],
    ]);
    expect(rows[1]!.details).toEqual({ server_id: server.id, reason: 'spam' });
  });

  it('a dismissal whose audit row fails leaves the report open', async () => {
    h = await createAdminHarness();
    const s = await h.signIn('moderator');
    const server = await createServer(h.db, { ...listing, name: 'Quiet Place' });
    const report = await createReport(h.db, { server_id: server.id, reason: 'other', details: null });
    await refuseAudit();
    expect((await h.call(s, 'PATCH', `/api/admin/reports/${report.id}`, { action: 'dismiss' })).status).toBe(500);
    expect(await reportStatuses()).toEqual(['open']);
    await allowAudit();
    expect((await h.call(s, 'PATCH', `/api/admin/reports/${report.id}`, { action: 'dismiss' })).status).toBe(200);
    expect(await reportStatuses()).toEqual(['dismissed']);
    expect(await h.db.select().from(auditLog).where(eq(auditLog.entity, 'report'))).toHaveLength(1);
  });
});

describe("an owner's edit approved is one write: the decision, the listing's change and the audit row", () => {
  it('an approval whose listing update fails leaves the edit pending, the listing as it was and no audit row; a good one writes all three', async () => {
    h = await createAdminHarness();
    const s = await h.signIn('moderator');
    const listing = await createServer(h.db, { ...LISTING, name: 'Owned Place' });
    const [owner] = await h.db
      .insert(ownerUsers)
      .values({ discord_user_id: '700000000000000010', username: 'owner' })
      .returning();
    const edit = await saveListingEdit(h.db, listing.id, owner!.id, {
      description: { from: 'Signals and charts.', to: 'Charts, every day.' },
      tags: { from: [], to: ['charts'] },
    });
    const state = async () => ({
      edit: (await h.db.select().from(listingEdits).where(eq(listingEdits.id, edit.id)))[0]?.status,
      listing: await getServerById(h.db, listing.id).then((l) => [l?.description, l?.tags]),
      audited: (await h.db.select().from(auditLog).where(eq(auditLog.entity, 'listing_edit'))).length,
    });

    await h.db.run(
      sql`CREATE TRIGGER listing_refused BEFORE UPDATE OF description ON discord_servers BEGIN SELECT RAISE(ABORT, 'listing refused'); END`,
    );
    expect((await h.call(s, 'POST', `/api/admin/edits/${edit.id}/approve`, {})).status).toBe(500);
    expect(await state()).toEqual({ edit: 'pending', listing: ['Signals and charts.', []], audited: 0 });

    await h.db.run(sql`DROP TRIGGER listing_refused`);
    const approved = await h.call(s, 'POST', `/api/admin/edits/${edit.id}/approve`, {});
    expect(approved.status).toBe(200);
    expect(((await approved.json()) as { server: { description: string } }).server.description).toBe(
      'Charts, every day.',
    );
    expect(await state()).toEqual({ edit: 'approved', listing: ['Charts, every day.', ['charts']], audited: 1 });
    expect(h.rebuild.reasons).toEqual([`owner edit of ${listing.slug} approved`]);
    // A second decision writes nothing more.
    expect((await h.call(s, 'POST', `/api/admin/edits/${edit.id}/reject`, {})).status).toBe(409);
    expect((await state()).audited).toBe(1);
  });
});

describe('every console write is audited in its own batch', () => {
  it('each write whose audit row fails changes nothing; each good one is audited', async () => {
    h = await createAdminHarness();
    const s = await h.signIn('admin');
    const sub = await insertSubmission(h.db, { ...submission('3'), guild_id: null });
    const doomed = await insertSubmission(h.db, { ...submission('4'), guild_id: null });
    const [content] = await h.db
      .insert(siteContent)
      .values({ page: 'home', section: 'hero', content_key: 'title', content_value: 'Hello', is_active: true })
      .returning();
    const message = await createContactMessage(h.db, {
      name: 'Ana',
      email: 'ana@example.com',
      subject: 'general',
      message: 'Hello there, a question.',
      priority: 'normal',
    });
    const subscriber = await subscribeEmail(h.db, 'reader@example.com');
    if (!subscriber.ok) throw new Error('not subscribed');
    const listing = await createServer(h.db, {
      ...LISTING,
      name: 'Edited Place',
      affiliate_link: 'https://discord.gg/edited',
    });
    const [owner] = await h.db
      .insert(ownerUsers)
      .values({ discord_user_id: '700000000000000009', username: 'o' })
      .returning();
    const approvedEdit = await saveListingEdit(h.db, listing.id, owner!.id, {
      description: { from: 'Signals and charts.', to: 'Charts only.' },
    });
    const [flag] = await h.db
      .insert(serverFlags)
      .values({ server_id: listing.id, rule: 'spike_no_presence', detail: 'Members rose.' })
      .returning();

    const writes: [string, string, unknown][] = [
      ['PATCH', `/api/admin/submissions/${sub.id}`, { status: 'under_review' }],
      ['DELETE', `/api/admin/submissions/${doomed.id}`, undefined],
      ['POST', '/api/admin/content', { page: 'home', section: 'hero', content_key: 'sub', content_value: 'Hi' }],
      [
        'PUT',
        `/api/admin/content/${content!.id}`,
        { page: 'home', section: 'hero', content_key: 'title', content_value: 'Changed' },
      ],
      ['POST', `/api/admin/content/${content!.id}/toggle`, undefined],
      ['PATCH', `/api/admin/contact/${message.id}`, { status: 'read' }],
      ['PATCH', `/api/admin/newsletter/${subscriber.subscriber.id}`, { premium_subscriber: true }],
      ['POST', `/api/admin/edits/${approvedEdit.id}/approve`, {}],
      ['PATCH', `/api/admin/freshness/flags/${flag!.id}`, { verdict: 'dismissed' }],
      ['POST', '/api/admin/orders/comps', { server_id: listing.id, placement: 'premium', term_days: 7 }],
      ['PATCH', `/api/admin/newsletter/${subscriber.subscriber.id}`, { status: 'unsubscribed' }],
      ['DELETE', `/api/admin/content/${content!.id}`, undefined],
    ];
    const snapshot = async () => ({
      submissions: await h.db.select().from(serverSubmissions).orderBy(serverSubmissions.id),
      content: await h.db.select().from(siteContent).orderBy(siteContent.id),
      messages: await h.db.select().from(contactMessages),
      subscribers: await h.db.select().from(newsletterSubscribers),
      edits: (await h.db.select().from(listingEdits)).map((e) => e.status),
      listing: (await getServerById(h.db, listing.id))?.description,
      flags: (await h.db.select().from(serverFlags)).map((f) => f.verdict),
      orders: await h.db.select().from(orders),
    });
    await refusedThenAudited(
      s,
      writes.map(([method, path, body]) => [
        method,
        path,
        body,
        method === 'POST' && !path.includes('/', 18) ? 201 : 200,
      ]),
      snapshot,
    );
    const rows = await h.db.select().from(auditLog).where(sql`${auditLog.action} != 'login'`);
    expect(rows.map((r) => `${r.action} ${r.entity}`)).toEqual([
      'status submission',
      'delete submission',
      'create content',
      'update content',
      'toggle content',
      'status contact',
      'update subscriber',
      'approve listing_edit',
      'dismiss flag',
      'comp order',
      'update subscriber',
      'delete content',
    ]);
    const [created] = await h.db.select().from(siteContent).where(eq(siteContent.content_key, 'sub'));
    const [comp] = await h.db.select().from(orders);
    expect(rows[2]!.entity_id).toBe(String(created!.id));
    expect(rows[4]!.details).toEqual({ is_active: false });
    expect(rows[6]!.details).toEqual({ premium_subscriber: true, email: 'reader@example.com' });
    expect(rows[7]!.details).toMatchObject({
      changes: { description: { from: 'Signals and charts.', to: 'Charts only.' } },
    });
    expect(rows[9]!.entity_id).toBe(String(comp!.id));
    expect(h.rebuild.reasons.some((r) => r.startsWith('comp placement'))).toBe(true);
  });

  it("a listing's and a plan's writes whose audit row fails change nothing; each good one is audited", async () => {
    h = await createAdminHarness();
    const s = await h.signIn('admin');
    const listing = LISTING;
    const shown = await createServer(h.db, { ...listing, name: 'Hidden Place', is_active: false });
    const edited = await createServer(h.db, {
      ...listing,
      name: 'Edited Place',
      affiliate_link: 'https://discord.gg/editedplace',
    });
    const [plan] = await h.db.select().from(plans).limit(1);
    const writes: [string, string, unknown, number][] = [
      ['PATCH', `/api/admin/servers/${shown.id}/visibility`, { is_active: true }, 200],
      ['POST', '/api/admin/servers', { ...listing, name: 'Created Place' }, 201],
      // A rename: the slug's history and the row in one batch, the audit row with them.
      ['PUT', `/api/admin/servers/${edited.id}`, { ...listing, name: 'Renamed Place' }, 200],
      ['PATCH', `/api/admin/servers/${edited.id}/placement`, { sort_order: 3 }, 200],
      [
        'POST',
        '/api/admin/orders/plans',
        { name: 'Fortnight', placement: 'premium', term_days: 14, price_cents: 900, currency: 'usd' },
        201,
      ],
      ['PATCH', `/api/admin/orders/plans/${plan!.id}`, { price_cents: plan!.price_cents + 100 }, 200],
    ];
    const snapshot = async () => ({
      servers: (await h.db.select().from(discordServers).orderBy(discordServers.id)).map((r) => ({
        ...r,
        updated_at: '',
      })),
      slugs: await h.db.select().from(serverSlugs),
      plans: await h.db.select().from(plans).orderBy(plans.id),
    });
    await refusedThenAudited(s, writes, snapshot);
    const rows = await h.db.select().from(auditLog).where(sql`${auditLog.action} != 'login'`);
    expect(rows.map((r) => `${r.action} ${r.entity}`)).toEqual([
      'show server',
      'create server',
      'update server',
      'placement server',
      'create plan',
      'update plan',
    ]);
    const [created] = await h.db.select().from(discordServers).where(eq(discordServers.name, 'Created Place'));
    expect(rows[1]).toMatchObject({
      entity_id: String(created!.id),
      details: { name: 'Created Place', slug: created!.slug },
    });
    expect(rows[2]).toMatchObject({
      entity_id: String(edited.id),
      details: { changed: ['name'], slug: 'renamed-place', previous_slug: edited.slug },
    });
    const [fortnight] = await h.db.select().from(plans).where(eq(plans.name, 'Fortnight'));
    expect(rows[4]!.entity_id).toBe(String(fortnight!.id));
  });
});
