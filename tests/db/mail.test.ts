import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import {
  claimDueMails,
  enqueueMail,
  enqueueMailWhen,
  listMails,
  markMailFailed,
  markMailSent,
  RETRY_DELAYS_MS,
} from '../../db/queries/mail';
import {
  confirmSubscriber,
  createIssue,
  enqueueIssueMails,
  getSubscriberByEmail,
  listIssueRecipients,
  signUpEmail,
  subscribeEmail,
  unsubscribeEmail,
} from '../../db/queries/newsletter';
import { contactMessages } from '../../db/schema';
import { createTestDb, type TestDb } from '../helpers/db';

let t: TestDb;
afterEach(() => t?.cleanup());

const rendered = (subject: string) => ({ subject, text: `${subject} (text)`, html: `<p>${subject}</p>` });
const T0 = Date.parse('2026-11-23T10:00:00.000Z');

describe('the outbox', () => {
  it('enqueueMail writes one row per dedupe key, however often the event is retried', async () => {
    t = await createTestDb();
    const mail = { kind: 'contact_ack' as const, dedupeKey: 'k1', to: 'a@example.com', mail: rendered('Hi') };
    await enqueueMail(t.db, mail);
    await enqueueMail(t.db, { ...mail, mail: rendered('Hi again') });
    const { mails } = await listMails(t.db);
    expect(mails.map((m) => [m.dedupe_key, m.subject, m.status])).toEqual([['k1', 'Hi', 'pending']]);
  });

  it('enqueueMail goes in the caller’s batch: the mail exists only with the event’s row', async () => {
    t = await createTestDb();
    await expect(
      t.db.batch([
        enqueueMail(t.db, { kind: 'contact_ack', dedupeKey: 'k2', to: 'a@example.com', mail: rendered('Hi') }),
        // The event's own write fails (NOT NULL): the batch, mail included, is rolled back.
        t.db.run(sql`INSERT INTO ${contactMessages} (name) VALUES (NULL)`),
      ]),
    ).rejects.toThrow();
    expect((await listMails(t.db)).total).toBe(0);
  });

  it('enqueueMailWhen writes only when its condition holds at that point of the batch', async () => {
    t = await createTestDb();
    const input = { kind: 'contact_ack' as const, to: 'a@example.com', mail: rendered('Hi') };
    await t.db.batch([
      t.db.run(sql`UPDATE ${contactMessages} SET status = 'read' WHERE id = -1`),
      enqueueMailWhen(t.db, { ...input, dedupeKey: sql`'never'` }, sql`changes() = 1`),
    ]);
    expect((await listMails(t.db)).total).toBe(0);
    await t.db.batch([
      t.db.insert(contactMessages).values({ name: 'A', email: 'a@example.com', subject: 'general', message: 'hello' }),
      enqueueMailWhen(t.db, { ...input, dedupeKey: sql`'contact:' || last_insert_rowid()` }, sql`changes() = 1`),
    ]);
    expect((await listMails(t.db)).mails.map((m) => m.dedupe_key)).toEqual([expect.stringMatching(/^contact:\d+$/)]);
  });

  it('every other mail due goes out before a week’s newsletter copies, however many wait', async () => {
    t = await createTestDb();
    for (let i = 0; i < 30; i++)
      await enqueueMail(t.db, {
        kind: 'newsletter_issue',
        dedupeKey: `newsletter-issue:2026-W48:${i}`,
        to: `r${i}@example.com`,
        mail: rendered(`Issue ${i}`),
      });
    await enqueueMail(t.db, {
      kind: 'order_receipt',
      dedupeKey: 'order_receipt:1',
      to: 'buyer@example.com',
      mail: rendered('Receipt'),
    });
    const claimed = await claimDueMails(t.db, Date.now() + 1000, { limit: 5 });
    // The receipt, written last, is in the first claim (then the oldest copies).
    expect(claimed.map((m) => m.kind).sort()).toEqual([
      'newsletter_issue',
      'newsletter_issue',
      'newsletter_issue',
      'newsletter_issue',
      'order_receipt',
    ]);
  });

  it('two senders claiming at once never get the same mail', async () => {
    t = await createTestDb();
    for (let i = 0; i < 10; i++) {
      await enqueueMail(t.db, {
        kind: 'contact_ack',
        dedupeKey: `c${i}`,
        to: `${i}@example.com`,
        mail: rendered(`M${i}`),
      });
    }
    const now = Date.now() + 1000;
    const [a, b] = await Promise.all([claimDueMails(t.db, now, { limit: 6 }), claimDueMails(t.db, now, { limit: 6 })]);
    const ids = [...a, ...b].map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(10);
    // Claimed mails are not due again until the lease runs out.
    expect(await claimDueMails(t.db, now + 1000)).toEqual([]);
    expect((await claimDueMails(t.db, now + 6 * 60_000)).length).toBe(10);
  });

  it('a failed attempt waits its back-off, then the mail is given up after the last; a sent one is done', async () => {
    t = await createTestDb();
    await enqueueMail(t.db, { kind: 'contact_ack', dedupeKey: 'r', to: 'a@example.com', mail: rendered('R') });
    let now = Date.now() + 1000;
    for (let attempt = 0; attempt < RETRY_DELAYS_MS.length; attempt++) {
      const [mail] = await claimDueMails(t.db, now);
      expect(mail?.attempts).toBe(attempt);
      expect(await markMailFailed(t.db, mail!, now, 'down')).toBe('pending');
      expect(await claimDueMails(t.db, now + RETRY_DELAYS_MS[attempt]! - 1)).toEqual([]);
      now += RETRY_DELAYS_MS[attempt]!;
    }
    const [last] = await claimDueMails(t.db, now);
    expect(await markMailFailed(t.db, last!, now, 'still down')).toBe('failed');
    expect(await claimDueMails(t.db, now + 365 * 86_400_000)).toEqual([]);

    await enqueueMail(t.db, { kind: 'contact_ack', dedupeKey: 's', to: 'b@example.com', mail: rendered('S') });
    const [sent] = await claimDueMails(t.db, now);
    await markMailSent(t.db, sent!.id, now, '<id@x>');
    expect(await claimDueMails(t.db, now + 365 * 86_400_000)).toEqual([]);
    expect((await listMails(t.db, { status: 'sent' })).mails[0]?.message_id).toBe('<id@x>');
  });
});

