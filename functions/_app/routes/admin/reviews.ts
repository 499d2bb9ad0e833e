import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import {
  getAccountSettings,
  getReview,
  listReviewsForModeration,
  moderateReview,
  ownerMailsOf,
} from '../../../../db/queries/reviews';
import { notifyOwner } from '../../../../db/queries/webhooks';
import { reviewQuerySchema } from '../../../../src/lib/schemas/admin';
import { reviewModerationSchema } from '../../../../src/lib/schemas/review';
import { validationHook } from '../../lib/validate';
import { reviewHiddenMail, reviewNewMail } from '../../mail/reviews';
import { mailSite } from '../../mail/site';
import { type AdminEnv, requireRole } from '../../middleware/auth';
import { found, idParam, prepareRebuild } from './shared';

/**
 * The console's Reviews screen (#31): held, flagged and hidden reviews with their reasons, and
 * what moderators do (hide with a public reason and the reviewer is mailed; show a held or hidden
 * one; dismiss the flags). Every action is audited in the batch that makes it.
 */
export const reviewModerationRoutes = new Hono<AdminEnv>()
  .use(requireRole('moderator'))
  .get('/', zValidator('query', reviewQuerySchema, validationHook), async (c) => {
    const { view, page, per_page: perPage } = c.req.valid('query');
    const { reviews, total } = await listReviewsForModeration(c.get('deps').db, view, { page, perPage });
    return c.json({ view, reviews, total, page, perPage });
  })
  .post('/:id', idParam, zValidator('json', reviewModerationSchema, validationHook), async (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    const deps = c.get('deps');
    const row = found(await getReview(deps.db, id), 'review', id);
    const site = mailSite(deps.env);
    const serverUrl = `${site.url}/server/${row.server_slug}`;
    const at = deps.now?.() ?? Date.now();
    const reviewerMail =
      input.action === 'hide' ? (await getAccountSettings(deps.db, row.review.account_id)).email : null;
    // A held review released shows for the first time: its owners are told as for any new review.
    const released = input.action === 'show' && row.review.status === 'held';
    const ownerMails = released
      ? (await ownerMailsOf(deps.db, row.review.server_id)).map((o) => ({
          kind: 'review_new' as const,
          to: o.email,
          mail: reviewNewMail(site, {
            serverName: row.server_name,
            serverUrl,
            reviewer: row.review.display_name,
            rating: row.review.rating,
            body: row.review.body,
          }),
        }))
      : [];
    // A hidden or shown review changes the page's built HTML: its record goes in the moderation's batch.
    const change =
      input.action !== 'dismiss_flags'
        ? prepareRebuild(c, `review ${input.action} on ${row.server_slug}`, [row.server_slug])
        : undefined;
    await moderateReview(deps.db, {
      publish: change?.statements,
      reviewId: id,
      serverId: row.review.server_id,
      moderator: c.get('operator'),
      action: input.action,
      reason: input.action === 'hide' ? input.reason : undefined,
      at,
      mail:
        input.action === 'hide' && reviewerMail
          ? {
              kind: 'review_hidden',
              to: reviewerMail,
              // The mail says "reply to this mail": the answer goes to support, not the no-reply From.
              replyTo: site.supportEmail,
              mail: reviewHiddenMail(site, { serverName: row.server_name, serverUrl, reason: input.reason }),
            }
          : null,
      ownerMails,
    });
    if (released) {
      await notifyOwner(
        deps.db,
        { serverId: row.review.server_id },
        { kind: 'new_review', serverName: row.server_name, url: serverUrl },
        `review:${id}`,
      );
    }
    // Served on request until a build with the change is live.
    await change?.requested();
    return c.json({ ok: true as const });
  });
