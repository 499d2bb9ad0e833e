// `npm run sessions:sweep`: one pass of the session sweep, console and owner sessions (functions/_app/jobs/session-sweep.ts)
// on DATABASE_URL (default file:db/local.db), the pass `npm start` and the Worker's Cron Trigger run.
import { run } from '../functions/_app/jobs/session-sweep';
import { displayUrl, openMigratedDatabase } from './lib/database';

const { db, env, close } = await openMigratedDatabase();
try {
  const swept = await run({ db }, Date.now());
  console.log(`Deleted ${swept} expired console and owner session(s) from ${displayUrl(env.DATABASE_URL)}`);
} finally {
  close();
}
