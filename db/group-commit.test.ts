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

  it('fails every caller at once when the database is locked, without writing each alone', async () => {
    let writes = 0;
    const locked = Object.assign(new Error('SQLITE_BUSY: database is locked'), { code: 'SQLITE_BUSY' });
    const gc = new GroupCommit<number, number>(async () => {
      writes++;
      throw locked;
    });
    const results = await Promise.allSettled([gc.add([1]), gc.add([2]), gc.add([3])]);
    expect(results).toEqual(Array(3).fill({ status: 'rejected', reason: locked }));
    expect(writes).toBe(1);
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

  it('keeps one write in flight: callers that arrive meanwhile are written together once it ends', async () => {
    const writes: number[][] = [];
    let finishFirst: () => void = () => {};
    const gc = new GroupCommit<number, number>(async (rows) => {
      writes.push(rows);
      if (writes.length === 1) await new Promise<void>((resolve) => (finishFirst = resolve));
      return rows;
    });
    const first = gc.add([1]);
    // The first write is in flight (on a write thread, say) while three more callers arrive, each
    // a turn apart: none of them starts a write of its own.
    const later: Promise<number[]>[] = [];
    for (const row of [2, 3, 4]) {
      await new Promise((resolve) => setImmediate(resolve));
      later.push(gc.add([row]));
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual([[1]]);
    finishFirst();
    expect(await first).toEqual([1]);
    expect(await Promise.all(later)).toEqual([[2], [3], [4]]);
    expect(writes).toEqual([[1], [2, 3, 4]]);
  });

  describe('a window kept open while callers keep arriving', () => {
    /** A defer that runs nothing until the test turns the loop. */
    /** A write that records each batch it is given. */
    const recording = (writes: number[][]) => async (rows: number[]) => {
      writes.push(rows);
      return rows;
    };

    function manualTurns() {
      let pending: (() => void)[] = [];
      return {
        defer: (fn: () => void) => void pending.push(fn),
        /** Runs the callbacks deferred so far (one turn), then lets writes settle. */
        async turn() {
          const run = pending;
          pending = [];
          for (const fn of run) fn();
          await new Promise((r) => setImmediate(r));
        },
        get open() {
          return pending.length > 0;
        },
      };
    }

    it('shares one write among callers of consecutive turns, and a quiet turn closes it', async () => {
      const loop = manualTurns();
      const writes: number[][] = [];
      const gc = new GroupCommit<number, number>(recording(writes), 500, loop.defer, 4);
      const a = gc.add([1]);
      await loop.turn(); // nobody else came: written after a single turn
      expect(await a).toEqual([1]);
      expect(writes).toEqual([[1]]);

      const b = gc.add([2]);
      gc.add([3]);
      await loop.turn(); // 3 joined during the first turn: wait one more
      gc.add([4]);
      expect(writes).toHaveLength(1);
      await loop.turn(); // 4 joined: wait again
      expect(writes).toHaveLength(1);
      await loop.turn(); // a quiet turn: write
      expect(writes).toEqual([[1], [2, 3, 4]]);
      expect(await b).toEqual([2]);
      expect(loop.open).toBe(false);
    });

    it('stays open at most maxTurns turns, and closes at once when maxRows are queued', async () => {
      const loop = manualTurns();
      const writes: number[][] = [];
      const gc = new GroupCommit<number, number>(recording(writes), 4, loop.defer, 3);
      gc.add([1]);
      gc.add([2]);
      await loop.turn();
      gc.add([3]);
      await loop.turn();
      gc.add([9]);
      await loop.turn(); // still arriving, but the third turn ends the window
      expect(writes).toEqual([[1, 2, 3, 9]]);

      gc.add([5]);
      gc.add([6, 7, 8]); // 4 rows: the window closes at the end of this turn
      await loop.turn();
      expect(writes).toEqual([
        [1, 2, 3, 9],
        [5, 6, 7, 8],
      ]);
    });
  });
});
