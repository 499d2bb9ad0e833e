import { Hono } from 'hono';
import { readQueueFigures } from '../../../db/queries/moderation';
import { queueSentence } from '../../../src/lib/moderation/queue';
import type { AppDeps, AppEnv } from '../context';

/**
 * Moderation in the open (#32), the public side: `GET /queue`, the review queue as it stands (how
 * many wait; median and 90th-percentile decision time over the last 30 days, from the decisions
 * themselves), which the submit page fetches so it is always current.
 */
export const moderationRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>().get('/queue', async (c) => {
    const figures = await readQueueFigures(deps.db, deps.now?.() ?? Date.now());
    c.header('Cache-Control', 'no-store');
    return c.json({ figures, sentence: queueSentence(figures) });
  });
