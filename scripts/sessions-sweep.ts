// `npm run sessions:sweep`: one pass of the session sweep, console and owner sessions (functions/_app/jobs/session-sweep.ts)
// on DATABASE_URL (default file:db/local.db), the pass `npm start` and the Worker's Cron Trigger run.
import { JOBS } from '../functions/_app/jobs/schedule';
import { displayUrl, openMigratedDatabase } from './lib/database';

const { db, env, close } = await openMigratedDatabase();
try {
  const swept = await JOBS['session-sweep'].run({ db, env, runtime: 'node', log: () => {} }, Date.now());
  console.log(`Deleted ${swept} expired console and owner session(s) from ${displayUrl(env.DATABASE_URL)}`);
} finally {
  close();
}
