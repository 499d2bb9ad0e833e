import { describe, expect, it } from 'vitest';
import { delayAfter, SIGN_IN_THROTTLE, signInWaitMs } from './sign-in-throttle';

const at = (ms: number) => new Date(ms).toISOString();
const none = { failures: 0, lastAt: null };

describe('sign-in throttle', () => {
  it('lets the free failures through, then doubles the wait up to the cap', () => {
    const free = SIGN_IN_THROTTLE.freePerPair;
    expect(delayAfter(free - 1, free)).toBe(0);
    expect(delayAfter(free, free)).toBe(2000);
    expect(delayAfter(free + 1, free)).toBe(4000);
    expect(delayAfter(free + 3, free)).toBe(16_000);
    expect(delayAfter(free + 50, free)).toBe(SIGN_IN_THROTTLE.maxDelayMs);
    expect(delayAfter(1e9, free)).toBe(SIGN_IN_THROTTLE.maxDelayMs);
  });

  it('counts the wait from the last failure and takes the longer of the address and pair waits', () => {
    const t = Date.parse('2030-01-01T00:00:00.000Z');
    const pair = { failures: SIGN_IN_THROTTLE.freePerPair, lastAt: at(t) };
    expect(signInWaitMs({ address: none, pair }, t)).toBe(2000);
    expect(signInWaitMs({ address: none, pair }, t + 1500)).toBe(500);
    expect(signInWaitMs({ address: none, pair }, t + 2000)).toBe(0);
    const address = { failures: SIGN_IN_THROTTLE.freePerAddress + 2, lastAt: at(t) };
    expect(signInWaitMs({ address, pair }, t)).toBe(8000);
    expect(signInWaitMs({ address: none, pair: none }, t)).toBe(0);
  });
});
