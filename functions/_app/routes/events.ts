import { Hono } from 'hono';
import type { EventWrite } from '../../../db/queries/interactions';
import { eventBatchSchema, interactionSchema } from '../../../src/lib/schemas/interaction';
import type { AppDeps, AppEnv } from '../context';
import { ApiError } from '../lib/errors';
import { header } from '../lib/header';
import { admit } from '../lib/request';
import { parseWith, readBody } from '../lib/validate';
import { recordEvents } from '../lib/writers';
import { RATE_LIMITS } from '../middleware/rate-limit';
import { secureJson } from '../middleware/security-headers';

/**
 * `POST /api/events`: one analytics event or a batch of up to 50, as JSON or as the
 * text/plain string navigator.sendBeacon sends. Views and clicks only, stored without conversion
 * value: a batch naming a signup, a conversion or a join is refused whole (400 naming the field),
 * since only the server records those (newsletter signups, joins through /go).
 */
export const eventRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>().post('/', async (c) => {
    const admitted = admit(c, deps, { write: true, limit: RATE_LIMITS.events });
    if (admitted) await admitted;
    const { kind, data } = await readBody(c);
    if (kind !== 'json') throw new ApiError(415, 'unsupported_media_type', 'Send application/json or text/plain JSON');
    const events = Array.isArray(data) ? parseWith(eventBatchSchema, data) : [parseWith(interactionSchema, data)];
    const userAgent = header(c, 'user-agent')?.slice(0, 256) ?? null;
    const ipHash = c.get('ipHash');
    const rows: EventWrite[] = events.map((e) => ({
      interaction_type: e.interaction_type,
      target_type: e.target_type,
      target_id: e.target_id ?? null,
      server_id: e.server_id ?? null,
      metadata: e.metadata ?? null,
      session_id: e.session_id || null,
      user_agent: userAgent,
      ip_address: ipHash,
      campaign_id: e.campaign_id || null,
      referrer: e.referrer || null,
      utm_source: e.utm_source || null,
      utm_medium: e.utm_medium || null,
      utm_campaign: e.utm_campaign || null,
    }));
    const accepted = await recordEvents(deps, rows);
    return secureJson({ accepted }, 202);
  });
