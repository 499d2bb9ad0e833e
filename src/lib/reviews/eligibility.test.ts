import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DISCORD_EPOCH_MS,
  REVIEW_MIN_ACCOUNT_DAYS,
  type ReviewerFacts,
  reviewDate,
  reviewRefusal,
  snowflakeTime,
} from './eligibility';

const DAY = 86_400_000;
/** A snowflake made at `ms` (with any worker, process and increment bits). */
const snowflakeAt = (ms: number, low: number) => ((BigInt(ms - DISCORD_EPOCH_MS) << 22n) | BigInt(low)).toString();

const timeArb = fc.integer({ min: DISCORD_EPOCH_MS, max: Date.UTC(2090, 0, 1) });

describe('reviewDate', () => {
  it('says what toLocaleDateString says for any moment (the formatter is built once)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (ms) => {
        expect(reviewDate(ms)).toBe(
          new Date(ms).toLocaleDateString('en-GB', {
            day: 'numeric',
            month: 'short',
            year: 'numeric',
            timeZone: 'UTC',
          }),
        );
      }),
    );
  });
});

describe('snowflakeTime', () => {
  it("reads Discord's documented example: 175928847299117063 was made 2016-04-30T11:18:25.796Z", () => {
    expect(new Date(snowflakeTime('175928847299117063')!).toISOString()).toBe('2016-04-30T11:18:25.796Z');
  });
  it('gives back the time a snowflake was made at, whatever its low 22 bits', () => {
    fc.assert(
      fc.property(timeArb, fc.integer({ min: 0, max: (1 << 22) - 1 }), (ms, low) => {
        expect(snowflakeTime(snowflakeAt(ms, low))).toBe(ms);
      }),
    );
  });
  it('is null for anything that is not a 64-bit decimal id', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        fc.pre(!/^\d{1,20}$/.test(s));
        expect(snowflakeTime(s)).toBeNull();
      }),
    );
    expect(snowflakeTime('99999999999999999999')).toBeNull();
  });
});

const member = (over: Partial<ReviewerFacts> = {}): ReviewerFacts => ({
  discordUserId: snowflakeAt(Date.UTC(2015, 6, 1), 0),
  member: true,
  role: null,
  claimedOwner: false,
  joinedAt: '2025-01-01T00:00:00.000Z',
  ...over,
});

describe('reviewRefusal', () => {
  it('lets a member of 10 days with an old account review, and refuses one of 3 days until the 7th day', () => {
    const now = Date.UTC(2026, 11, 10);
    expect(reviewRefusal(member({ joinedAt: new Date(now - 10 * DAY).toISOString() }), now, 7)).toBeNull();
    const refused = reviewRefusal(member({ joinedAt: new Date(now - 3 * DAY).toISOString() }), now, 7);
    expect(refused?.rule).toBe('member_too_new');
    expect(refused?.message).toBe(
      'Reviews need 7 days of membership: you joined 3 days ago, so you can review from 14 Dec 2026.',
    );
    expect(refused?.from).toBe(now + 4 * DAY);
  });

  it('refuses a member exactly until joined_at + the minimum days, and from then on lets them review', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2016, 0, 1), max: Date.UTC(2030, 0, 1) }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: -90 * DAY, max: 90 * DAY }),
        (joined, minDays, offset) => {
          const now = joined + minDays * DAY + offset;
          const refusal = reviewRefusal(member({ joinedAt: new Date(joined).toISOString() }), now, minDays);
          if (offset < 0) {
            expect(refusal?.rule).toBe('member_too_new');
            expect(refusal?.from).toBe(joined + minDays * DAY);
            expect(refusal!.from!).toBeGreaterThan(now);
          } else expect(refusal).toBeNull();
        },
      ),
    );
  });

  it('refuses an account younger than 30 days, naming the day it turns 30 days old', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2018, 0, 1), max: Date.UTC(2030, 0, 1) }),
        fc.integer({ min: -60 * DAY, max: 60 * DAY }),
        fc.integer({ min: 0, max: (1 << 22) - 1 }),
        (created, offset, low) => {
          const now = created + REVIEW_MIN_ACCOUNT_DAYS * DAY + offset;
          // Joined long before: only the account's age can refuse.
          const facts = member({ discordUserId: snowflakeAt(created, low), joinedAt: '2015-01-02T00:00:00.000Z' });
          const refusal = reviewRefusal(facts, now, 0);
          if (offset < 0) {
            expect(refusal?.rule).toBe('account_too_new');
            expect(refusal?.from).toBe(created + REVIEW_MIN_ACCOUNT_DAYS * DAY);
          } else expect(refusal).toBeNull();
        },
      ),
    );
  });

  it("never lets the guild's owner or managers, the claimed owner or a non-member review, whatever the dates", () => {
    const roles = fc.constantFrom('owner' as const, 'manage_guild' as const, null);
    fc.assert(
      fc.property(fc.boolean(), roles, fc.boolean(), timeArb, (claimed, role, isMember, now) => {
        fc.pre(claimed || role !== null || !isMember);
        const refusal = reviewRefusal(member({ claimedOwner: claimed, role, member: isMember }), now, 7);
        const rule =
          role === 'owner' ? 'owner' : role === 'manage_guild' ? 'manager' : claimed ? 'owner' : 'not_member';
        expect(refusal?.rule).toBe(rule);
        expect(refusal?.from).toBeNull();
      }),
    );
  });

  it('names a rule in every refusal, and a date whenever waiting helps', () => {
    fc.assert(
      fc.property(
        fc.record({
          member: fc.boolean(),
          role: fc.constantFrom('owner' as const, 'manage_guild' as const, null),
          claimedOwner: fc.boolean(),
          joinedAt: fc.option(timeArb.map((t) => new Date(t).toISOString())),
          discordUserId: timeArb.map((t) => snowflakeAt(t, 1)),
        }),
        timeArb,
        fc.integer({ min: 0, max: 30 }),
        (facts, now, days) => {
          const refusal = reviewRefusal(facts, now, days);
          if (!refusal) return;
          expect(refusal.message.length).toBeGreaterThan(10);
          if (refusal.rule === 'member_too_new' || refusal.rule === 'account_too_new') {
            expect(refusal.from).not.toBeNull();
            expect(refusal.message).toMatch(/you can review from \d{1,2} \w{3,4} \d{4}\.$/);
          }
        },
      ),
    );
  });
});
