import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit';

describe('GroupCommit', () => {
  it('writes concurrent callers in one shared write and hands each its own outputs', async () => {
    const writes: number[][] = [];
    const gc = new GroupCommit<number, string>(async (rows) => {
      writes.push(rows);
      return rows.map((r) => `stored ${r}`);
    });
    const results = await Promise.all([gc.add([1]), gc.add([2, 3]), gc.add([4])]);
    expect(writes).toEqual([[1, 2, 3, 4]]);
    expect(results).toEqual([['stored 1'], ['stored 2', 'stored 3'], ['stored 4']]);
  });

  it('fails only the caller whose rows fail when the shared write is refused', async () => {
    const gc = new GroupCommit<number, number>(async (rows) => {
      if (rows.includes(13)) throw new Error('bad row');
      return rows;
    });
    const [a, b, c] = await Promise.allSettled([gc.add([1]), gc.add([13]), gc.add([2])]);
    expect(a).toEqual({ status: 'fulfilled', value: [1] });
    expect(b.status).toBe('rejected');
    expect(c).toEqual({ status: 'fulfilled', value: [2] });
  });

  it('splits a large burst into writes of at most maxRows, keeping each caller whole', async () => {
    const sizes: number[] = [];
    const gc = new GroupCommit<number, number>(async (rows) => {
      sizes.push(rows.length);
      return rows;
    }, 5);
    await Promise.all([gc.add([1, 2, 3]), gc.add([4, 5, 6]), gc.add([7])]);
    expect(sizes).toEqual([3, 4]);
  });
});
