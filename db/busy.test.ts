import { describe, expect, it } from 'vitest';
import { isBusyError, retryWhileBusy } from './busy';

const busy = () => Object.assign(new Error('SQLITE_BUSY: database is locked'), { code: 'SQLITE_BUSY' });

describe('isBusyError', () => {
  it('knows SQLITE_BUSY and SQLITE_LOCKED by code, extended code or cause', () => {
    expect(isBusyError(busy())).toBe(true);
    expect(isBusyError({ code: 'SQLITE_LOCKED_SHAREDCACHE' })).toBe(true);
    expect(isBusyError({ code: 'UNKNOWN', extendedCode: 'SQLITE_BUSY_SNAPSHOT' })).toBe(true);
    expect(isBusyError(new Error('Failed query', { cause: busy() }))).toBe(true);
  });

  it('leaves every other failure alone', () => {
    expect(isBusyError({ code: 'SQLITE_CONSTRAINT_NOTNULL' })).toBe(false);
    expect(isBusyError(new Error('disk I/O error'))).toBe(false);
    expect(isBusyError(undefined)).toBe(false);
  });
});

describe('retryWhileBusy', () => {
  it('runs the attempt again while the database is busy, and answers its first success', async () => {
    let attempts = 0;
    const out = await retryWhileBusy(() => {
      if (++attempts < 4) throw busy();
      return 'stored';
    });
    expect(out).toBe('stored');
    expect(attempts).toBe(4);
  });

  it('throws any other error at once', async () => {
    let attempts = 0;
    const refused = new Error('NOT NULL constraint failed');
    await expect(
      retryWhileBusy(() => {
        attempts++;
        throw refused;
      }),
    ).rejects.toBe(refused);
    expect(attempts).toBe(1);
  });

  it('gives up with the busy error once the budget is spent, having waited on timers', async () => {
    let attempts = 0;
    let turns = 0;
    const ticker = setInterval(() => turns++, 1);
    const started = performance.now();
    try {
      await expect(
        retryWhileBusy(async () => {
          attempts++;
          throw busy();
        }, 30),
      ).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    } finally {
      clearInterval(ticker);
    }
    expect(performance.now() - started).toBeGreaterThanOrEqual(29);
    expect(attempts).toBeGreaterThan(1);
    // Other timers kept running meanwhile: the wait never held the event loop.
    expect(turns).toBeGreaterThan(0);
  });
});
