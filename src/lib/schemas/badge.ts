import { z } from 'zod';
import { BADGE_STYLES, BADGE_VARIANTS } from '../badge/badge';

/** An empty value (`?variant=`, a template's blank) reads as an absent one. */
const blank = z.literal('').transform(() => undefined);

/**
 * The query of `GET /badge/{slug}.svg`: an unknown value of either is a 400 naming it, never
 * another badge in its place; other parameters (a cache-buster such as `?v=2`) are ignored.
 */
export const badgeQuerySchema = z.object({
  /** What the message says (BADGE_VARIANTS); absent: `default`, members and online. */
  variant: z.enum(BADGE_VARIANTS).optional().or(blank),
  /** The colour scheme (BADGE_STYLES); absent: `light`. */
  style: z.enum(BADGE_STYLES).optional().or(blank),
});
export type BadgeQuery = z.output<typeof badgeQuerySchema>;
