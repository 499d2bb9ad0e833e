import { resolve } from 'node:path';
import { Cron } from 'croner';
import { describe, expect, it } from 'vitest';
import { experimental_readRawConfig } from 'wrangler';
import { REFRESH_EVERY_MS } from './refresh';
import { JOBS, SCHEDULE } from './schedule';
import { SESSION_SWEEP_EVERY_MS } from './session-sweep';

/** The next `n` times `pattern` fires after `from`, in UTC, as ISO strings. */
const nextRuns = (pattern: string, from: string, n = 2) =>
  new Cron(pattern, { timezone: 'UTC', paused: true }).nextRuns(n, new Date(from)).map((d) => d.toISOString());

const gapMs = (pattern: string) => {
  const [a, b] = nextRuns(pattern, '2026-11-23T10:00:30Z');
  return Date.parse(b!) - Date.parse(a!);
};

describe('the schedule table', () => {
  it("wrangler.toml's Cron Triggers are exactly the table's crons, each listed once", () => {
    const { rawConfig } = experimental_readRawConfig({
      config: resolve(import.meta.dirname, '../../../wrangler.toml'),
    });
    const crons = (rawConfig as { triggers?: { crons?: string[] } }).triggers?.crons ?? [];
    // Jobs may share a cron (the refresh and the placement clock, every minute): the Worker runs each one that matches.
    expect([...crons].sort()).toEqual([...new Set(SCHEDULE.map((job) => job.cron))].sort());
    expect(new Set(crons).size).toBe(crons.length);
    // Cron Triggers take five fields (minutes at the finest).
    for (const job of SCHEDULE) expect(job.cron.split(' ')).toHaveLength(5);
  });

  it('the weekly newsletter fires on Mondays at 09:00 UTC, strictly after the time given', () => {
    expect(nextRuns(JOBS.newsletter.cron, '2026-11-23T08:59:00Z', 1)).toEqual(['2026-11-23T09:00:00.000Z']);
    expect(nextRuns(JOBS.newsletter.cron, '2026-11-23T09:00:00Z', 1)).toEqual(['2026-11-30T09:00:00.000Z']);
    expect(nextRuns(JOBS.newsletter.cron, '2026-11-29T23:00:00Z', 1)).toEqual(['2026-11-30T09:00:00.000Z']);
  });

  it('runs the refresh, the session sweep and the mail sender on the beats the rest of the code assumes', () => {
    expect(gapMs(JOBS.refresh.cron)).toBe(REFRESH_EVERY_MS);
    expect(gapMs(JOBS['session-sweep'].cron)).toBe(SESSION_SWEEP_EVERY_MS);
    expect(gapMs(JOBS.mail.cron)).toBe(2 * 60_000);
    // npm start drains the outbox every 5 seconds (croner's seconds field).
    expect(gapMs(JOBS.mail.nodeCron)).toBe(5_000);
  });
});
