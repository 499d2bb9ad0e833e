import { Cron } from 'croner';
import { describe, expect, it } from 'vitest';
import { readWranglerConfig } from '../../../tests/helpers/wrangler-config';
import { composesAt } from './newsletter';
import { REFRESH_EVERY_MS } from './refresh';
import { JOBS, jobsForTrigger, MAX_CRON_TRIGGERS, SCHEDULE, WORKER_TRIGGERS } from './schedule';
import { SESSION_SWEEP_EVERY_MS } from './session-sweep';

/** The next `n` times `pattern` fires after `from`, in UTC, as ISO strings. */
const nextRuns = (pattern: string, from: string, n = 2) =>
  new Cron(pattern, { timezone: 'UTC', paused: true }).nextRuns(n, new Date(from)).map((d) => d.toISOString());

const gapMs = (pattern: string) => {
  const [a, b] = nextRuns(pattern, '2026-11-23T10:00:30Z');
  return Date.parse(b!) - Date.parse(a!);
};

describe('the schedule table', () => {
  it("wrangler.toml's Cron Triggers are exactly the table's crons, each listed once", async () => {
    const rawConfig = await readWranglerConfig();
    const crons = (rawConfig as { triggers?: { crons?: string[] } }).triggers?.crons ?? [];
    // Jobs may share a trigger (the refresh and the placement clock, every minute): the Worker runs each one on it.
    expect([...crons].sort()).toEqual([...WORKER_TRIGGERS].sort());
    expect(new Set(crons).size).toBe(crons.length);
    // No more than Cloudflare's Free plan takes: a sixth would fail the deploy.
    expect(crons.length).toBeLessThanOrEqual(MAX_CRON_TRIGGERS);
    // Cron Triggers take five fields (minutes at the finest).
    for (const job of SCHEDULE) expect(job.cron.split(' ')).toHaveLength(5);
  });

  it('a job riding on another trigger runs at every time its own cron names, and only then', () => {
    const riding = SCHEDULE.filter((job) => job.trigger);
    expect(riding.map((job) => job.name).sort()).toEqual(['moderation-log']);
    for (const job of riding) {
      const trigger = new Cron(job.trigger!, { timezone: 'UTC', paused: true });
      // A year of its own times: each is one the trigger fires at, and the trigger's invocation then runs it.
      for (const at of new Cron(job.cron, { timezone: 'UTC', paused: true }).nextRuns(
        366,
        new Date('2026-11-23T00:00:00Z'),
      )) {
        expect(trigger.match(at), `${job.name} at ${at.toISOString()}`).toBe(true);
        expect(jobsForTrigger(job.trigger!, at.getTime()).map((j) => j.name)).toContain(job.name);
      }
    }
    // The session sweep's other invocations leave the moderation log alone; the newsletter's pass
    // is in every one (it composes only from Monday 09:00, composesAt).
    const on15 = (at: string) =>
      jobsForTrigger('*/15 * * * *', Date.parse(at))
        .map((j) => j.name)
        .sort();
    expect(on15('2026-11-23T03:30:00Z')).toEqual(['moderation-log', 'newsletter', 'session-sweep']);
    for (const at of ['2026-11-23T03:15:00Z', '2026-11-23T09:00:00Z', '2026-11-24T15:30:00Z'])
      expect(on15(at), at).toEqual(['newsletter', 'session-sweep']);
    // Every minute: the refresh and the placement clock, whatever the minute.
    expect(jobsForTrigger('* * * * *', Date.parse('2026-11-23T03:30:00Z')).map((j) => j.name)).toEqual([
      'refresh',
      'placement-clock',
    ]);
  });

  it('the weekly newsletter is composed from Mondays at 09:00 UTC, and its passes go on every 15 minutes of the week', () => {
    expect(gapMs(JOBS.newsletter.cron)).toBe(15 * 60_000);
    expect(composesAt(Date.parse('2026-11-23T08:59:59Z'))).toBe(false);
    expect(composesAt(Date.parse('2026-11-23T09:00:00Z'))).toBe(true);
    expect(composesAt(Date.parse('2026-11-23T23:45:00Z'))).toBe(true);
    expect(composesAt(Date.parse('2026-11-24T00:00:00Z'))).toBe(false);
    expect(composesAt(Date.parse('2026-11-29T23:45:00Z'))).toBe(false);
  });

  it('runs the refresh, the session sweep and the mail sender on the beats the rest of the code assumes', () => {
    expect(gapMs(JOBS.refresh.cron)).toBe(REFRESH_EVERY_MS);
    expect(gapMs(JOBS['session-sweep'].cron)).toBe(SESSION_SWEEP_EVERY_MS);
    expect(gapMs(JOBS.mail.cron)).toBe(2 * 60_000);
    // npm start drains the outbox every 5 seconds (croner's seconds field).
    expect(gapMs(JOBS.mail.nodeCron)).toBe(5_000);
  });
});
