import { deleteExpiredOwnerSessions } from '../../../db/queries/owners';
import { deleteExpiredSessions } from '../../../db/queries/sessions';
import type { AppDeps } from '../context';

/** How often `npm start` sweeps (the Worker's Cron Trigger in wrangler.toml runs on the same beat). */
export const SESSION_SWEEP_EVERY_MS = 15 * 60 * 1000;

/** What a pass needs: the database. */
export type SessionSweepDeps = Pick<AppDeps, 'db'>;

/**
 * One pass of the session sweep: deletes the console sessions and the owner sessions (#17) that
 * are idle too long or past their absolute expiry at `now` (rules in db/queries/sessions.ts and
 * db/queries/owners.ts), so a session nobody ends still goes. Run at every sign-in, on a timer by
 * `npm start` and by the Worker's Cron Trigger; plain DELETEs, so two runners overlapping do no
 * harm. Returns how many sessions went, of both kinds.
 */
export async function run(deps: SessionSweepDeps, now: number): Promise<number> {
  const operators = await deleteExpiredSessions(deps.db, now);
  const owners = await deleteExpiredOwnerSessions(deps.db, now);
  return operators + owners;
}
