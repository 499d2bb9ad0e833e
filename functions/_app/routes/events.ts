import { Hono, type MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import type { EventWrite } from '../../../db/queries/interactions';
import {
  eventBatchSchema,
  type eventsSchema,
  type InteractionInput,
  interactionSchema,
} from '../../../src/lib/schemas/interaction';
import type { AppDeps, AppEnv } from '../context';
import { recordEvents } from '../lib/event-sink';
import { parseWith, readBody } from '../lib/validate';
import { RATE_LIMITS, rateLimit } from '../middleware/rate-limit';

/**
 * The body of `POST /api/events`: one event or a batch, JSON or the text/plain string
 * navigator.sendBeacon sends. Each shape is parsed with its own schema, so a refusal names the
 * field (`interaction_type`, `3.metadata.action`) rather than the union; typed for `hc` as the union.
 */
const events: MiddlewareHandler<
  AppEnv,
  string,
  { in: { json: z.input<typeof eventsSchema> }; out: { json: InteractionInput[] } }
> = async (c, next) => {
  const { data } = await readBody(c, false);
  c.req.addValidatedData(
    'json',
    Array.isArray(data) ? parseWith(eventBatchSchema, data) : [parseWith(interactionSchema, data)],
  );
  await next();
};

/**
 * `POST /api/events`: what only the page sees (view, save, unsave, share), stored without
 * conversion value: a batch naming a click, signup, report or conversion is refused whole (400
 * naming the field), since only the server records those (joins through /go, signups...).
 */
export const eventRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>().post('/', rateLimit(RATE_LIMITS.events), events, async (c) => {
    const userAgent = c.req.header('user-agent')?.slice(0, 256) ?? null;
    const ipHash = c.get('ipHash');
    const rows: EventWrite[] = c.req.valid('json').map((e) => ({
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
    return c.json({ accepted: await recordEvents(deps, rows) }, 202);
  });
