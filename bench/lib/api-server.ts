// The servers under load in `npm run bench`'s API section, in a process of their own per database
// size (forked by bench/api.ts): the app (createApp over the libSQL file, rate limits off) and,
// on a second port, the hello-world baseline it is compared with. A fresh process per size, as a
// deployed server runs: what the bench itself holds (the 10,000-server run before, the seeding of
// 100,000 rows) never weighs on the figures. Talks to its parent over the IPC channel.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { openDb } from '../../db/client';
import { insertEvents } from '../../db/queries/interactions';
import { createApp } from '../../functions/_app/app';
import type { AppDeps, AppEnv } from '../../functions/_app/context';
import { loadEnv } from '../../functions/_app/env';
import { RATE_LIMITS } from '../../functions/_app/lib/rate-limits';
import { body } from '../../functions/_app/lib/validate';
import { rateLimit } from '../../functions/_app/middleware/rate-limit';
import { eventRows } from '../../functions/_app/routes/events';
import { eventsSchema } from '../../src/lib/schemas/interaction';
import { eventsFastPath } from './events-fast-path';

/** What the parent passes as the one argument (JSON). */
export interface ApiServerOptions {
  url: string;
  discordUrl: string;
  /** Where to mount the events through the middleware chain with a plain insert (below). */
  eventsThroughChain: string;
  /** Where to mount the previous speed path, ahead of the chain (bench/lib/events-fast-path.ts). */
  eventsFastPath: string;
}

/** Messages between the bench and this process. */
export type ApiServerReply =
  | { type: 'listening'; port: number; helloPort: number }
  | { type: 'answered'; answered: Record<string, number>; inflight: number };

/**
 * Events through the app's middleware chain, validator and a plain per-request insert: what
 * POST /api/events costs without the query layer's group commit, beside the route (the chain
 * and the group commit) and the previous speed path in the same run.
 */
function addEventsThroughChain(app: ReturnType<typeof createApp>, deps: AppDeps, path: string): void {
  app.post(path, rateLimit(RATE_LIMITS.events), body(eventsSchema), async (c) => {
    const sent = c.req.valid('json');
    const rows = eventRows(
      Array.isArray(sent) ? sent : [sent],
      c.req.header('user-agent')?.slice(0, 256) ?? null,
      c.get('ipHash'),
    );
    return c.json({ accepted: await insertEvents(deps.db, rows) }, 202);
  });
}

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as ApiServerOptions;
  const { db, client } = await openDb({ url: options.url });
  const env = loadEnv({
    DATABASE_URL: options.url,
    RATE_LIMITS: 'false',
    SITE_URL: 'http://127.0.0.1',
    DISCORD_API_BASE: options.discordUrl,
  });
  const deps = { db, env };
  const app = createApp(deps);
  addEventsThroughChain(app, deps, options.eventsThroughChain);
  // The previous speed path answered ahead of the app's chain: a request for its path never meets
  // the chain (one string test per request, which every path pays alike).
  const fastPath = new Hono<AppEnv>().post(options.eventsFastPath, eventsFastPath(deps));
  const fastPathUrlEnd = options.eventsFastPath;
  // The server counts its own 2xx answers per path: autocannon stops mid-flight, so its count
  // can miss answers the server did send (and rows it did store).
  const answered = new Map<string, number>();
  let inflight = 0;
  const server = serve({
    // Not an async function: the counting adds one .then to the app's own promise, nothing more.
    fetch: (req, env) => {
      inflight++;
      const target = req.url.endsWith(fastPathUrlEnd) ? fastPath : app;
      return Promise.resolve(target.fetch(req, env)).then(
        (res) => {
          inflight--;
          // Keyed by the whole URL as the server sees it (no parsing per answer).
          if (res.status >= 200 && res.status < 300) answered.set(req.url, (answered.get(req.url) ?? 0) + 1);
          return res;
        },
        (err: unknown) => {
          inflight--;
          throw err;
        },
      );
    },
    port: 0,
    hostname: '127.0.0.1',
  });
  // The baseline is exactly a Hono hello-world app on @hono/node-server, on its own port.
  const hello = new Hono().get('/hello', (c) => c.text('Hello Hono!'));
  const helloServer = serve({ fetch: hello.fetch, port: 0, hostname: '127.0.0.1' });
  await Promise.all(
    [server, helloServer].map(
      (srv) => new Promise<void>((ok) => (srv.listening ? ok() : srv.once('listening', () => ok()))),
    ),
  );
  const portOf = (srv: typeof server) => {
    const address = srv.address();
    return typeof address === 'object' && address ? address.port : 0;
  };
  const send = (reply: ApiServerReply) => process.send?.(reply);
  process.on('message', (message: string) => {
    if (message === 'answered') send({ type: 'answered', answered: Object.fromEntries(answered), inflight });
    if (message === 'close') {
      server.close();
      helloServer.close();
      client.close();
      process.disconnect?.();
      process.exit(0);
    }
  });
  send({ type: 'listening', port: portOf(server), helloPort: portOf(helloServer) });
}

await main();
