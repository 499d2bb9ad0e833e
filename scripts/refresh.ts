// `npm run refresh [-- --all]`: one pass of the refresh job (functions/_app/jobs/refresh.ts) now, on
// DATABASE_URL, against DISCORD_API_BASE: the due listings (or, with --all, every listing with an
// invite code), within the same budget, lease and breaker as the pass `npm start` and the Worker's
// Cron Trigger run every minute. Prints the pass's summary and what the budget covers.
import { parseArgs } from 'node:util';
import { countDueServers } from '../db/queries/freshness';
import { run } from '../functions/_app/jobs/refresh';
import { JOBS } from '../functions/_app/jobs/schedule';
import { HookRebuildTrigger } from '../functions/_app/lib/rebuild-hook';
import { capacityLine } from '../src/lib/invite-checks/budget';
import { displayUrl, openMigratedDatabase } from './lib/database';

const { values } = parseArgs({ options: { all: { type: 'boolean', default: false } } });
const { db, env, close } = await openMigratedDatabase();
try {
  const log = (line: string) => console.log(line);
  // In production the deploy hook rebuilds the site; locally `npm start` rebuilds from the console.
  // As the Worker calls it: with its token (GitHub's dispatch endpoint refuses a call without one),
  // and each change recorded in site_changes, where the deploy job reads what to publish and the
  // Worker's refresh trigger finds a change whose call failed.
  const hook = env.REBUILD_HOOK_URL
    ? new HookRebuildTrigger({ url: env.REBUILD_HOOK_URL, token: env.REBUILD_HOOK_TOKEN, db, log })
    : undefined;
  const now = Date.now();
  const result = await run({ db, env, rebuild: hook }, now, { all: values.all, log });
  console.log(
    `Refresh of ${displayUrl(env.DATABASE_URL)} against ${env.DISCORD_API_BASE} (npm start and the Worker run it on the cron '${JOBS.refresh.cron}')`,
  );
  if (result === 'busy') {
    console.log('Another runner holds the lease (npm start or the Cron Trigger): nothing done.');
  } else {
    const { checked, ok, unknown, transient, skipped, lookups, blockedUntil } = result;
    console.log(
      `checked ${checked} (ok ${ok}, unknown ${unknown}), transient ${transient}, skipped ${skipped}, lookups used ${lookups}` +
        (blockedUntil ? `, blocked until ${blockedUntil}` : ''),
    );
    if (skipped > 0) console.log(`${skipped} listing(s) left for the next passes (budget, breaker or failures).`);
    if (Number(result.changed ?? 0) > 0)
      console.log(
        hook
          ? 'Public facts changed: site rebuild requested.'
          : 'Public facts changed: GET /api/servers shows them now; the pages after the next rebuild (console: Build).',
      );
    await hook?.flush();
  }
  // The size the budget must carry (issue #15), then this database's own.
  console.log(capacityLine(env.REFRESH_PER_10MIN, 10_000));
  console.log(
    `This database: ${capacityLine(env.REFRESH_PER_10MIN, await countDueServers(db, now, { all: true })).split(': ')[1]}`,
  );
} finally {
  close();
}
