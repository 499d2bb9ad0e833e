import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { closeReportStatements, getReportById, pageOpenReportGroups } from '../../../../db/queries/reports';
import { getServerById } from '../../../../db/queries/servers';
import { reasonOfReport } from '../../../../src/lib/moderation/reasons';
import { pageQuerySchema, reportActionSchema } from '../../../../src/lib/schemas/admin';
import { hideWithReasons } from '../../lib/decisions';
import { ApiError } from '../../lib/errors';
import { validationHook } from '../../lib/validate';
import { type AdminEnv, requireRole } from '../../middleware/auth';
import { auditOf, found, idParam } from './shared';

/** Open reports grouped by server, and what operators do about them: admins and moderators. */
export const reportRoutes = new Hono<AdminEnv>()
  .use(requireRole('moderator'))
  .get('/', zValidator('query', pageQuerySchema, validationHook), async (c) => {
    const { page, per_page: perPage } = c.req.valid('query');
    const { groups, total, open } = await pageOpenReportGroups(c.get('deps').db, { page, perPage });
    return c.json({ groups, total, open, page, perPage });
  })
  .patch('/:id', idParam, zValidator('json', reportActionSchema, validationHook), async (c) => {
    const { id } = c.req.valid('param');
    const { action, reasons, requirement, note } = c.req.valid('json');
    const deps = c.get('deps');
    const db = deps.db;
    const report = found(await getReportById(db, id), 'report', id);
    // Only an open report is decided: a closed one is a 409 naming its state, and nothing is written
    // (it once took a second decision and a second audit row).
    if (report.status !== 'open') throw new ApiError(409, 'report_closed', `This report was already ${report.status}.`);
    // The report's status, its audit row and (hiding) every other open report about the listing,
    // written in one batch with the hide: a failed hide leaves every report open and unaudited.
    const closing = closeReportStatements(
      db,
      report,
      action === 'dismiss' ? 'dismissed' : 'resolved',
      auditOf(c, action, 'report', id, { server_id: report.server_id, reason: report.reason }),
      { serverWide: action === 'hide_server', at: new Date(deps.now?.() ?? Date.now()).toISOString() },
    );
    const server = action === 'hide_server' ? await getServerById(db, report.server_id) : null;
    // Whether this hide mailed the listing's contact (none is on record for a listing added in the console).
    let ownerMailed = false;
    if (server?.is_active) {
      // Hiding (#32) comes with reasons: the moderator's, else the report's own reason.
      const hidden = await hideWithReasons(
        deps,
        c.get('operator'),
        server,
        { reasons: reasons ?? [reasonOfReport(report.reason)], requirement, note },
        { report_id: id },
        closing,
        `hid ${server.slug} after a report`,
      );
      ownerMailed = Boolean(hidden?.contact_email);
    } else {
      await db.batch(closing);
    }
    return c.json({ report: found(await getReportById(db, id), 'report', id), owner_mailed: ownerMailed });
  });
