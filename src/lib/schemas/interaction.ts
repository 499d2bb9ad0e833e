import { z } from 'zod';
import { INTERACTION_TYPES, TARGET_TYPES } from '../enums';

const shortText = (max: number) => z.string().trim().max(max).optional();

/** One analytics event sent by the browser (sendBeacon) to `POST /api/events`. */
export const interactionSchema = z.object({
  interaction_type: z.enum(INTERACTION_TYPES),
  target_type: z.enum(TARGET_TYPES),
  target_id: shortText(100),
  server_id: z.number().int().positive().optional(),
  /** Free-form details (action, reason...): a flat object of short scalars. */
  metadata: z
    .record(z.string().max(40), z.union([z.string().max(500), z.number(), z.boolean(), z.null()]))
    .refine((m) => Object.keys(m).length <= 20, 'At most 20 keys')
    .optional(),
  session_id: shortText(64),
  campaign_id: shortText(100),
  referrer: shortText(2048),
  utm_source: shortText(100),
  utm_medium: shortText(100),
  utm_campaign: shortText(100),
});
export type InteractionInput = z.output<typeof interactionSchema>;

/** One event or a batch of at most 50. */
export const eventsSchema = z.union([interactionSchema, z.array(interactionSchema).min(1).max(50)]);
