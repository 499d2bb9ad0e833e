import { Hono } from 'hono';
import type { RebuildStatus } from '../../context';
import { type AdminEnv, requireRole } from '../../middleware/auth';
import { audit } from './shared';

/** What the console shows when no rebuild trigger is configured (tests, edge without a hook). */
const NO_TRIGGER: RebuildStatus & { configured: false } = {
  configured: false,
  state: 'idle',
  liveSince: null,
  lastDurationMs: null,
  lastError: null,
  lastReason: null,
};

/** The site rebuild: every operator sees its state; admins can start one. */
export const buildRoutes = new Hono<AdminEnv>()
  .get('/', requireRole('moderator'), (c) => {
    const rebuild = c.get('deps').rebuild;
    return c.json(rebuild ? { configured: true, ...rebuild.status() } : NO_TRIGGER);
  })
  .post('/', requireRole('admin'), async (c) => {
    const rebuild = c.get('deps').rebuild;
    await rebuild?.request('requested from the console');
    await audit(c, 'rebuild', 'site', null);
    return c.json(rebuild ? { configured: true, ...rebuild.status() } : NO_TRIGGER, 202);
  });
