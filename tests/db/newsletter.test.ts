import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  getNewsletterStats,
  getSubscriberByEmail,
  listSubscribers,
  setSubscriberPremium,
  subscribeEmail,
  unsubscribeEmail,
  updateSubscriber,
} from '../../db/queries/newsletter';
import { createTestDb, type TestDb } from '../helpers/db';

let t: TestDb;
beforeEach(async () => {
  t = await createTestDb();
});
afterEach(() => t.cleanup());

describe('newsletter queries', () => {
  it('subscribeEmail stores an active, confirmed homepage signup interested in premium servers', async () => {
    const result = await subscribeEmail(t.db, 'a@example.com');
    if (!result.ok) throw new Error(result.reason);
    expect(result.reactivated).toBe(false);
    expect(result.subscriber).toMatchObject({
      email: 'a@example.com',
      source: 'homepage_signup',
      interests: ['premium_servers'],
      status: 'active',
      premium_subscriber: false,
      unsubscribed_at: null,
    });
    expect(result.subscriber.confirmed_at).toBeTruthy();
  });

  it('subscribeEmail refuses an active duplicate with Email already subscribed', async () => {
    await subscribeEmail(t.db, 'a@example.com');
    expect(await subscribeEmail(t.db, 'a@example.com')).toEqual({
      ok: false,
      reason: 'already_subscribed',
      message: 'Email already subscribed',
    });
  });

  it('two racing signups of one email store one row', async () => {
    const results = await Promise.all([subscribeEmail(t.db, 'r@example.com'), subscribeEmail(t.db, 'r@example.com')]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect((await listSubscribers(t.db)).total).toBe(1);
  });

  it('unsubscribeEmail records status and time; a re-subscribe reactivates', async () => {
    await subscribeEmail(t.db, 'a@example.com');
    const gone = await unsubscribeEmail(t.db, 'a@example.com');
    expect(gone).toMatchObject({ status: 'unsubscribed' });
    expect(gone?.unsubscribed_at).toBeTruthy();
    const again = await unsubscribeEmail(t.db, 'a@example.com');
    expect(again?.unsubscribed_at).toBe(gone?.unsubscribed_at);
    const back = await subscribeEmail(t.db, 'a@example.com');
    expect(back).toMatchObject({
      ok: true,
      reactivated: true,
      subscriber: { status: 'active', unsubscribed_at: null },
    });
    expect(await unsubscribeEmail(t.db, 'nobody@example.com')).toBeNull();
  });

  it('listSubscribers is newest first, searchable by email and paged', async () => {
    for (const e of ['one@a.com', 'two@b.com', 'three@a.com']) await subscribeEmail(t.db, e);
    const all = await listSubscribers(t.db);
    expect(all.subscribers.map((s) => s.email)).toEqual(['three@a.com', 'two@b.com', 'one@a.com']);
    const searched = await listSubscribers(t.db, { search: '@A.COM' });
    expect(searched.subscribers.map((s) => s.email)).toEqual(['three@a.com', 'one@a.com']);
    expect(searched.total).toBe(2);
    expect((await listSubscribers(t.db, { search: '%' })).total).toBe(0);
    const page = await listSubscribers(t.db, { perPage: 1, page: 3 });
    expect(page.subscribers.map((s) => s.email)).toEqual(['one@a.com']);
  });

  it('updateSubscriber and setSubscriberPremium change the row; stats follow', async () => {
    const a = await subscribeEmail(t.db, 'a@example.com');
    await subscribeEmail(t.db, 'b@example.com');
    await subscribeEmail(t.db, 'c@example.com');
    if (!a.ok) throw new Error('subscribe failed');
    expect(await updateSubscriber(t.db, a.subscriber.id, { interests: ['gaming'] })).toMatchObject({
      interests: ['gaming'],
    });
    expect(await setSubscriberPremium(t.db, 'b@example.com', true)).toMatchObject({ premium_subscriber: true });
    await unsubscribeEmail(t.db, 'c@example.com');
    expect(await getSubscriberByEmail(t.db, 'c@example.com')).toMatchObject({ status: 'unsubscribed' });
    expect(await getNewsletterStats(t.db)).toEqual({
      total: 3,
      active: 2,
      unsubscribed: 1,
      pending: 0,
      premium: 1,
      new_last_7_days: 3,
      new_last_30_days: 3,
    });
  });
});
