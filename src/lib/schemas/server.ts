import { z } from 'zod';
import { CATEGORY_NAMES } from '../categories';
import { SORT_ORDERS } from '../enums';
import { count, httpsUrl, longText, publicImageUrl, searchText, text } from './common';

const list = (maxItems: number, maxLen: number) => z.array(text(maxLen)).max(maxItems).default([]);

/** Why a premium or sponsored listing without a join link is refused: its Join Premium button would lead nowhere. */
export const PAID_NEEDS_LINK = 'Premium and sponsored listings need a join link';

/** A listing as operators create or edit it; premium or sponsored placement requires a join link. */
export const serverSchema = z
  .object({
    name: text(100, 2),
    description: longText(2000),
    category: z.enum([...CATEGORY_NAMES, 'Education'] as const),
    subcategory: z.string().trim().max(60).nullable().optional(),
    slug: z
      .string()
      .trim()
      .max(50)
      .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'Lowercase letters, digits and hyphens')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    members: count,
    active_users: count,
    rating: z.coerce.number().min(0).max(5).default(0),
    /** The icon every visitor's browser loads: https on a public host. */
    image_url: publicImageUrl('Icon URL').nullable().optional(),
    pros: list(20, 200),
    cons: list(20, 200),
    is_premium: z.boolean().default(false),
    is_sponsored: z.boolean().default(false),
    affiliate_link: httpsUrl.nullable().optional(),
    tags: list(12, 40),
    features: list(20, 200),
    sort_order: z.coerce.number().int().default(0),
    is_active: z.boolean().default(true),
  })
  .refine((v) => !(v.is_premium || v.is_sponsored) || Boolean(v.affiliate_link), {
    path: ['affiliate_link'],
    message: PAID_NEEDS_LINK,
  });
export type ServerInput = z.input<typeof serverSchema>;

/** Query of the public listing endpoint and the islands' filters. */
export const serverQuerySchema = z.object({
  category: z.string().trim().max(40).optional(),
  subcategory: z.string().trim().max(60).optional(),
  search: searchText(100),
  premium: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => v === 'true' || v === '1'),
  sort: z.enum(SORT_ORDERS).default('members'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(9),
});
export type ServerQuery = z.output<typeof serverQuerySchema>;
