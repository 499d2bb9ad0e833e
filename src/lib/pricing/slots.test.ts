import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BookedTerm, movedUp, nextSlotStart, overlapping, type Slot } from './slots';

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

describe('movedUp', () => {
  /**
   * A category's slots and one listing's terms booked one after the other, as activations book
   * them (each from the end of the one before, where a slot is free), and the first of them
   * refunded at `at`: what movedUp is asked after that refund.
   */
  const bookings = fc
    .tuple(
      fc.array(slot, { maxLength: 8 }),
      fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 2, maxLength: 4 }),
      fc.integer({ min: 0, max: 600 }),
      fc.integer({ min: 0, max: 299 }),
      fc.integer({ min: 1, max: 4 }),
      fc.boolean(),
    )
    .map(([others, terms, origin, into, cap, sponsored]) => {
      const taken = sponsored ? others.filter((_, i) => i < cap * 2) : [];
      const booked: BookedTerm[] = [];
      let after = origin;
      for (const [id, term] of terms.entries()) {
        const start = sponsored ? nextSlotStart([...taken, ...booked], after, term, cap) : after;
        booked.push({ id, start, end: start + term });
        after = start + term;
      }
      const [refunded, ...rest] = booked as [BookedTerm, ...BookedTerm[]];
      const at = Math.min(refunded.start + into, refunded.end - 1);
      return { taken, rest, at, cap, sponsored };
    });

  it('never moves a term later, keeps each term’s length and order, never overlaps two, and never overbooks the category', () => {
    fc.assert(
      fc.property(bookings, ({ taken, rest, at, cap, sponsored }) => {
        fc.pre(!sponsored || peak([...taken, ...rest]) <= cap);
        const placed = movedUp(rest, at, sponsored ? { taken, cap } : null);
        expect(placed.map((p) => p.id)).toEqual(rest.map((r) => r.id));
        for (const [i, p] of placed.entries()) {
          const was = rest[i]!;
          expect(p.start).toBeLessThanOrEqual(was.start);
          expect(p.start).toBeGreaterThanOrEqual(at);
          expect(p.end - p.start).toBe(was.end - was.start);
          if (i > 0) expect(p.start).toBeGreaterThanOrEqual(placed[i - 1]!.end);
        }
        if (sponsored) expect(peak([...taken, ...placed])).toBeLessThanOrEqual(cap);
        // Premium has no cap: the terms follow on from the refund without a gap.
        else expect(placed[0]!.start).toBe(at);
      }),
    );
  });

  it('starts the next Sponsored week at the refund when the slot it frees is free for the whole week, and keeps it as booked when not', () => {
    const day = 86_400_000;
    const next = { id: 2, start: 7 * day, end: 14 * day };
    // The listing's week ran from 0 and is refunded on day 2; two other slots run, the cap is 3.
    const two = [
      { start: 0, end: 20 * day },
      { start: day, end: 20 * day },
    ];
    expect(movedUp([next], 2 * day, { taken: two, cap: 3 })).toEqual([{ id: 2, start: 2 * day, end: 9 * day }]);
    // A third listing's week booked from day 7 (it waited for that slot): no earlier start fits the cap.
    const three = [...two, { start: 7 * day, end: 14 * day }];
    expect(movedUp([{ id: 2, start: 14 * day, end: 21 * day }], 2 * day, { taken: three, cap: 3 })).toEqual([
      { id: 2, start: 14 * day, end: 21 * day },
    ]);
  });
});