describe('newsletter double opt-in', () => {
  const confirm = { mail: rendered('Confirm') };

  it('a signup is pending with one confirmation mail; again within a minute adds none, later re-sends it', async () => {
    t = await createTestDb();
    const first = await signUpEmail(t.db, 'p@example.com', confirm, T0);
    expect(first).toMatchObject({ ok: true, state: 'new', subscriber: { status: 'pending', confirmed_at: null } });
    expect(await signUpEmail(t.db, 'p@example.com', confirm, T0 + 1000)).toMatchObject({
      ok: true,
      state: 'pending_again',
    });
    expect((await listMails(t.db, { kind: 'newsletter_confirm' })).total).toBe(1);
    await signUpEmail(t.db, 'p@example.com', confirm, T0 + 61_000);
    expect((await listMails(t.db, { kind: 'newsletter_confirm' })).total).toBe(2);
  });

  it('confirming makes the subscriber active with one welcome mail; an active one is already subscribed', async () => {
    t = await createTestDb();
    await signUpEmail(t.db, 'c@example.com', confirm, T0);
    expect(await confirmSubscriber(t.db, 'c@example.com', { mail: rendered('Welcome') }, T0 + 5000)).toBe('confirmed');
    expect(await confirmSubscriber(t.db, 'c@example.com', { mail: rendered('Welcome') }, T0 + 6000)).toBe(
      'already_active',
    );
    expect((await listMails(t.db, { kind: 'newsletter_welcome' })).total).toBe(1);
    expect((await getSubscriberByEmail(t.db, 'c@example.com'))?.status).toBe('active');
    expect(await signUpEmail(t.db, 'c@example.com', confirm, T0 + 120_000)).toEqual({
      ok: false,
      reason: 'already_subscribed',
      message: 'Email already subscribed',
    });
    expect((await listMails(t.db, { kind: 'newsletter_confirm' })).total).toBe(1);
  });

  it('an unsubscribed address signing up again goes back to pending with a new confirmation', async () => {
    t = await createTestDb();
    await subscribeEmail(t.db, 'u@example.com');
    await unsubscribeEmail(t.db, 'u@example.com');
    const again = await signUpEmail(t.db, 'u@example.com', confirm, T0);
    expect(again).toMatchObject({
      ok: true,
      state: 'resubscribed',
      subscriber: { status: 'pending', confirmed_at: null },
    });
    expect((await listMails(t.db, { kind: 'newsletter_confirm' })).total).toBe(1);
    expect(await confirmSubscriber(t.db, 'nobody@example.com', { mail: rendered('W') })).toBe('not_found');
  });

  it('unsubscribing gives up the newsletter mails still waiting for the address', async () => {
    t = await createTestDb();
    await signUpEmail(t.db, 'w@example.com', confirm, T0);
    await unsubscribeEmail(t.db, 'w@example.com');
    const { mails } = await listMails(t.db);
    expect(mails.map((m) => [m.kind, m.status])).toEqual([['newsletter_confirm', 'failed']]);
    expect(await confirmSubscriber(t.db, 'w@example.com', { mail: rendered('W') })).toBe('unsubscribed');
  });

  it('an issue copy is not written for a subscriber who unsubscribed after their page of recipients was read', async () => {
    t = await createTestDb();
    const a = await subscribeEmail(t.db, 'a@example.com');
    const b = await subscribeEmail(t.db, 'b@example.com');
    if (!a.ok || !b.ok) throw new Error('subscribe failed');
    const { issue } = await createIssue(t.db, {
      week: '2026-W48',
      subject: 'Issue',
      content: {},
      createdAt: new Date(Date.now() + 1000).toISOString(),
    });
    const page = await listIssueRecipients(t.db, issue.created_at);
    expect(page.map((r) => r.email)).toEqual(['a@example.com', 'b@example.com']);
    // b unsubscribes while the pass renders the page: nothing of the newsletter is waiting for b yet.
    await unsubscribeEmail(t.db, 'b@example.com');
    const written = await enqueueIssueMails(
      t.db,
      '2026-W48',
      page.map((r) => ({ subscriberId: r.id, to: r.email, mail: rendered('Issue') })),
    );
    expect(written).toBe(1);
    const { mails } = await listMails(t.db, { kind: 'newsletter_issue' });
    expect(mails.map((m) => [m.to_address, m.status])).toEqual([['a@example.com', 'pending']]);
  });
});
