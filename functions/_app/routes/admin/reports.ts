import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { closeReport, countReportsByServer, listReports, resolveOpenReports } from '../../../../db/queries/reports';
import { getServerById } from '../../../../db/queries/servers';
import { reasonOfReport } from '../../../../src/lib/moderation/reasons';
import { reportActionSchema } from '../../../../src/lib/schemas/admin';
import { hideWithReasons } from '../../lib/decisions';
import { ApiError } from '../../lib/errors';
import { validationHook } from '../../lib/validate';
import { type AdminEnv, requireRole } from '../../middleware/auth';
import { idParam, notFound, requestRebuild } from './shared';

/** Open reports grouped by server, and what operators do about them: admins and moderators. */
export const reportRoutes = new Hono<AdminEnv>()
  .use(requireRole('moderator'))
  .get('/', async (c) => {
    const db = c.get('deps').db;
    const [groups, open] = await Promise.all([
      countReportsByServer(db, 'open'),
      listReports(db, { status: 'open', perPage: 500 }),
    ]);
    return c.json({
      total: open.total,
      groups: groups.map((g) => ({ ...g, reports: open.reports.filter((r) => r.server_id === g.server_id) })),
    });
  })
  .patch('/:id', idParam, zValidator('json', reportActionSchema, validationHook), async (c) => {
    const { id } = c.req.valid('param');
    const { action, reasons, requirement, note } = c.req.valid('json');
    const deps = c.get('deps');
    const db = deps.db;
    const operator = c.get('operator');
    // Only an open report is decided, with its audit row in the same batch; a closed one is a 409
    // naming its state, and nothing is written (it once took a second decision and audit row).
    const closed = await closeReport(db, id, action === 'dismiss' ? 'dismissed' : 'resolved', {
      author: { operatorId: operator.id, name: operator.email },
      action,
      details: (r) => ({ server_id: r.server_id, reason: r.reason }),
    });
    if (!closed.ok && closed.reason === 'missing') throw notFound('report', id);
    if (!closed.ok) throw new ApiError(409, 'report_closed', `This report was already ${closed.report.status}.`);
    const { report } = closed;
    if (action === 'hide_server') {
      const server = await getServerById(db, report.server_id);
      // Hiding (#32) comes with reasons: the moderator's, else the report's own reason.
      if (server?.is_active)
        await hideWithReasons(
          deps,
          operator,
          server,
          { reasons: reasons ?? [reasonOfReport(report.reason)], requirement, note },
          { report_id: id },
        );
      // Hiding answers every open report about that server.
      await resolveOpenReports(db, report.server_id);
      await requestRebuild(c, `hid ${server?.slug ?? report.server_id} after a report`, [server?.slug]);
    }
    return c.json({ report });
  });
