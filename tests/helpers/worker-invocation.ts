import worker from '../../functions/worker';

/** The Cloudflare Workers Free plan's subrequests per invocation. */
export { FREE_PLAN_SUBREQUESTS } from '../../src/lib/invite-checks/budget';

/**
 * Runs one invocation of the Worker's Cron Trigger `cron` at `scheduledTime` (every job on it, to
 * the end of its waitUntil work) and answers how many subrequests it made: the Worker's outside
 * calls (the database over HTTP, Discord, Stripe, the mail provider, the deploy hook) all go
 * through fetch, counted here and passed on.
 */
export async function scheduledSubrequests(
  cron: string,
  scheduledTime: number,
  bindings: Parameters<typeof worker.scheduled>[1],
): Promise<number> {
  const real = globalThis.fetch;
  let subrequests = 0;
  globalThis.fetch = ((...args: Parameters<typeof fetch>) => {
    subrequests += 1;
    return real(...args);
  }) as typeof fetch;
  try {
    const pending: Promise<unknown>[] = [];
    worker.scheduled({ cron, scheduledTime }, bindings, { waitUntil: (p) => void pending.push(p) });
    await Promise.all(pending);
  } finally {
    globalThis.fetch = real;
  }
  return subrequests;
}
