/** A sponsored slot taken in a category: [start, end) in ms. */
export interface Slot {
  start: number;
  end: number;
}

/** The slots among `taken` that share any moment with [start, end). */
export const overlapping = (taken: readonly Slot[], start: number, end: number): number =>
  taken.filter((s) => s.start < end && s.end > start).length;

/**
 * When a new sponsored slot of `termMs` may start in a category (#30): the earliest time from
 * `from` on at which fewer than `cap` taken slots share any moment with [start, start + term).
 * That keeps every moment under the cap (scheduled, never overbooked) with a rule the database can
 * check in one statement when it writes the slot (db/queries/orders.ts). Candidates are `from` and
 * every taken slot's end: a later start frees nothing until some slot ends.
 */
export function nextSlotStart(taken: readonly Slot[], from: number, termMs: number, cap: number): number {
  if (cap < 1) throw new RangeError('cap must be at least 1');
  const candidates = [from, ...taken.map((s) => s.end).filter((e) => e > from)].sort((a, b) => a - b);
  for (const start of candidates) if (overlapping(taken, start, start + termMs) < cap) return start;
  // Unreachable: after the last end nothing overlaps.
  return Math.max(from, ...taken.map((s) => s.end));
}

/** A listing's booked term of one placement: its order and [start, end) in ms. */
export interface BookedTerm extends Slot {
  id: number;
}

/**
 * Where a listing's booked terms of one placement go once the days before them are given back (a
 * refund ended the term before them early): in their order, each from `from` (ms) or the end of
 * the one before it, as early as the slot rule allows (`slots`: the category's other Sponsored
 * slots taken and its cap; null for Premium, which has no cap), never later than booked, each as
 * long as booked. A term that cannot start earlier keeps its dates, and the ones after it follow it.
 */
export function movedUp(
  booked: readonly BookedTerm[],
  from: number,
  slots: { taken: readonly Slot[]; cap: number } | null,
): BookedTerm[] {
  const taken = slots ? [...slots.taken] : [];
  let after = from;
  return [...booked]
    .sort((a, b) => a.start - b.start)
    .map((term) => {
      const length = term.end - term.start;
      const start = slots ? nextSlotStart(taken, after, length, slots.cap) : after;
      const placed = start < term.start ? { id: term.id, start, end: start + length } : term;
      taken.push(placed);
      after = placed.end;
      return placed;
    });
}
