import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { countReportsByServer, listReports, setReportStatus } from '../../../../db/queries/reports';
import { setServerActive } from '../../../../db/queries/servers';
import { reportActionSchema } from '../../../../src/lib/schemas/admin';
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
    const { action } = c.req.valid('json');
    const db = c.get('deps').db;
    const report = found(await setReportStatus(db, id, action === 'dismiss' ? 'dismissed' : 'resolved'), 'report', id);
    if (action === 'hide_server') {
      const server = await setServerActive(db, report.server_id, false);
      // Hiding answers every open report about that server.
      const others = await listReports(db, { status: 'open', serverId: report.server_id, perPage: 500 });
      await Promise.all(others.reports.map((r) => setReportStatus(db, r.id, 'resolved')));
      await audit(c, 'hide', 'server', report.server_id, { slug: server?.slug, report_id: id });
      await requestRebuild(c, `hid ${server?.slug ?? report.server_id} after a report`, [server?.slug]);
    }
    await audit(c, action, 'report', id, { server_id: report.server_id, reason: report.reason });
    return c.json({ report });
  });
