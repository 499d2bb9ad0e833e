// The limit on pages rendered on request (#18's long tail): cached and prerendered pages never pass
// through it. Per client, a rate (RATE_LIMITS.renders, counted like every public limit: in memory on
// Node, the Rate Limiting bindings on the Worker) and at most PER_CLIENT_IN_FLIGHT renders at once;
// overall, at most `concurrent` renders run and `queue` wait, and past that depth the answer is
// 503 with Retry-After. One client flooding distinct URLs so holds its own few slots, and every
// other visitor's render starts at once or behind a short queue.

/** Why a render was not started: the status and Retry-After (s) of the answer. */
export class RenderRefused extends Error {
  constructor(
    readonly status: 429 | 503,
    readonly retryAfterS: number,
  ) {
    super(status === 429 ? 'Too many pages rendered for this client' : 'Too many pages being rendered');
  }
}

/** Renders of one client running or waiting at once, at most. */
export const PER_CLIENT_IN_FLIGHT = 2;

export interface RenderGateOptions {
  /** Renders running at once (the event loop serves one; a few overlap their database reads). */
  concurrent?: number;
  /** Renders waiting at most; one more is refused with 503. */
  queue?: number;
  /** The client's rate: resolves when allowed, throws RenderRefused(429) past it. */
  countClient?: (client: string) => void | Promise<void>;
}

/** A gate for on-demand renders; `run(client, render)` runs `render` when a slot is free. */
export function createRenderGate(options: RenderGateOptions = {}) {
  const concurrent = options.concurrent ?? 4;
  const depth = options.queue ?? 32;
  // Admitted renders (running or waiting), counted before any await so a burst cannot slip past.
  let admitted = 0;
  let running = 0;
  const waiting: (() => void)[] = [];
  const perClient = new Map<string, number>();

  const leave = (client: string) => {
    admitted--;
    const n = (perClient.get(client) ?? 1) - 1;
    if (n <= 0) perClient.delete(client);
    else perClient.set(client, n);
  };

  return {
    async run<T>(client: string, render: () => Promise<T>): Promise<T> {
      if ((perClient.get(client) ?? 0) >= PER_CLIENT_IN_FLIGHT) throw new RenderRefused(429, 1);
      if (admitted >= concurrent + depth) throw new RenderRefused(503, 2);
      admitted++;
      perClient.set(client, (perClient.get(client) ?? 0) + 1);
      try {
        await options.countClient?.(client);
        if (running < concurrent) running++;
        else await new Promise<void>((ok) => waiting.push(ok));
      } catch (error) {
        leave(client);
        throw error;
      }
      try {
        return await render();
      } finally {
        leave(client);
        const next = waiting.shift();
        if (next) next();
        else running--;
      }
    },
    /** Renders running and waiting now (tests, the bench). */
    load: () => ({ running, waiting: admitted - running }),
  };
}

export type RenderGate = ReturnType<typeof createRenderGate>;

/**
 * The answer to a refused render, the same on Node (static.ts) and the Worker (edge.ts): a short
 * text, the status (429 for the client's share, 503 for the queue's depth), Retry-After, no-store.
 */
export function renderRefusedAnswer(err: RenderRefused): Response {
  const message =
    err.status === 429
      ? 'Too many pages opened at once from your connection. Please wait a moment and reload.'
      : 'The site is busy. Please reload in a few seconds.';
  return new Response(message, {
    status: err.status,
    headers: {
      'content-type': 'text/plain; charset=UTF-8',
      'retry-after': String(err.retryAfterS),
      'cache-control': 'no-store',
    },
  });
}
