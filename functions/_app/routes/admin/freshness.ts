import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { countFlagQueue, getFlag, listFlagQueue, reviewFlag } from '../../../../db/queries/flags';
import { clearBreaker, getJobState, type JobState } from '../../../../db/queries/freshness';
import { countByInviteStatus, listByInviteStatus } from '../../../../db/queries/invite-states';
import { getServerById } from '../../../../db/queries/servers';
import { visitorRetryAfter } from '../../../../src/lib/invite-checks/backoff';
import { budgetAt } from '../../../../src/lib/invite-checks/budget';
import { ANOMALY_JOB } from '../../../../src/lib/ranking/constants';
import { flagReviewSchema, inviteStateQuerySchema } from '../../../../src/lib/schemas/freshness';
import { REFRESH_JOB, refreshServer } from '../../jobs/refresh';
import { ApiError } from '../../lib/errors';
import { validationHook } from '../../lib/validate';
import { type AdminEnv, requireRole } from '../../middleware/auth';
import { audit, auditOf, found, idParam, prepareRebuild } from './shared';

/** What the console shows of the refresh job at `now`: last run, the budget window's use, the breaker. */
function refreshStatus(state: JobState | null, now: number, perWindow: number, enabled: boolean) {
  const window = budgetAt({ lastLookupAt: state?.window_start ?? '', count: state?.window_count ?? 0 }, perWindow, now);
  const blocked = state?.blocked_until && Date.parse(state.blocked_until) > now ? state.blocked_until : null;
  const leased = state?.lease_until && Date.parse(state.lease_until) > now ? state.lease_until : null;
  return {
    enabled,
    lastRunAt: state?.last_run_at ?? null,
    lastRunSummary: state?.last_run_summary ?? null,
    running: leased !== null,
    /** The current window's last lookup (it closes 10 minutes after), or null when no window is open. */
    lastLookupAt: window.opensNew ? null : (state?.window_start ?? null),
    lookupsInWindow: perWindow - window.left,
    perWindow,
    blockedUntil: blocked,
    blockReason: blocked ? (state?.block_reason ?? null) : null,
  };
}

/**
 * The console's Freshness screen: the refresh job's status, listings by invite state, the
 * anomaly queue a moderator confirms or dismisses (audited; only confirmed flags are public),
 * and a refresh of one listing now. Moderators and admins.
 */
export const freshnessRoutes = new Hono<AdminEnv>()
  .use(requireRole('moderator'))
  .get('/', async (c) => {
    const { db, env, now } = c.get('deps');
    const at = now?.() ?? Date.now();
    const [refresh, anomalies, statuses, queue, queueTotal] = await Promise.all([
      getJobState(db, REFRESH_JOB),
      getJobState(db, ANOMALY_JOB),
      countByInviteStatus(db),
      listFlagQueue(db),
      countFlagQueue(db),
    ]);
    return c.json({
      refresh: refreshStatus(refresh, at, env.REFRESH_PER_10MIN, env.REFRESH_ENABLED),
      anomalies: { lastRunAt: anomalies?.last_run_at ?? null, lastRunSummary: anomalies?.last_run_summary ?? null },
      statuses,
      queue,
      queueTotal,
    });
  })
  .get('/servers', zValidator('query', inviteStateQuerySchema, validationHook), async (c) => {
    const { status, page, per_page: perPage } = c.req.valid('query');
    const { servers, total } = await listByInviteStatus(c.get('deps').db, { status, page, perPage });
    return c.json({ servers, total, page, perPage });
  })
  .patch('/flags/:id', idParam, zValidator('json', flagReviewSchema, validationHook), async (c) => {
    const { id } = c.req.valid('param');
    const { verdict } = c.req.valid('json');
    const { db, now } = c.get('deps');
    const operator = c.get('operator');
    const existing = found(await getFlag(db, id), 'flag', id);
    // A confirmed flag appears on the listing's page: its record goes in the verdict's batch.
    const server = verdict === 'confirmed' ? await getServerById(db, existing.server_id) : null;
    const change =
      verdict === 'confirmed'
        ? prepareRebuild(c, `confirmed ${existing.rule} on ${server?.slug ?? existing.server_id}`, [server?.slug])
        : undefined;
    const audited = auditOf(
      c,
      verdict === 'confirmed' ? 'confirm' : 'dismiss',
      'flag',
      id,
      { server_id: existing.server_id, rule: existing.rule },
      change,
    );
    const flag = await reviewFlag(db, id, verdict, operator.email, new Date(now?.() ?? Date.now()), audited);
    if (!flag) throw new ApiError(409, 'already_reviewed', `Flag ${id} was already ${existing.verdict ?? 'closed'}`);
    await change?.requested();
    return c.json({ flag });
  })
  // An admin lifts the breaker (audited): Discord lookups resume at once, the ladder starts over.
  .post('/breaker/clear', requireRole('admin'), async (c) => {
    const { db, now } = c.get('deps');
    const before = await getJobState(db, REFRESH_JOB);
    await clearBreaker(db, REFRESH_JOB);
    await audit(c, 'clear_breaker', 'job', REFRESH_JOB, {
      blocked_until: before?.blocked_until || null,
      reason: before?.block_reason ?? null,
      level: before?.block_level ?? 0,
      at: new Date(now?.() ?? Date.now()).toISOString(),
    });
    return c.json({ ok: true as const });
  })
  .post('/servers/:id/refresh', idParam, async (c) => {
    const { id } = c.req.valid('param');
    const deps = c.get('deps');
    const result = await refreshServer(deps, id, deps.now?.() ?? Date.now());
    if (result.status === 'not_found') throw new ApiError(404, 'not_found', `No server ${id} with an invite code`);
    if (result.status === 'blocked') {
      throw new ApiError(503, 'refresh_blocked', `Discord lookups are paused until ${result.blockedUntil}`, undefined, {
        'Retry-After': String(visitorRetryAfter(Date.parse(result.blockedUntil) - Date.now())),
      });
    }
    if (result.status === 'budget') {
      throw new ApiError(
        429,
        'refresh_budget',
        'The lookup budget of this 10-minute window is spent; try again shortly',
      );
    }
    const { check, kind } = result;
    await audit(c, 'refresh', 'server', id, { kind });
    // refreshServer asks for the rebuild itself when a public fact changed.
    return c.json({ kind, publicChange: check.publicChange, update: check.update });
  });
