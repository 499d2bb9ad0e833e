// Runs in a child process (`tsx tests/helpers/app-server.ts`): the real app on a migrated database
// file, served by @hono/node-server on a free loopback port, without the site build; prints
// "listening <port>". For tests that kill the process (kill -9) in the middle of its work.
// Settings come from the environment, as `npm start`'s do.
import { serve } from '@hono/node-server';
import { openDb } from '../../db/client';
import { createApp } from '../../functions/_app/app';
import { processEnv } from '../../functions/_app/env';

const env = processEnv();
const { db } = await openDb({ url: env.DATABASE_URL });
const app = createApp({ db, env });
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
server.once('listening', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
});
