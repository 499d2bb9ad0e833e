import { placementDay } from './plans';

/**
 * A Sponsored order of a listing that holds one of its category's slots (a paid term running or
 * booked), or may still take one (a checkout Stripe can still be paid on): its `category` is the
 * one it was bought in, where the slot is counted (orders.category).
 */
export interface SlotHolder {
  kind: 'checkout' | 'comp';
  state: 'paid' | 'open';
  category: string;
  ends_at: string | null;
}

const joined = (names: string[]): string =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

/**
 * Why a listing's category may not change to `to`, or null when it may. A Sponsored term is counted
 * against the category it was bought in, while a Sponsored card leads the list of its listing's
 * current category: moved, the card would lead another category (past its cap, perhaps) while the
 * old one kept the slot. So not while a Sponsored term bought in another category runs or is
 * booked, nor while a Sponsored checkout opened in another one can still be paid. Premium has no
 * per-category cap: its orders are never holders. The operator's way out: refund, or wait.
 */
export function categoryChangeRefusal(holders: readonly SlotHolder[], to: string): string | null {
  const elsewhere = holders.filter((h) => h.category !== to);
  const paid = elsewhere.filter((h) => h.state === 'paid' && h.ends_at);
  if (paid.length) {
    const categories = joined([...new Set(paid.map((h) => h.category))]);
    const until = paid
      .map((h) => h.ends_at!)
      .sort()
      .at(-1)!;
    const one = paid.length === 1;
    const why = `This listing has ${one ? 'a Sponsored term' : 'Sponsored terms'} bought in ${categories}, running or booked until ${placementDay(until)}. ${one ? 'It holds' : 'They hold'} ${one ? 'one of the Sponsored slots' : 'Sponsored slots'} of ${categories}, and a Sponsored card leads the list of the listing's category: moved, the card would lead another list while ${categories} kept the slot.`;
    const what = paid.every((h) => h.kind === 'checkout')
      ? `Refund the ${one ? 'order' : 'orders'} under Orders first, or change the category after ${placementDay(until)}.`
      : `A placement granted free of charge cannot be refunded: change the category after ${placementDay(until)}.`;
    return `${why} ${what}`;
  }
  const open = elsewhere.filter((h) => h.state === 'open' && h.kind === 'checkout');
  if (open.length) {
    const categories = joined([...new Set(open.map((h) => h.category))]);
    return `A Sponsored checkout for this listing, opened in ${categories}, can still be paid, and its term would hold a Sponsored slot of ${categories}: change the category once it has closed unpaid (a card checkout within the hour, a bank payment in a few business days), or refund it under Orders once paid.`;
  }
  return null;
}
