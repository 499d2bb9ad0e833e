import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inSteps, sortInSteps } from './steps';

/** Items with few distinct keys (ties) and their place in the input, to see that a sort is stable. */
const items = fc
  .array(fc.integer({ min: 0, max: 5 }), { maxLength: 80 })
  .map((keys) => keys.map((k, at) => ({ k, at })));
const byKey = (a: { k: number }, b: { k: number }) => a.k - b.k;

describe('sortInSteps', () => {
  it('gives what toSorted gives (stable on ties), whatever the step', async () => {
    await fc.assert(
      fc.asyncProperty(items, fc.integer({ min: 1, max: 9 }), async (list, step) => {
        expect(await sortInSteps(list, byKey, step)).toEqual(list.toSorted(byKey));
      }),
    );
  });

  it('leaves its input as it was', async () => {
    const list = [3, 1, 2].map((k, at) => ({ k, at }));
    await sortInSteps(list, byKey, 1);
    expect(list.map((i) => i.k)).toEqual([3, 1, 2]);
  });
});

describe('inSteps', () => {
  it('calls back on every item once, in order, whatever the step', async () => {
    await fc.assert(
      fc.asyncProperty(items, fc.integer({ min: 1, max: 9 }), async (list, step) => {
        const seen: number[] = [];
        await inSteps(list, (i) => seen.push(i.at), step);
        expect(seen).toEqual(list.map((i) => i.at));
      }),
    );
  });

  it('lets the event loop turn between steps, and not within one', async () => {
    const at: string[] = [];
    // Work queued before the steps start runs at the first turn they leave.
    setImmediate(() => at.push('other work'));
    await inSteps([1, 2, 3, 4], (i) => at.push(String(i)), 2);
    expect(at).toEqual(['1', '2', 'other work', '3', '4']);
  });
});
