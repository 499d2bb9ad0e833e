import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { rejectWithReasons } from '../../../../db/queries/moderation';
import {
  approveSubmission,
  deleteSubmission,
  getSubmissionById,
  getSubmissionStats,
  listSubmissions,
  type SubmissionRecord,
  updateSubmissionStatus,
} from '../../../../db/queries/submissions';
import { notifyOwner } from '../../../../db/queries/webhooks';
import { subcategoryNames } from '../../../../src/lib/categories';
import { phraseFlags } from '../../../../src/lib/requirements';
import { approveSchema, submissionQuerySchema, submissionStatusSchema } from '../../../../src/lib/schemas/admin';
import { subcategoryMessage } from '../../../../src/lib/schemas/submission';
import { rankApproved } from '../../jobs/rank';
import { prepareDecision } from '../../lib/decisions';
import { ApiError } from '../../lib/errors';
import { type PendingPublish, preparePublish, serverPaths } from '../../lib/site-changes';
import { validationHook } from '../../lib/validate';
import { mailSite } from '../../mail/site';
import { submissionApprovedMail } from '../../mail/submission-approved';
import { submissionRejectedMail } from '../../mail/submission-rejected';
import { type AdminEnv, requireRole } from '../../middleware/auth';
import { auditOf, found, idParam, notFound, requestRebuild } from './shared';

/** A submission with the niche rules' flags for the reviewer (#32): the matched words of each field. */
const withFlags = <T extends SubmissionRecord>(s: T) => ({ ...s, flags: phraseFlags(s) });

/** The submissions queue: admins and moderators. */
export const submissionRoutes = new Hono<AdminEnv>()
  .use(requireRole('moderator'))
  .get('/', zValidator('query', submissionQuerySchema, validationHook), async (c) => {
    const { page, per_page: perPage, status, sort } = c.req.valid('query');
    const { submissions, total } = await listSubmissions(c.get('deps').db, {
      status,
      page,
      perPage,
      oldestFirst: sort === 'oldest',
    });
    return c.json({ submissions: submissions.map(withFlags), total, page, perPage });
  })
  .get('/stats', async (c) => c.json(await getSubmissionStats(c.get('deps').db)))
  .get('/:id', idParam, async (c) => {
    const { id } = c.req.valid('param');
    return c.json({ submission: withFlags(found(await getSubmissionById(c.get('deps').db, id), 'submission', id)) });
  })
  .patch('/:id', idParam, zValidator('json', submissionStatusSchema, validationHook), async (c) => {
    const { id } = c.req.valid('param');
    const { status, admin_notes, reasons, requirement } = c.req.valid('json');
    const deps = c.get('deps');
    const db = deps.db;
    const current = found(await getSubmissionById(db, id), 'submission', id);
    if (current.status === 'approved') {
      throw new ApiError(409, 'already_approved', 'An approved submission is managed as a server');
    }
    if (status === 'rejected' && current.status !== 'rejected') {
      // A rejection (#32): its reasons, the decision an appeal names, the audit row and the
      // submitter's mail (reasons, note, signed appeal link) in one batch.
      const operator = c.get('operator');
      const decision = await prepareDecision(deps, operator, { reasons, requirement, note: admin_notes });
      const made = await rejectWithReasons(
        db,
        current,
        decision.input,
        submissionRejectedMail(mailSite(deps.env), {
          serverName: current.server_name,
          reasons: decision.reasonLines,
          note: admin_notes ?? null,
          appealUrl: decision.appealUrl,
        }),
        // A signed-in owner's submission: the notice on their Discord webhook, in the same batch.
        (when) =>
          current.owner_id === null
            ? []
            : [
                notifyOwner(
                  db,
                  { ownerId: current.owner_id },
                  { kind: 'rejected', serverName: current.server_name, reasons: decision.reasonLines },
                  `rejected:${decision.input.appealKey}`,
                  when,
                ),
              ],
      );
      if (!made) throw new ApiError(409, 'already_decided', 'This submission was decided meanwhile');
      return c.json({
        submission: (await getSubmissionById(db, id))!,
        decision: { id: made.id, reasons: made.reasons },
      });
    }
    const submission = await updateSubmissionStatus(
      db,
      id,
      status,
      admin_notes ?? null,
      auditOf(c, 'status', 'submission', id, { from: current.status, to: status, admin_notes }),
    );
    return c.json({ submission, decision: null });
  })
  // A request without a JSON body validates as {} (Hono's json validator): a plain approval.
  .post('/:id/approve', idParam, zValidator('json', approveSchema, validationHook), async (c) => {
    const { id } = c.req.valid('param');
    const { admin_notes, subcategory, language, region } = c.req.valid('json');
    const db = c.get('deps').db;
    if (subcategory) {
      // The reviewer's subcategory must be one of the submission's category.
      const { category } = found(await getSubmissionById(db, id), 'submission', id);
      if (!subcategoryNames(category).includes(subcategory)) {
        const message = subcategoryMessage(category);
        throw new ApiError(400, 'validation_failed', message, [{ path: 'subcategory', message }]);
      }
    }
    // The submitter's mail with the live address, written in the approval's batch (#16).
    const site = mailSite(c.get('deps').env);
    let change: PendingPublish | undefined;
    const result = await approveSubmission(
      db,
      id,
      admin_notes,
      subcategory,
      (submission, slug) => ({
        mail: submissionApprovedMail(site, {
          serverName: submission.server_name,
          serverUrl: `${site.url}/server/${slug}`,
        }),
      }),
      { language, region },
      // The audit row and a verified owner's claim are written in the approval's batch.
      { operatorId: c.get('operator').id, name: c.get('operator').email },
      // The record of the listing's new page, in the approval's batch: stored with it or not at all.
      (slug, approved) => {
        const { rebuild } = c.get('deps');
        change = preparePublish(rebuild, db, `approved ${slug}`, serverPaths([slug]), approved);
        return change.statements;
      },
    );
    if (!result.ok) {
      if (result.reason === 'not_found') throw notFound('submission', id);
      if (result.reason === 'guild_listed') {
        throw new ApiError(
          409,
          'guild_listed',
          `This Discord server is already listed as "${result.server.name}" (/server/${result.server.slug})`,
        );
      }
      throw new ApiError(409, 'already_approved', 'This submission is already approved');
    }
    // The owner's Discord webhook notice (#32), once per approval.
    if (result.submission.owner_id !== null)
      await notifyOwner(
        db,
        { ownerId: result.submission.owner_id },
        { kind: 'approved', serverName: result.server.name, url: `${site.url}/server/${result.server.slug}` },
        `approved:${id}`,
      );
    // Scored now, while its check at submission is fresh: its page shows its rank from the first
    // build, and the pages of its category whose place it moved are rebuilt with it.
    const { changedSlugs } = await rankApproved(c.get('deps'), result.server.id, Date.now());
    await change?.requested();
    // The pages whose place it moved are known only once it is ranked, after the approval's batch.
    const moved = changedSlugs.filter((slug) => slug !== result.server.slug);
    if (moved.length) await requestRebuild(c, `approved ${result.server.slug}`, moved);
    return c.json({ submission: result.submission, server: result.server });
  })
  .delete('/:id', idParam, async (c) => {
    const { id } = c.req.valid('param');
    const db = c.get('deps').db;
    const current = found(await getSubmissionById(db, id), 'submission', id);
    const audited = auditOf(c, 'delete', 'submission', id, {
      server_name: current.server_name,
      status: current.status,
    });
    if (!(await deleteSubmission(db, id, audited))) throw notFound('submission', id);
    return c.json({ ok: true });
  });
