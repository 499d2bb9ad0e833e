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

/** A paid term of a listing (its id, `listing`) of one placement: [start, end) in ms. */
export interface ListingTerm extends BookedTerm {
  listing: number;
}

/** What stays where it is when days are given back, and the time they were (FreedDays). */
export interface FreedDays {
  /** When the days were given back (the refund): no term moves before it. */
  at: number;
  /**
   * Terms that do not move (running ones; a listing's terms of another category): no term of
   * their listing may share a moment with one.
   */
  held: readonly ListingTerm[];
  /** Sponsored: the slots that stay taken (the running ones) and the category's cap; null for Premium (no cap). */
  slots: { taken: readonly Slot[]; cap: number } | null;
}

/** First come, first served: by the booked start, then the order id. */
export const queueOrder = (a: BookedTerm, b: BookedTerm): number => a.start - b.start || a.id - b.id;

/**
 * Where booked terms of one placement go once days before them are given back (a refund ended a
 * term early): the listing's own next terms, and for Sponsored the terms of every listing of the
 * category waiting for a slot. First come, first served (queueOrder): each, in turn, takes the
 * earliest start from `freed.at` on at which the slot rule holds over the held slots and the terms
 * placed before it (fewer than `cap` share any moment with it: nextSlotStart's rule) and no term of
 * its listing overlaps it, never before the end of its listing's term queued before it (a
 * listing's terms keep their order). A term that cannot start earlier than booked keeps its dates.
 * Each keeps its length. A term's place depends only on the terms queued before it, never on the
 * ones after. Answers the terms in queue order.
 */
export function movedUp<T extends ListingTerm>(queue: readonly T[], freed: FreedDays): T[] {
  const { at, held, slots } = freed;
  const taken: Slot[] = slots ? [...slots.taken] : [];
  const own = new Map<number, Slot[]>();
  for (const h of held) own.set(h.listing, [...(own.get(h.listing) ?? []), h]);
  /** The end of each listing's term placed last: its next one starts no earlier. */
  const after = new Map<number, number>();
  return [...queue].sort(queueOrder).map((term) => {
    const length = term.end - term.start;
    const mine = own.get(term.listing) ?? [];
    const from = Math.max(at, after.get(term.listing) ?? at);
    const fits = (start: number) =>
      overlapping(mine, start, start + length) === 0 &&
      (!slots || overlapping(taken, start, start + length) < slots.cap);
    // Candidates: `from` and every end after it (nothing frees in between), up to the booked start.
    const candidates = [from, ...[...taken, ...mine].map((s) => s.end).filter((e) => e > from)].sort((a, b) => a - b);
    const start = candidates.find((c) => c < term.start && fits(c));
    const placed: T = start === undefined ? term : { ...term, start, end: start + length };
    taken.push(placed);
    own.set(term.listing, [...mine, placed]);
    after.set(term.listing, placed.end);
    return placed;
  });
}
