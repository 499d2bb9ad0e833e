import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { countReportsByServer, listReports, setReportStatus } from '../../../../db/queries/reports';
import { getServerById } from '../../../../db/queries/servers';
import { reasonOfReport } from '../../../../src/lib/moderation/reasons';
import { reportActionSchema } from '../../../../src/lib/schemas/admin';
import { hideWithReasons } from '../../lib/decisions';
import { validationHook } from '../../lib/validate';
import { type AdminEnv, requireRole } from '../../middleware/auth';
import { audit, found, idParam, requestRebuild } from './shared';

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
    const report = found(await setReportStatus(db, id, action === 'dismiss' ? 'dismissed' : 'resolved'), 'report', id);
    if (action === 'hide_server') {
      const server = await getServerById(db, report.server_id);
      // Hiding (#32) comes with reasons: the moderator's, else the report's own reason.
      if (server?.is_active)
        await hideWithReasons(
          deps,
          c.get('operator'),
          server,
          { reasons: reasons ?? [reasonOfReport(report.reason)], requirement, note },
          { report_id: id },
        );
      // Hiding answers every open report about that server.
      const others = await listReports(db, { status: 'open', serverId: report.server_id, perPage: 500 });
      await Promise.all(others.reports.map((r) => setReportStatus(db, r.id, 'resolved')));
      await requestRebuild(c, `hid ${server?.slug ?? report.server_id} after a report`, [server?.slug]);
    }
    await audit(c, action, 'report', id, { server_id: report.server_id, reason: report.reason });
    return c.json({ report });
  });
