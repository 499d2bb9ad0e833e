import { z } from 'zod';
import { type InteractionType, TARGET_TYPES } from '../enums';
// Loads the shared zod settings (jitless: no eval under the CSP).
import './common';

const shortText = (max: number) => z.string().trim().max(max).optional();

/**
 * The event types a browser may report: what only the page sees (a view, a save or unsave in
 * local storage, a share). Everything the server handles it records itself, once: joins and
 * premium call-to-action clicks (the /go and /cta redirects), newsletter signups, reports and
 * the premium enquiry (the conversion). A browser that could send those could count an action
 * twice, or add revenue with one request.
 */
export const BROWSER_INTERACTION_TYPES = [
  'view',
  'save',
  'unsave',
  'share',
] as const satisfies readonly InteractionType[];
export type BrowserInteractionType = (typeof BROWSER_INTERACTION_TYPES)[number];

/** metadata.action values the server records itself (a join is the /go redirect's click). */
const SERVER_ACTIONS = new Set(['join']);

/** One analytics event sent by the browser (sendBeacon) to `POST /api/events`. */
export const interactionSchema = z.object({
  interaction_type: z.enum(BROWSER_INTERACTION_TYPES, {
    error:
      'interaction_type must be view, save, unsave or share: clicks, signups, reports and conversions are recorded by the server',
  }),
  target_type: z.enum(TARGET_TYPES),
  target_id: shortText(100),
  server_id: z.number().int().positive().optional(),
  /** Free-form details (action, reason...): a flat object of short scalars; never a join. */
  metadata: z
    .record(z.string().max(40), z.union([z.string().max(500), z.number(), z.boolean(), z.null()]))
    .refine((m) => Object.keys(m).length <= 20, 'At most 20 keys')
    .superRefine((m, ctx) => {
      if (typeof m.action === 'string' && SERVER_ACTIONS.has(m.action.trim().toLowerCase())) {
        ctx.addIssue({
          code: 'custom',
          path: ['action'],
          message: 'A join is recorded by the server when the visitor follows /go/:slug',
        });
      }
    })
    .optional(),
  session_id: shortText(64),
  campaign_id: shortText(100),
  referrer: shortText(2048),
  utm_source: shortText(100),
  utm_medium: shortText(100),
  utm_campaign: shortText(100),
});
/** A tab's analytics session id as a link carries it (`/go/x?s=`): what sessionId() makes, a UUID. */
export const sessionIdParam = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

export type InteractionInput = z.output<typeof interactionSchema>;

/** A batch of 1 to 50 events. */
export const eventBatchSchema = z
  .array(interactionSchema)
  .min(1, 'Send at least one event')
  .max(50, 'At most 50 events in one batch');

/**
 * One event or a batch of at most 50. The handler parses each shape with its own schema, so
 * a refusal names the field (`interaction_type`, `3.metadata.action`) rather than the union.
 */
export const eventsSchema = z.union([interactionSchema, eventBatchSchema]);
