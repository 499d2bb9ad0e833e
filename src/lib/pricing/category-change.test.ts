import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { categoryChangeRefusal, type SlotHolder } from './category-change';
import { placementDay } from './plans';

const CATEGORIES = ['Gaming', 'Crypto', 'Anime'];
const holder = fc.record({
  kind: fc.constantFrom<SlotHolder['kind']>('checkout', 'comp'),
  state: fc.constantFrom<SlotHolder['state']>('paid', 'open'),
  category: fc.constantFrom(...CATEGORIES),
  ends_at: fc.option(
    fc.integer({ min: Date.parse('2026-01-01'), max: Date.parse('2028-01-01') }).map((t) => new Date(t).toISOString()),
    { nil: null },
  ),
});

describe('categoryChangeRefusal', () => {
  it('refuses a move away from a Sponsored term, saying until when and to refund or wait', () => {
    const term: SlotHolder = {
      kind: 'checkout',
      state: 'paid',
      category: 'Gaming',
      ends_at: '2026-12-05T10:00:00.000Z',
    };
    expect(categoryChangeRefusal([term], 'Crypto')).toBe(
      "This listing has a Sponsored term bought in Gaming, running or booked until 5\u00a0Dec\u00a02026. It holds one of the Sponsored slots of Gaming, and a Sponsored card leads the list of the listing's category: moved, the card would lead another list while Gaming kept the slot. Refund the order under Orders first, or change the category after 5\u00a0Dec\u00a02026.",
    );
    // Back to the category it was bought in: nothing moves.
    expect(categoryChangeRefusal([term], 'Gaming')).toBeNull();
    // A free grant cannot be refunded: the way out is to wait.
    expect(categoryChangeRefusal([{ ...term, kind: 'comp' }], 'Crypto')).toMatch(
      /granted free of charge cannot be refunded: change the category after 5\u00a0Dec\u00a02026\.$/,
    );
    expect(categoryChangeRefusal([], 'Crypto')).toBeNull();
  });

  it('refuses while a Sponsored checkout opened in the old category can still be paid', () => {
    expect(
      categoryChangeRefusal([{ kind: 'checkout', state: 'open', category: 'Gaming', ends_at: null }], 'Anime'),
    ).toMatch(/^A Sponsored checkout for this listing, opened in Gaming, can still be paid/);
  });

  it('refuses exactly when an order holds or may take a slot elsewhere, naming the latest end', () => {
    fc.assert(
      fc.property(fc.array(holder, { maxLength: 5 }), fc.constantFrom(...CATEGORIES), (holders, to) => {
        const refusal = categoryChangeRefusal(holders, to);
        const elsewhere = holders.filter((h) => h.category !== to);
        const paid = elsewhere.filter((h) => h.state === 'paid' && h.ends_at);
        const open = elsewhere.filter((h) => h.state === 'open' && h.kind === 'checkout');
        expect(refusal !== null).toBe(paid.length > 0 || open.length > 0);
        if (paid.length) {
          const last = paid
            .map((h) => h.ends_at!)
            .sort()
            .at(-1)!;
          expect(refusal).toContain(`after ${placementDay(last)}.`);
          for (const h of paid) expect(refusal).toContain(h.category);
          expect(refusal).not.toContain(`bought in ${to}`);
        }
      }),
    );
  });
});
