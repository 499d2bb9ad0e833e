import { Hono } from 'hono';
import { type InteractionWrite, insertInteractions } from '../../../db/queries/interactions';
import { getServerFlags } from '../../../db/queries/outbound';
import { conversionValue } from '../../../src/lib/enums';
import { eventsSchema } from '../../../src/lib/schemas/interaction';
import type { AppEnv } from '../context';
import { ApiError } from '../lib/errors';
import { parseWith, readBody } from '../lib/validate';
import { originCheck } from '../middleware/origin-check';
import { RATE_LIMITS, rateLimit } from '../middleware/rate-limit';

/**
 * `POST /api/events`: one analytics event or a batch of up to 50, as JSON or as the
 * text/plain string navigator.sendBeacon sends. Conversion values are the server's.
 */
export const eventRoutes = new Hono<AppEnv>().post('/', originCheck(), rateLimit(RATE_LIMITS.events), async (c) => {
  const { kind, data } = await readBody(c);
  if (kind !== 'json') throw new ApiError(415, 'unsupported_media_type', 'Send application/json or text/plain JSON');
  const parsed = parseWith(eventsSchema, data);
  const events = Array.isArray(parsed) ? parsed : [parsed];
  const { db } = c.get('deps');
  const ids = events.flatMap((e) => (e.server_id === undefined ? [] : [e.server_id]));
  const servers = await getServerFlags(db, ids);
  const userAgent = c.req.header('user-agent')?.slice(0, 256) ?? null;
  const ipHash = c.get('ipHash');
  const rows: InteractionWrite[] = events.map((e) => {
    // An id that names no server is kept as target_id only (the foreign key would refuse it).
    const server = e.server_id === undefined ? undefined : servers.get(e.server_id);
    return {
      interaction_type: e.interaction_type,
      target_type: e.target_type,
      target_id: e.target_id ?? (e.server_id !== undefined ? String(e.server_id) : null),
      server_id: server?.id ?? null,
      metadata: e.metadata ?? null,
      session_id: e.session_id || null,
      user_agent: userAgent,
      ip_address: ipHash,
      campaign_id: e.campaign_id || null,
      referrer: e.referrer || null,
      utm_source: e.utm_source || null,
      utm_medium: e.utm_medium || null,
      utm_campaign: e.utm_campaign || null,
      conversion_value: conversionValue(
        e.interaction_type,
        e.target_type,
        !!server && (server.is_premium || server.is_sponsored),
      ),
    };
  });
  const accepted = await insertInteractions(db, rows);
  return c.json({ accepted }, 202);
});
