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
