import { Hono } from 'hono';
import { getServerFlags } from '../../../db/queries/outbound';
import { createReport } from '../../../db/queries/reports';
import { REPORT_LABELS } from '../../../src/lib/schemas/labels';
import { reportSchema } from '../../../src/lib/schemas/report';
import type { AppDeps, AppEnv } from '../context';
import { ApiError } from '../lib/errors';
import { publicForm } from '../lib/form-redirect';
import { RATE_LIMITS } from '../lib/rate-limits';
import { body } from '../lib/validate';
import { rateLimit } from '../middleware/rate-limit';
import { turnstile } from '../middleware/turnstile';

/**
 * `POST /api/reports`: a visitor's report about a listed server, recorded once as a `report`
 * interaction in the same write (the page sends no event of its own for it). The dialog's form
 * posts as a plain form without JavaScript: it lands back on the server page's "report sent"
 * note, and a refused one on /report/not-sent (the form lives in every server page, so there is
 * no one page to fill in again).
 */
export const reportRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>().post(
    '/',
    publicForm({
      path: '/report/not-sent',
      action: '/api/reports',
      labels: REPORT_LABELS,
      fallback: (code) => `/report/not-sent?error=${encodeURIComponent(code)}`,
    }),
    rateLimit(RATE_LIMITS.reports),
    body(reportSchema, { labels: REPORT_LABELS, forms: true }),
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
          // A report is not a join: it is worth nothing.
          conversion_value: null,
        },
      );
      if (c.get('body')?.kind === 'form') return c.redirect(`/server/${server.slug}#report-sent`, 303);
      return c.json({ report }, 201);
    },
  );
