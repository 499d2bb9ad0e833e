import { Hono, type MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { type EventWrite, recordEvents } from '../../../db/queries/interactions';
import {
  eventBatchSchema,
  type eventsSchema,
  type InteractionInput,
  interactionSchema,
} from '../../../src/lib/schemas/interaction';
import type { AppDeps, AppEnv } from '../context';
import { RATE_LIMITS } from '../lib/rate-limits';
import { parseWith, readBody } from '../lib/validate';
import { rateLimit } from '../middleware/rate-limit';

/** The rows of parsed events, with the request's user agent and hashed IP. */
export function eventRows(events: InteractionInput[], userAgent: string | null, ipHash: string): EventWrite[] {
  return events.map((e) => ({
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
}

/**
 * The body: one event or a batch of up to 50, as JSON or as the text/plain string
 * navigator.sendBeacon sends; typed for `hc` as the union of the two. Each shape is parsed with
 * its own schema, so a refusal names the field (`interaction_type`, `3.metadata.action`).
 */
const eventsBody: MiddlewareHandler<
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
 * `POST /api/events`: analytics events from the page, through the same middleware chain as every
 * route (origin check, body limit, headers, request id). What only the page sees (view, save,
 * unsave, share) is stored without conversion value: a batch naming a click, signup, report or
 * conversion is refused whole (400 naming the field), since only the server records those. The
 * rows go through the query layer's group commit (recordEvents): the busiest write's speed.
 */
export const eventRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>().post('/', rateLimit(RATE_LIMITS.events), eventsBody, async (c) => {
    const rows = eventRows(c.req.valid('json'), c.req.header('user-agent')?.slice(0, 256) ?? null, c.get('ipHash'));
    return c.json({ accepted: await recordEvents(deps.db, rows) }, 202);
  });
