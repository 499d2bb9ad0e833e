import type { Client } from '@libsql/client';

// Edge-safe on purpose: the health query (db/queries/health.ts) imports this module, and only the
// Node client (db/client.ts) registers a write probe, so the Worker bundle never pulls the native driver in.

/**
 * How long a statement keeps retrying a locked file database before it fails (and the app
 * answers 503 with Retry-After). SQLite's own busy timeout would wait on the event loop, since
 * the native driver is synchronous: every page and every other request would stall with it.
 */
export const BUSY_BUDGET_MS = 2000;

/** Longest pause between two attempts: short enough to take the lock soon after it is released. */
const MAX_PAUSE_MS = 50;

/** Whether `err` (or its cause) is SQLite's "database is locked": SQLITE_BUSY or SQLITE_LOCKED, any extended code. */
export function isBusyError(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, extendedCode } = e as { code?: unknown; extendedCode?: unknown };
    if (/^SQLITE_(BUSY|LOCKED)/.test(String(code)) || /^SQLITE_(BUSY|LOCKED)/.test(String(extendedCode))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Runs `attempt` and, while it fails with an error `retryable` accepts (the database is locked),
 * runs it again after a growing pause on a timer, so the event loop keeps serving meanwhile.
 * After `budgetMs` the last error is thrown. Only for attempts that change nothing when they fail.
 */
export async function retryWhileBusy<T>(
  attempt: () => T | Promise<T>,
  budgetMs = BUSY_BUDGET_MS,
  retryable: (err: unknown) => boolean = isBusyError,
): Promise<T> {
  const deadline = performance.now() + budgetMs;
  for (let pause = 1; ; pause = Math.min(pause * 2, MAX_PAUSE_MS)) {
    try {
      return await attempt();
    } catch (err) {
      const left = deadline - performance.now();
      if (left <= 0 || !retryable(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
    }
  }
}

const writeProbes = new WeakMap<object, () => Promise<void>>();

/** Offers a probe that takes and at once releases the write lock of `client`'s database, failing at once if it is held. */
export function registerWriteProbe(client: Client, probe: () => Promise<void>): void {
  writeProbes.set(client, probe);
}

/** The write probe registered for `client` (Node file databases), or undefined (remote libSQL, the Worker). */
export function writeProbeFor(client: Client): (() => Promise<void>) | undefined {
  return writeProbes.get(client);
}
