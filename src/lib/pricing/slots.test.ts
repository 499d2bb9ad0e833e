import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextSlotStart, overlapping, type Slot } from './slots';

const slot = fc
  .tuple(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 1, max: 300 }))
  .map(([start, len]): Slot => ({ start, end: start + len }));

/** The most slots running at one moment (slots are [start, end)). */
const peak = (slots: readonly Slot[]) =>
  Math.max(0, ...slots.map((s) => slots.filter((t) => t.start <= s.start && t.end > s.start).length));

/** Slots taken, when a purchase may start, its term and the cap: what nextSlotStart is asked. */
const requests = fc.tuple(
  fc.array(slot, { maxLength: 10 }),
  fc.integer({ min: 0, max: 1200 }),
  fc.integer({ min: 1, max: 300 }),
  fc.integer({ min: 1, max: 4 }),
);

describe('nextSlotStart', () => {
  it('never overbooks: with the new slot no moment holds more than the cap, if none did before', () => {
    fc.assert(
      fc.property(requests, ([taken, from, term, cap]) => {
        fc.pre(peak(taken) <= cap);
        const start = nextSlotStart(taken, from, term, cap);
        expect(start).toBeGreaterThanOrEqual(from);
        expect(peak([...taken, { start, end: start + term }])).toBeLessThanOrEqual(cap);
        expect(overlapping(taken, start, start + term)).toBeLessThan(cap);
      }),
    );
  });

  it('starts at once when the window is free, and never later than the last slot ends', () => {
    fc.assert(
      fc.property(requests, ([taken, from, term, cap]) => {
        const start = nextSlotStart(taken, from, term, cap);
        if (overlapping(taken, from, from + term) < cap) expect(start).toBe(from);
        expect(start).toBeLessThanOrEqual(Math.max(from, ...taken.map((s) => s.end)));
        // No earlier candidate (from, or a slot's end after it) would have done.
        for (const c of [from, ...taken.map((s) => s.end)])
          if (c >= from && c < start) expect(overlapping(taken, c, c + term)).toBeGreaterThanOrEqual(cap);
      }),
    );
  });

  it('schedules a fourth sponsored week in a full category when the first of the three ends', () => {
    const day = 86_400_000;
    const taken = [
      { start: 0, end: 7 * day },
      { start: day, end: 8 * day },
      { start: 2 * day, end: 9 * day },
    ];
    expect(nextSlotStart(taken, 3 * day, 7 * day, 3)).toBe(7 * day);
  });
});
