import { Hono } from 'hono';
import {
  approveSubmission,
  deleteSubmission,
  getSubmissionById,
  getSubmissionStats,
  listSubmissions,
  updateSubmissionStatus,
} from '../../../../db/queries/submissions';
import { subcategoryNames } from '../../../../src/lib/categories';
import { approveSchema, submissionQuerySchema, submissionStatusSchema } from '../../../../src/lib/schemas/admin';
import { subcategoryMessage } from '../../../../src/lib/schemas/submission';
import { ApiError } from '../../lib/errors';
import { type AdminEnv, requireRole } from '../../middleware/auth';
import { audit, idParam, notFound, parseBody, parseQuery, requestRebuild } from './shared';

/** The submissions queue: admins and moderators. */
export const submissionRoutes = new Hono<AdminEnv>()
  .use(requireRole('moderator'))
  .get('/', async (c) => {
    const q = parseQuery(c, submissionQuerySchema);
    const { submissions, total } = await listSubmissions(c.get('deps').db, {
      status: q.status,
      page: q.page,
      perPage: q.per_page,
    });
    return c.json({ submissions, total, page: q.page, perPage: q.per_page });
  })
  .get('/stats', async (c) => c.json(await getSubmissionStats(c.get('deps').db)))
  .get('/:id', async (c) => {
    const id = idParam(c);
    const submission = await getSubmissionById(c.get('deps').db, id);
    if (!submission) throw notFound('submission', id);
    return c.json({ submission });
  })
  .patch('/:id', async (c) => {
    const id = idParam(c);
    const body = await parseBody(c, submissionStatusSchema);
    const db = c.get('deps').db;
    const current = await getSubmissionById(db, id);
    if (!current) throw notFound('submission', id);
    if (current.status === 'approved') {
      throw new ApiError(409, 'already_approved', 'An approved submission is managed as a server');
    }
    const submission = await updateSubmissionStatus(db, id, body.status, body.admin_notes ?? null);
    await audit(c, 'status', 'submission', id, {
      from: current.status,
      to: body.status,
      admin_notes: body.admin_notes,
    });
    return c.json({ submission });
  })
  .post('/:id/approve', async (c) => {
    const id = idParam(c);
    const body = await parseBody(c, approveSchema).catch((err) => {
      // An empty body is a plain approval.
      if (err instanceof ApiError && err.status === 415) return { admin_notes: undefined, subcategory: undefined };
      throw err;
    });
    const db = c.get('deps').db;
    if (body.subcategory) {
      // The reviewer's subcategory must be one of the submission's category.
      const current = await getSubmissionById(db, id);
      if (!current) throw notFound('submission', id);
      if (!subcategoryNames(current.category).includes(body.subcategory)) {
        const message = subcategoryMessage(current.category);
        throw new ApiError(400, 'validation_failed', message, [{ path: 'subcategory', message }]);
      }
    }
    const result = await approveSubmission(db, id, body.admin_notes, body.subcategory);
    if (!result.ok) {
      if (result.reason === 'not_found') throw notFound('submission', id);
      throw new ApiError(409, 'already_approved', 'This submission is already approved');
    }
    await audit(c, 'approve', 'submission', id, { server_id: result.server.id, slug: result.server.slug });
    requestRebuild(c, `approved ${result.server.slug}`);
    return c.json({ submission: result.submission, server: result.server });
  })
  .delete('/:id', async (c) => {
    const id = idParam(c);
    const db = c.get('deps').db;
    const current = await getSubmissionById(db, id);
    if (!current || !(await deleteSubmission(db, id))) throw notFound('submission', id);
    await audit(c, 'delete', 'submission', id, { server_name: current.server_name, status: current.status });
    return c.json({ ok: true });
  });
