import { afterEach, describe, expect, it } from 'vitest';
import { getIssueByWeek } from '../../db/queries/newsletter';
import { mailOutbox, newsletterSubscribers } from '../../db/schema';
import { loadEnv } from '../../functions/_app/env';
import { run as sendNewsletter } from '../../functions/_app/jobs/newsletter';
import { JOBS } from '../../functions/_app/jobs/schedule';
import { isoWeek } from '../../functions/_app/mail/week';
import { createTestDb, type TestDb } from '../helpers/db';

const HOUR = 3_600_000;
let t: TestDb | undefined;
afterEach(() => {
  t?.cleanup();
  t = undefined;
});

/** The next Monday 09:00 UTC after `now`: the first pass of a week that composes its issue. */
function nextMondayAtNine(now: number): number {
  const d = new Date(now);
  d.setUTCHours(9, 0, 0, 0);
  d.setUTCDate(d.getUTCDate() + ((8 - d.getUTCDay()) % 7 || 7));
  return d.getTime();
}

/** 250 confirmed subscribers (more than one page of 200 copies), the Worker's passes, and each subscriber's copies by week. */
async function setup() {
  t = await createTestDb();
  const db = t.db;
  const monday = nextMondayAtNine(Date.now());
  const confirmed = new Date(monday - 3 * 24 * HOUR).toISOString();
  await db
    .insert(newsletterSubscribers)
    .values(Array.from({ length: 250 }, (_, i) => ({ email: `late${i}@example.com`, confirmed_at: confirmed })));
  const env = loadEnv({ DATABASE_URL: t.url, SITE_URL: 'https://guildrank.test' });
  const pass = (at: number) => JOBS.newsletter.run({ db, env, runtime: 'worker', log: () => {} }, at);
  /** Copies per week, and whether any subscriber has two of one week. */
  const copies = async () => {
    const keys = (await db.select({ key: mailOutbox.dedupe_key }).from(mailOutbox)).map((m) => m.key);
    const byWeek: Record<string, number> = {};
    for (const key of keys) {
      const week = key.split(':')[1]!;
      byWeek[week] = (byWeek[week] ?? 0) + 1;
    }
    return { byWeek, unique: new Set(keys).size === keys.length };
  };
  return { db, env, monday, pass, copies };
}

describe('an issue sent from the console late on Sunday, on the Worker (a part a request)', () => {
  it('the passes after midnight write the rest of it, once, and Monday’s issue then goes to everyone once', async () => {
    const { db, env, monday, pass, copies } = await setup();
    const sunday = monday - 9 * HOUR - 10 * 60_000;
    const [lastWeek, thisWeek] = [isoWeek(sunday), isoWeek(monday)];
    // Sunday 23:50: the console's request writes one part and answers that the next pass writes the rest.
    expect(await sendNewsletter({ db, env }, sunday, { maxPages: 1 })).toMatchObject({ enqueued: 200, done: false });
    // Monday 00:00 (a new ISO week, before its issue is composed): the rest of Sunday's issue.
    await pass(monday - 9 * HOUR);
    expect(await copies()).toEqual({ byWeek: { [lastWeek]: 250 }, unique: true });
    expect((await getIssueByWeek(db, lastWeek))?.recipient_count).toBe(250);
    await pass(monday - 8 * HOUR - 45 * 60_000);
    expect((await copies()).byWeek).toEqual({ [lastWeek]: 250 });
    // 09:00 composes this week's issue for every confirmed subscriber, once each.
    await pass(monday);
    await pass(monday + 15 * 60_000);
    expect(await copies()).toEqual({ byWeek: { [lastWeek]: 250, [thisWeek]: 250 }, unique: true });
  });

  it('this week’s issue is composed only once Sunday’s is written in full, by the pass after the one that finished it', async () => {
    const { db, env, monday, pass, copies } = await setup();
    const sunday = monday - 9 * HOUR - 10 * 60_000;
    const [lastWeek, thisWeek] = [isoWeek(sunday), isoWeek(monday)];
    await sendNewsletter({ db, env }, sunday, { maxPages: 1 });
    // No pass ran overnight: the first, at 09:00, finishes Sunday's issue; the next composes Monday's.
    expect(await pass(monday)).toMatchObject({ week: lastWeek, enqueued: 50, done: true });
    expect(await getIssueByWeek(db, thisWeek)).toBeNull();
    expect(await pass(monday + 15 * 60_000)).toMatchObject({ week: thisWeek, composed: true, enqueued: 250 });
    expect(await copies()).toEqual({ byWeek: { [lastWeek]: 250, [thisWeek]: 250 }, unique: true });
  });
});
