import { Hono } from 'hono';
import { getServerFlags } from '../../../db/queries/outbound';
import { createReport } from '../../../db/queries/reports';
import { REPORT_LABELS } from '../../../src/lib/schemas/labels';
import { reportSchema } from '../../../src/lib/schemas/report';
import type { AppDeps, AppEnv } from '../context';
import { ApiError } from '../lib/errors';
import { RATE_LIMITS } from '../lib/rate-limits';
import { body } from '../lib/validate';
import { rateLimit } from '../middleware/rate-limit';
import { turnstile } from '../middleware/turnstile';

/**
 * `POST /api/reports`: a visitor's report about a listed server, recorded once as a `report`
 * interaction in the same write (the page sends no event of its own for it).
 */
export const reportRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>().post(
    '/',
    rateLimit(RATE_LIMITS.reports),
    body(reportSchema, { labels: REPORT_LABELS }),
    turnstile(deps),
    async (c) => {
      const input = c.req.valid('json');
      const { db } = deps;
      const server = (await getServerFlags(db, [input.server_id])).get(input.server_id);
      if (!server?.is_active) {
        throw new ApiError(404, 'not_found', `No listed server with server_id ${input.server_id}`, [
          { path: 'server_id', message: 'Unknown server' },
        ]);
      }
      const report = await createReport(
        db,
        {
          server_id: input.server_id,
          reason: input.reason,
          details: input.details ?? null,
          session_id: input.session_id || null,
        },
        {
          interaction_type: 'report',
          target_type: 'server',
          target_id: String(input.server_id),
          server_id: input.server_id,
          metadata: { action: 'report', reason: input.reason, details: input.details ?? null },
          session_id: input.session_id || null,
          user_agent: c.req.header('user-agent')?.slice(0, 256) ?? null,
          ip_address: c.get('ipHash'),
          // A report is not a join: it is worth nothing (SPEC section 9).
          conversion_value: null,
        },
      );
      return c.json({ report }, 201);
    },
  );
