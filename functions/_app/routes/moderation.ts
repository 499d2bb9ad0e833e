import { Hono } from 'hono';
import { readQueueFigures, submitAppeal } from '../../../db/queries/moderation';
import { queueSentence } from '../../../src/lib/moderation/queue';
import { APPEAL_LABELS, appealSchema } from '../../../src/lib/schemas/appeal';
import type { AppDeps, AppEnv } from '../context';
import { verifyAppealToken } from '../lib/appeal-link';
import { ApiError } from '../lib/errors';
import { publicForm } from '../lib/form-redirect';
import { RATE_LIMITS } from '../lib/rate-limits';
import { body } from '../lib/validate';
import { rateLimit } from '../middleware/rate-limit';

const badToken = () =>
  new ApiError(404, 'unknown_appeal', 'This appeal link is not valid: use the link from our email.', [
    { path: 'token', message: 'This appeal code is not valid: use the link from our email.' },
  ]);

/**
 * Moderation in the open (#32), the public side: `GET /queue`, the review queue as it stands (how
 * many wait; median and 90th-percentile decision time over the last 30 days, from the decisions
 * themselves), which the submit page fetches so it is always current; `POST /appeals`, the one
 * appeal of a rejection or a hide through the signed link of its mail, without an account.
 */
export const moderationRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>()
    .get('/queue', async (c) => {
      const figures = await readQueueFigures(deps.db, deps.now?.() ?? Date.now());
      c.header('Cache-Control', 'no-store');
      return c.json({ figures, sentence: queueSentence(figures) });
    })
    .post(
      '/appeals',
      publicForm({ path: '/appeal', action: '/api/moderation/appeals', labels: APPEAL_LABELS }),
      rateLimit(RATE_LIMITS.contact),
      body(appealSchema, { labels: APPEAL_LABELS, forms: true }),
      async (c) => {
        const { token, appeal } = c.req.valid('json');
        const key = await verifyAppealToken(deps.env.SESSION_SECRET, token);
        if (!key) throw badToken();
        const result = await submitAppeal(deps.db, key, appeal, deps.now?.() ?? Date.now());
        if (!result.ok) {
          if (result.reason === 'unknown') throw badToken();
          throw new ApiError(
            409,
            'already_appealed',
            'This decision has already been appealed: one appeal per decision.',
            [{ path: 'token', message: 'This decision has already been appealed: one appeal per decision.' }],
          );
        }
        if (c.get('body')?.kind === 'form') return c.redirect('/appeal/sent', 303);
        return c.json({ appeal: { decision_id: result.decision.id, appealed_at: result.decision.appealed_at } }, 201);
      },
    );
