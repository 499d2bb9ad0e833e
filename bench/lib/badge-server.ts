// The server of `npm run bench`'s badge section, in a process of its own (forked by
// bench/badges.ts): the app over the bench's libSQL file (rate limits off), as `npm start` serves
// it, so the load generator never shares its event loop. Sends { port } over IPC once listening,
// and answers { cpu, loop } to a 'cpu' message: this process's CPU time so far (µs), and its event
// loop's delay since the previous message (p99 and max, ms: a stall inside the server, such as a
// synchronous write, shows there; a machine too busy to run it shows only in the answers' times).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { serve } from '@hono/node-server';
import { openDb } from '../../db/client';
import { createApp } from '../../functions/_app/app';
import { loadEnv } from '../../functions/_app/env';

const url = process.argv[2] ?? '';
const { db } = await openDb({ url });
const env = loadEnv({ DATABASE_URL: url, RATE_LIMITS: 'false', SITE_URL: 'http://127.0.0.1' });
const app = createApp({ db, env });
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  process.send?.({ port: info.port });
});
const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
process.on('message', (m) => {
  if (m !== 'cpu') return;
  const { user, system } = process.cpuUsage();
  process.send?.({ cpu: user + system, loop: { p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 } });
  loop.reset();
});
process.on('disconnect', () => server.close(() => process.exit(0)));
