import { z } from 'zod';
import { STORED_CATEGORY_NAMES } from '../categories';
import { SORT_ORDERS } from '../enums';
import { DEFAULT_SORT } from '../listing';
import { count, httpsUrl, longText, publicImageUrl, searchText, text } from './common';
import { optionalLanguage, optionalRegion, reviewedLanguage, reviewedRegion } from './language';
import { listingLinksSchema } from './links';

const list = (maxItems: number, maxLen: number) => z.array(text(maxLen)).max(maxItems).default([]);

/** A day of the paid period as stored (ISO, midnight UTC), from a date field; '' or null: not recorded. */
const placementDay = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() || null : v),
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+Z)?$/, 'A date, like 2026-03-01')
    .refine((v) => !Number.isNaN(Date.parse(v)), 'A date, like 2026-03-01')
    .transform((v) => new Date(Date.parse(v.length === 10 ? `${v}T00:00:00.000Z` : v)).toISOString())
    .nullable()
    .optional(),
);

/** Why a premium or sponsored listing without a join link is refused: its Join Premium button would lead nowhere. */
export const PAID_NEEDS_LINK = 'Premium and sponsored listings need a join link';

/** A listing as operators create or edit it; premium or sponsored placement requires a join link. */
export const serverSchema = z
  .object({
    name: text(100, 2),
    description: longText(2000),
    category: z.enum(STORED_CATEGORY_NAMES),
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
    /** Primary language and region (#19); null or '' for none. */
    language: reviewedLanguage,
    region: reviewedRegion,
    /** The paid placement's period (#19), a day (YYYY-MM-DD) or an ISO time; null or '' when not recorded. */
    placement_started_at: placementDay,
    placement_ends_at: placementDay,
    /** The listing's own links (#17), as owners edit them; absent: unchanged. */
    links: listingLinksSchema.optional(),
  })
  .refine((v) => !(v.is_premium || v.is_sponsored) || Boolean(v.affiliate_link), {
    path: ['affiliate_link'],
    message: PAID_NEEDS_LINK,
  });
export type ServerInput = z.input<typeof serverSchema>;

/** A yes/no query flag: true or 1 turn it on; absent, false or 0 leave it off. */
const queryFlag = z
  .enum(['true', 'false', '1', '0'], { error: 'Must be true or false' })
  .optional()
  .transform((v) => v === 'true' || v === '1');

/** An optional number of a query string (an empty field of a GET form is none), checked by `check`. */
const queryNumber = (check: z.ZodNumber) =>
  z.preprocess(
    (v) => (v === undefined || (typeof v === 'string' && v.trim() === '') ? undefined : Number(v)),
    check.optional(),
  );

/** A member count bound: a whole number from 0 to a billion. */
const memberBound = (label: string) =>
  queryNumber(
    z
      .number({ error: `${label} must be a number` })
      .int(`${label} must be a whole number`)
      .min(0, `${label} cannot be negative`)
      .max(1_000_000_000, `${label} is at most 1,000,000,000`),
  );

/** Query of the public listing endpoint and the islands' filters. */
export const serverQuerySchema = z
  .object({
    category: z.string().trim().max(40).optional(),
    subcategory: z.string().trim().max(60).optional(),
    search: searchText(100),
    premium: queryFlag,
    /** members (default), active (rank score), newest, growing (30-day growth), featured (curated). */
    sort: z.enum(SORT_ORDERS, { error: `Sort must be one of ${SORT_ORDERS.join(', ')}` }).default(DEFAULT_SORT),
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    per_page: z.coerce.number().int().min(1).max(100).default(9),
    /** Member range, both ends included. */
    min_members: memberBound('Minimum members'),
    max_members: memberBound('Maximum members'),
    /** Online share (online / members, Discord's counts) at least this: 0 to 1. */
    min_online_share: queryNumber(
      z
        .number({ error: 'Minimum online share must be a number' })
        .min(0, 'Minimum online share must be between 0 and 1')
        .max(1, 'Minimum online share must be between 0 and 1'),
    ),
    /** Only servers whose invite answered within the last 24 hours. */
    checked_24h: queryFlag,
    /** Primary language, an ISO 639-1 code of src/lib/languages.ts ('en'); empty: every language. */
    language: optionalLanguage,
    /** Region, an ISO 3166-1 alpha-2 code ('US'); empty: every region. */
    region: optionalRegion,
  })
  .refine((q) => q.min_members === undefined || q.max_members === undefined || q.max_members >= q.min_members, {
    path: ['max_members'],
    message: 'Maximum members must be at least the minimum members',
  });
export type ServerQuery = z.output<typeof serverQuerySchema>;
