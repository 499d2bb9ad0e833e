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

/** The counter of the request being measured by fetchSubrequests, if any. */
let measuring: { subrequests: number } | null = null;
let counting = false;

/**
 * Answers one request through a Worker `entry` (a fresh `workerEntry()` per test: an entry keeps
 * its app, and so its database client, for the isolate's life), to the end of its waitUntil work,
 * and counts the subrequests it made. The database client keeps the fetch it was made with, at
 * the entry's first request: so fetch is wrapped once for the process (counting only while a
 * request is measured), not swapped per request.
 */
export async function fetchSubrequests(
  entry: Pick<typeof worker, 'fetch'>,
  request: Request,
  bindings: Parameters<typeof worker.fetch>[1],
): Promise<{ response: Response; subrequests: number }> {
  if (!counting) {
    const real = globalThis.fetch;
    globalThis.fetch = ((...args: Parameters<typeof fetch>) => {
      if (measuring) measuring.subrequests += 1;
      return real(...args);
    }) as typeof fetch;
    counting = true;
  }
  const counter = { subrequests: 0 };
  measuring = counter;
  try {
    const pending: Promise<unknown>[] = [];
    const response = await entry.fetch(request, bindings, { waitUntil: (p) => void pending.push(p) });
    await Promise.all(pending);
    return { response, subrequests: counter.subrequests };
  } finally {
    measuring = null;
  }
}
