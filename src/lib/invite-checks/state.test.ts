import { describe, expect, it } from 'vitest';
import type { InviteAnswer, InviteSnapshot } from './classify';
import { applyCheck, DEAD_AFTER, type ListingFreshness, SCHEDULE } from './state';

const HOUR = 3_600_000;
const T0 = Date.parse('2030-03-01T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const GUILD = '1234567890123456789';

const fresh: ListingFreshness = {
  guild_id: null,
  guild_icon: null,
  invite_status: 'unchecked',
  members: 500,
  active_users: 50,
  last_ok_at: null,
  fail_streak: 0,
  first_fail_at: null,
  transient_streak: 0,
};

const invite = (over: Partial<InviteSnapshot> = {}): InviteSnapshot => ({
  code: 'abc',
  guildId: GUILD,
  name: 'Guild',
  icon: 'a1b2',
  banner: null,
  splash: null,
  description: null,
  features: [],
  vanityUrlCode: null,
  verificationLevel: 1,
  nsfwLevel: 0,
  boostCount: 0,
  memberCount: 1200,
  onlineCount: 300,
  expiresAt: null,
  ...over,
});

const ok = (over: Partial<InviteSnapshot> = {}): InviteAnswer => ({
  kind: 'ok',
  invite: invite(over),
  rateLimit: null,
});
const unknown: InviteAnswer = { kind: 'unknown_invite', code: 10006, rateLimit: null };
const transient: InviteAnswer = { kind: 'transient', reason: 'server_error', status: 502, rateLimit: null };

/** Runs answers in order, each at its time, carrying the listing's state along. */
function replay(start: ListingFreshness, steps: [number, InviteAnswer][]) {
  let state: ListingFreshness & { next_check_at?: string } = start;
  return steps.map(([at, answer]) => {
    const result = applyCheck(state, answer, at, () => 0.5);
    state = { ...state, ...result.update };
    return { result, state };
  });
}

describe('applyCheck', () => {
  it('an ok answer takes Discord counts, icon and guild, resets the streaks and schedules about a day later', () => {
    const r = applyCheck(
      { ...fresh, fail_streak: 2, first_fail_at: iso(T0 - HOUR), transient_streak: 3 },
      ok(),
      T0,
      () => 0.5,
    );
    expect(r.update).toEqual({
      guild_id: GUILD,
      guild_icon: 'a1b2',
      invite_status: 'ok',
      members: 1200,
      active_users: 300,
      last_ok_at: iso(T0),
      last_checked_at: iso(T0),
      fail_streak: 0,
      first_fail_at: null,
      transient_streak: 0,
      next_check_at: iso(T0 + SCHEDULE.okMs),
    });
    expect(r.snapshot).toEqual({ checked_at: iso(T0), outcome: 'ok', member_count: 1200, online_count: 300 });
    expect(r.alerts).toEqual([]);
    expect(r.publicChange).toBe(true);
  });

  it('jitters the daily check by ±10 % and never past 24 hours', () => {
    const at = (random: number) => Date.parse(applyCheck(fresh, ok(), T0, () => random).update.next_check_at!) - T0;
    expect(at(0)).toBe(Math.round(SCHEDULE.okMs * 0.9));
    expect(at(0.999999)).toBeCloseTo(SCHEDULE.okMs * 1.1, -3);
    expect(at(0.999999)).toBeLessThanOrEqual(24 * HOUR);
  });

  it('keeps the verified guild id: a later ok never rewrites it', () => {
    const r = applyCheck({ ...fresh, guild_id: GUILD, invite_status: 'ok' }, ok(), T0);
    expect(r.update).not.toHaveProperty('guild_id');
  });

  it('an ok with the same counts, icon and status changes nothing public', () => {
    const same = {
      ...fresh,
      guild_id: GUILD,
      guild_icon: 'a1b2',
      invite_status: 'ok' as const,
      members: 1200,
      active_users: 300,
    };
    const r = applyCheck(same, ok(), T0);
    expect(r.publicChange).toBe(false);
    expect(r.snapshot?.outcome).toBe('ok');
  });

  it('an unknown invite turns suspect at once, rechecks after 1 h, 6 h, 24 h, and is dead only after 3 failures over 24 h', () => {
    const steps = replay({ ...fresh, guild_id: GUILD, invite_status: 'ok' }, [
      [T0, unknown],
      [T0 + 1 * HOUR, unknown],
      [T0 + 7 * HOUR, unknown],
      [T0 + 23 * HOUR, unknown],
      [T0 + 31 * HOUR, unknown],
      [T0 + 55 * HOUR, unknown],
    ]);
    expect(steps.map((s) => s.state.invite_status)).toEqual([
      'suspect',
      'suspect',
      'suspect',
      'suspect',
      'dead',
      'dead',
    ]);
    expect(steps.map((s) => s.state.fail_streak)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(steps.every((s) => s.state.first_fail_at === iso(T0))).toBe(true);
    expect(steps.map((s, i) => Date.parse(s.state.next_check_at!) - [0, 1, 7, 23, 31, 55][i]! * HOUR - T0)).toEqual([
      1 * HOUR,
      6 * HOUR,
      24 * HOUR,
      24 * HOUR,
      SCHEDULE.deadMs,
      SCHEDULE.deadMs,
    ]);
    // The owner is told once, when the listing dies.
    expect(steps.map((s) => s.result.alerts)).toEqual([
      [],
      [],
      [],
      [],
      [{ kind: 'dead', failStreak: 5, firstFailAt: iso(T0) }],
      [],
    ]);
    expect(steps[0]!.result.snapshot).toEqual({
      checked_at: iso(T0),
      outcome: 'unknown_invite',
      member_count: null,
      online_count: null,
    });
    expect(steps[0]!.result.publicChange).toBe(true);
  });

  it('is dead at exactly 3 failures and 24 hours, not a millisecond before', () => {
    const base = { ...fresh, invite_status: 'suspect' as const, fail_streak: 2, first_fail_at: iso(T0) };
    expect(applyCheck(base, unknown, T0 + DEAD_AFTER.ms - 1).update.invite_status).toBe('suspect');
    expect(applyCheck(base, unknown, T0 + DEAD_AFTER.ms).update.invite_status).toBe('dead');
  });

  it('a dead listing comes back to ok by itself when the invite answers again', () => {
    const dead = { ...fresh, guild_id: GUILD, invite_status: 'dead' as const, fail_streak: 5, first_fail_at: iso(T0) };
    const r = applyCheck(dead, ok(), T0 + 48 * HOUR);
    expect(r.update).toMatchObject({
      invite_status: 'ok',
      fail_streak: 0,
      first_fail_at: null,
      last_ok_at: iso(T0 + 48 * HOUR),
    });
    expect(r.publicChange).toBe(true);
  });

  it('a suspect listing back to ok forgets its streak, so the next failure starts over', () => {
    const steps = replay({ ...fresh, guild_id: GUILD, invite_status: 'ok' }, [
      [T0, unknown],
      [T0 + HOUR, unknown],
      [T0 + 7 * HOUR, ok()],
      [T0 + 30 * HOUR, unknown],
    ]);
    expect(steps.map((s) => s.state.invite_status)).toEqual(['suspect', 'suspect', 'ok', 'suspect']);
    expect(steps[3]!.state).toMatchObject({ fail_streak: 1, first_fail_at: iso(T0 + 30 * HOUR) });
  });

  it('another guild behind the invite hides the listing at once and alerts the operators once', () => {
    const listed = { ...fresh, guild_id: GUILD, invite_status: 'ok' as const };
    const answer: InviteAnswer = {
      kind: 'wrong_guild',
      expectedGuildId: GUILD,
      guildId: '999999999999999999',
      name: 'Other',
      rateLimit: null,
    };
    const first = applyCheck(listed, answer, T0);
    expect(first.update).toMatchObject({ invite_status: 'wrong_guild', next_check_at: iso(T0 + 24 * HOUR) });
    expect(first.update).not.toHaveProperty('guild_id');
    expect(first.alerts).toEqual([{ kind: 'wrong_guild', expectedGuildId: GUILD, guildId: '999999999999999999' }]);
    expect(first.snapshot?.outcome).toBe('wrong_guild');
    const again = applyCheck({ ...listed, invite_status: 'wrong_guild' }, answer, T0 + 24 * HOUR);
    expect(again.alerts).toEqual([]);
  });

  it('paused and expiring invites keep the counts fresh and look again sooner', () => {
    const paused = applyCheck(
      fresh,
      { kind: 'paused', invite: invite({ features: ['INVITES_DISABLED'] }), rateLimit: null },
      T0,
    );
    expect(paused.update).toMatchObject({ invite_status: 'paused', members: 1200, next_check_at: iso(T0 + 6 * HOUR) });
    expect(paused.update).not.toHaveProperty('last_ok_at');
    expect(paused.snapshot?.outcome).toBe('paused');
    const expiresAt = iso(T0 + 2 * HOUR);
    const expiring = applyCheck(fresh, { kind: 'expiring', invite: { ...invite(), expiresAt }, rateLimit: null }, T0);
    expect(expiring.update).toMatchObject({ invite_status: 'expiring', next_check_at: expiresAt, last_ok_at: iso(T0) });
    const later = iso(T0 + 48 * HOUR);
    const far = applyCheck(fresh, { kind: 'expiring', invite: { ...invite(), expiresAt: later }, rateLimit: null }, T0);
    expect(far.update.next_check_at).toBe(iso(T0 + 6 * HOUR));
  });

  it('transient failures never change the status: they back off 15 min, 30 min … at most 6 h', () => {
    const start = {
      ...fresh,
      guild_id: GUILD,
      invite_status: 'suspect' as const,
      fail_streak: 1,
      first_fail_at: iso(T0),
    };
    const steps = replay(
      start,
      Array.from({ length: 7 }, (_, i) => [T0 + i * HOUR, transient] as [number, InviteAnswer]),
    );
    expect(steps.every((s) => s.state.invite_status === 'suspect' && s.state.fail_streak === 1)).toBe(true);
    expect(steps.every((s) => s.result.snapshot === null && !s.result.publicChange)).toBe(true);
    expect(steps.map((s, i) => (Date.parse(s.state.next_check_at!) - T0 - i * HOUR) / 60_000)).toEqual([
      15, 30, 60, 120, 240, 360, 360,
    ]);
    expect(steps.at(-1)!.state.transient_streak).toBe(7);
  });

  it('a rate limit, a block page or an auth error leave the listing exactly as it was (still due)', () => {
    const answers: InviteAnswer[] = [
      { kind: 'rate_limited', retryAfterMs: 2000, global: false, scope: 'user', rateLimit: null },
      { kind: 'blocked', source: 'cloudflare', status: 429, retryAfterMs: null, rateLimit: null },
      { kind: 'auth_error', status: 401, code: 0, message: '401: Unauthorized', rateLimit: null },
    ];
    for (const answer of answers)
      expect(applyCheck(fresh, answer, T0)).toEqual({ update: {}, snapshot: null, alerts: [], publicChange: false });
  });
});
