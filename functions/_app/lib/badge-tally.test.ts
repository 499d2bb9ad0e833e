import { describe, expect, it } from 'vitest';
import type { BadgeFetchCount } from '../../../db/queries/badges';
import { BadgeTally } from './badge-tally';

describe('BadgeTally', () => {
  it('writes a window in parts of rowsPerWrite, in listing order, one count per listing and day', async () => {
    const writes: BadgeFetchCount[][] = [];
    const tally = new BadgeTally(
      async (counts) => {
        writes.push(counts);
      },
      60_000,
      1_000,
      () => Date.parse('2027-01-01T12:00:00Z'),
      2,
    );
    for (const id of [5, 3, 5, 1, 4]) tally.add(id);
    await tally.flush();
    expect(writes.map((w) => w.map((c) => [c.serverId, c.fetches]))).toEqual([
      [
        [1, 1],
        [3, 1],
      ],
      [
        [4, 1],
        [5, 2],
      ],
    ]);
    expect(writes.flat().every((c) => c.day === '2027-01-01')).toBe(true);
  });

  it('keeps the parts a failed write did not store for the next flush, and never counts a stored one twice', async () => {
    const stored: BadgeFetchCount[] = [];
    let fail = true;
    const tally = new BadgeTally(
      async (counts) => {
        if (fail && counts[0]!.serverId === 3) throw new Error('database is locked');
        stored.push(...counts);
      },
      60_000,
      1_000,
      () => Date.parse('2027-01-01T12:00:00Z'),
      2,
    );
    for (const id of [1, 2, 3, 4]) tally.add(id);
    await expect(tally.flush()).rejects.toThrow('locked');
    fail = false;
    await tally.flush();
    expect(stored.map((c) => c.serverId)).toEqual([1, 2, 3, 4]);
    expect(stored.every((c) => c.fetches === 1)).toBe(true);
  });
});
