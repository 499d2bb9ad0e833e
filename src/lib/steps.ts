/**
 * Long work over every listing (the rank recompute, the niche medians) goes in steps, with a turn
 * of the event loop between them: the local database driver reads synchronously, so one read of a
 * million rows, one loop over them or one sort of a category's 200,000 held every page and API
 * answer of the server until it ended (docs/SCALING.md).
 */

/**
 * Resolves on a later turn of the event loop, after the requests that came meanwhile: Node's
 * setImmediate (after the loop's I/O, without a timer's 1 ms), else a timer (the Worker).
 */
export const nextTurn = (): Promise<void> =>
  new Promise((resolve) => (typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0)));

/** Items handled between two turns: about 5-10 ms of the recompute's work at a time. */
export const ITEMS_PER_STEP = 10_000;

/** Calls `each` on every item in order, with a turn of the event loop after every `step` of them. */
export async function inSteps<T>(items: readonly T[], each: (item: T) => void, step = ITEMS_PER_STEP): Promise<void> {
  for (let start = 0; start < items.length; start += step) {
    if (start > 0) await nextTurn();
    const end = Math.min(items.length, start + step);
    for (let i = start; i < end; i++) each(items[i]!);
  }
}

/**
 * `items` sorted by `compare` (a new array, stable, as `toSorted` gives), in steps: runs of `step`
 * items sorted one at a time, then merged two by two, `step` items at a time, with a turn of the
 * event loop between steps.
 */
export async function sortInSteps<T>(
  items: readonly T[],
  compare: (a: T, b: T) => number,
  step = ITEMS_PER_STEP,
): Promise<T[]> {
  let runs: T[][] = [];
  for (let start = 0; start < items.length; start += step) {
    if (start > 0) await nextTurn();
    runs.push(items.slice(start, start + step).sort(compare));
  }
  while (runs.length > 1) {
    const merged: T[][] = [];
    for (let i = 0; i < runs.length; i += 2) {
      const right = runs[i + 1];
      merged.push(right ? await mergeInSteps(runs[i]!, right, compare, step) : runs[i]!);
    }
    runs = merged;
  }
  return runs[0] ?? [];
}

/** Two sorted runs as one, the left run's item first on a tie (stable), `step` items between turns. */
async function mergeInSteps<T>(left: T[], right: T[], compare: (a: T, b: T) => number, step: number): Promise<T[]> {
  const out = new Array<T>(left.length + right.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (k < out.length) {
    await nextTurn();
    const end = Math.min(out.length, k + step);
    while (k < end) {
      if (j >= right.length || (i < left.length && compare(left[i]!, right[j]!) <= 0)) out[k++] = left[i++]!;
      else out[k++] = right[j++]!;
    }
  }
  return out;
}
