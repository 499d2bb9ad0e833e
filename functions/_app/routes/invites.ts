import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../context';
import { checkInvite } from '../lib/invite-check';
import { currentOwner } from '../lib/owner-session';
import { RATE_LIMITS } from '../lib/rate-limits';
import { rateLimit } from '../middleware/rate-limit';

/**
 * `GET /api/invites/:code`: the submit form's live check of an invite (a bare code or a link):
 * 200 with the guild's name, icon and Discord's approximate member and online counts; 400 on
 * `invite_link` (unknown, expiring, paused), 409 (already listed or waiting for review), 503 with
 * Retry-After (Discord cannot be asked). The same check runs again on submit (lib/invite-check.ts).
 */
export const inviteRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>().get('/:code', rateLimit(RATE_LIMITS.invites), async (c) => {
    const owner = await currentOwner(c, deps);
    const { preview } = await checkInvite(deps, c.req.param('code'), {
      client: c.get('ipHash'),
      owner: owner !== null,
    });
    return c.json({ invite: preview }, 200);
  });
