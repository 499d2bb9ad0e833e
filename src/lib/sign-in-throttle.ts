/**
 * The console sign-in throttle's rules: pure arithmetic over the failures the database holds
 * (db/queries/sign-in-failures.ts). Counted per client address and per (email, address), never
 * per account, so failures from elsewhere cannot lock an operator out, and an email that names
 * no operator is throttled exactly like one that does.
 */
export const SIGN_IN_THROTTLE = {
  /** Failures are remembered this long, then swept. */
  windowMs: 24 * 60 * 60 * 1000,
  /** Wrong passwords for one email from one address before each attempt has to wait. */
  freePerPair: 5,
  /** Failures from one address, whatever the emails, before each attempt has to wait. */
  freePerAddress: 20,
  /** The first wait; each further failure doubles it. */
  firstDelayMs: 2000,
  /** The longest wait. */
  maxDelayMs: 15 * 60 * 1000,
} as const;

/** Failures counted for one key (an address, or an email from an address) within the window. */
export interface FailureTally {
  failures: number;
  /** ISO time of the most recent failure, null when there is none. */
  lastAt: string | null;
}

/** What the throttle knows about an attempt: the failures before it, per address and per pair. */
export interface SignInHistory {
  address: FailureTally;
  pair: FailureTally;
}

/** The wait after `failures` failures when the first `free` cost nothing: 0, then doubling up to the cap. */
export function delayAfter(failures: number, free: number): number {
  if (failures < free) return 0;
  const { firstDelayMs, maxDelayMs } = SIGN_IN_THROTTLE;
  // Capped before exponentiating, so a huge count cannot overflow to Infinity and back.
  return Math.min(maxDelayMs, firstDelayMs * 2 ** Math.min(failures - free, 30));
}

const waitFor = (tally: FailureTally, free: number, now: number): number =>
  tally.lastAt === null ? 0 : Math.max(0, Date.parse(tally.lastAt) + delayAfter(tally.failures, free) - now);

/** Milliseconds the attempt must still wait (0: it may go ahead), the longer of the two waits. */
export function signInWaitMs(history: SignInHistory, now: number): number {
  return Math.max(
    waitFor(history.pair, SIGN_IN_THROTTLE.freePerPair, now),
    waitFor(history.address, SIGN_IN_THROTTLE.freePerAddress, now),
  );
}
