import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ListingTerm, movedUp, nextSlotStart, overlapping, queueOrder, type Slot } from './slots';

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
   * A category's terms as activations book them, one payment after another (each from its time of
   * payment or the end of its listing's last term, where a slot is free: nextSlotStart), then one of
   * them refunded at `at` (running or booked): what movedUp is asked after that refund. The terms
   * running at `at` are held; the ones not started are the queue. Premium: no cap, one listing.
   */
  const bookings = fc
    .tuple(
      fc.array(
        fc.record({
          listing: fc.integer({ min: 0, max: 3 }),
          paidAt: fc.integer({ min: 0, max: 400 }),
          term: fc.integer({ min: 1, max: 300 }),
        }),
        { minLength: 2, maxLength: 9 },
      ),
      fc.nat(),
      fc.integer({ min: 0, max: 299 }),
      fc.integer({ min: 1, max: 3 }),
      fc.boolean(),
    )
    .map(([payments, pick, into, cap, sponsored]) => {
      const booked: ListingTerm[] = [];
      for (const [id, p] of payments.entries()) {
        const listing = sponsored ? p.listing : 0;
        const after = Math.max(p.paidAt, ...booked.filter((b) => b.listing === listing).map((b) => b.end));
        const start = sponsored ? nextSlotStart(booked, after, p.term, cap) : after;
        booked.push({ id, listing, start, end: start + p.term });
      }
      const refunded = booked[pick % booked.length]!;
      const at = Math.min(refunded.start + into, refunded.end - 1);
      const rest = booked.filter((b) => b.id !== refunded.id && b.end > at);
      const held = rest.filter((b) => b.start <= at);
      const queue = rest.filter((b) => b.start > at);
      return { held, queue, at, cap, sponsored, refunded };
    });

  const ask = ({
    held,
    queue,
    at,
    cap,
    sponsored,
  }: {
    held: ListingTerm[];
    queue: ListingTerm[];
    at: number;
    cap: number;
    sponsored: boolean;
  }) => movedUp(queue, { at, held, slots: sponsored ? { taken: held, cap } : null });

  it('never overbooks the category, never moves a term later or changes its length, never overlaps two terms of a listing, and keeps each listing’s order', () => {
    fc.assert(
      fc.property(bookings, (b) => {
        const placed = ask(b);
        expect(placed.map((p) => p.id)).toEqual([...b.queue].sort(queueOrder).map((q) => q.id));
        for (const p of placed) {
          const was = b.queue.find((q) => q.id === p.id)!;
          expect(p.listing).toBe(was.listing);
          expect(p.start).toBeLessThanOrEqual(was.start);
          expect(p.start).toBeGreaterThanOrEqual(b.at);
          expect(p.end - p.start).toBe(was.end - was.start);
        }
        const all = [...b.held, ...placed];
        if (b.sponsored) expect(peak(all)).toBeLessThanOrEqual(b.cap);
        for (const listing of new Set(all.map((t) => t.listing))) {
          const own = all.filter((t) => t.listing === listing).sort((x, y) => x.start - y.start);
          for (let i = 1; i < own.length; i++) expect(own[i]!.start).toBeGreaterThanOrEqual(own[i - 1]!.end);
          // A listing's queued terms run in the order they were booked.
          const queued = placed.filter((t) => t.listing === listing).map((t) => t.id);
          expect(queued).toEqual(own.filter((t) => queued.includes(t.id)).map((t) => t.id));
        }
        // Premium has no cap: the listing's next term follows on from the refund (or its running term) without a gap.
        if (!b.sponsored && placed[0]) expect(placed[0].start).toBe(Math.max(b.at, ...b.held.map((h) => h.end)));
      }),
      { numRuns: 1000 },
    );
  });

  it('serves the queue first come, first served: a term’s new dates never depend on the terms queued after it, and no earlier start was open to it', () => {
    fc.assert(
      fc.property(bookings, (b) => {
        const placed = ask(b);
        const queue = [...b.queue].sort(queueOrder);
        for (let k = 0; k < queue.length; k++) {
          // Without the terms queued after it, a term gets exactly the same dates.
          expect(ask({ ...b, queue: queue.slice(0, k + 1) }).at(-1)).toEqual(placed[k]);
          // Every earlier moment from the refund on was closed to it by the terms before it (or its own listing's).
          const p = placed[k]!;
          const before = [...b.held, ...placed.slice(0, k)];
          const ownBefore = before.filter((t) => t.listing === p.listing);
          const length = p.end - p.start;
          for (let s = b.at; s < p.start; s++) {
            const full = b.sponsored && overlapping(before, s, s + length) >= b.cap;
            const clash = overlapping(ownBefore, s, s + length) > 0 || ownBefore.some((t) => t.start > s);
            expect(full || clash, `term ${p.id} could have started at ${s}`).toBe(true);
          }
        }
      }),
    );
  });

  it('moves the next Sponsored week of the listing, or of another listing waiting for the slot, into the days a refund gives back', () => {
    const day = 86_400_000;
    // The listing's week ran from 0 and is refunded on day 2; two other slots run, the cap is 3.
    const two: ListingTerm[] = [
      { id: 10, listing: 10, start: 0, end: 20 * day },
      { id: 11, listing: 11, start: day, end: 20 * day },
    ];
    const next = { id: 2, listing: 1, start: 7 * day, end: 14 * day };
    expect(movedUp([next], { at: 2 * day, held: two, slots: { taken: two, cap: 3 } })).toEqual([
      { ...next, start: 2 * day, end: 9 * day },
    ]);
    // One slot in the category: listing 1's week runs (refunded on day 2), listing 2's week waits
    // for it (booked from day 7), then listing 1's month (booked from day 14). The waiting week
    // takes the freed days first; the month follows it, a week earlier than booked.
    const waiting = { id: 3, listing: 2, start: 7 * day, end: 14 * day };
    const month = { id: 4, listing: 1, start: 14 * day, end: 44 * day };
    expect(movedUp([month, waiting], { at: 2 * day, held: [], slots: { taken: [], cap: 1 } })).toEqual([
      { ...waiting, start: 2 * day, end: 9 * day },
      { ...month, start: 9 * day, end: 39 * day },
    ]);
    // A running term of the waiting listing's own (another category's, say) keeps it from moving before its end.
    const own = { id: 5, listing: 2, start: 0, end: 5 * day };
    expect(movedUp([waiting], { at: 2 * day, held: [own], slots: { taken: [], cap: 1 } })).toEqual([
      { ...waiting, start: 5 * day, end: 12 * day },
    ]);
  });
});
