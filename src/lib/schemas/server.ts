import { z } from 'zod';
import { CATEGORY_NAMES, isListedCategory } from '../categories';
import { SORT_ORDERS } from '../enums';
import { categoryFilterName, DEFAULT_SORT } from '../listing';
import { count, httpsUrl, listingIconUrl, longText, searchText, text } from './common';
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

/**
 * Why an edit may not hide a live listing (#32): hiding asks for reasons, which the owner is mailed
 * with an appeal link, and the console's Visible column is where that happens.
 */
export const HIDE_NEEDS_REASONS =
  'Hiding a live listing needs reasons for its owner: untick Visible in the list of servers instead';

/** A listing as operators create or edit it; premium or sponsored placement requires a join link. */
export const serverSchema = z
  .object({
    name: text(100, 2),
    description: longText(2000),
    /** One of the categories the site lists (src/lib/categories.ts): a listing in any other would be stored and never shown. */
    category: z.enum(CATEGORY_NAMES),
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
    // No rating: a listing's `rating` is the average of its member reviews (#31), never set by hand.
    /** The icon every visitor's browser loads: one the site ships, or https on a public host. */
    image_url: listingIconUrl('Icon URL').nullable().optional(),
    pros: list(20, 200),
    cons: list(20, 200),
    is_premium: z.boolean().default(false),
    is_sponsored: z.boolean().default(false),
    affiliate_link: httpsUrl.nullable().optional(),
    tags: list(12, 40),
    features: list(20, 200),
    sort_order: z.coerce.number().int().default(0),
    /** Visible on the site; a new listing is visible unless this says otherwise, an edit without it leaves it as it is. */
    is_active: z.boolean().optional(),
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

/**
 * Query of the public listing endpoint and the islands' filters; the public API (#33) takes the
 * same, and each field's description is what its OpenAPI document and /developers print.
 */
export const serverQuerySchema = z
  .object({
    category: z
      .string()
      .trim()
      .max(40)
      // Any other value matched nothing and answered an empty page, as if the category had no servers.
      .refine((v) => categoryFilterName(v) === undefined || isListedCategory(categoryFilterName(v)!), {
        error: `Category must be one of ${CATEGORY_NAMES.join(', ')} (a name or its slug), or All`,
      })
      .optional()
      .meta({
        description:
          'A category name (`Crypto`, `Sports Betting`, any case) or slug (`sports-betting`); absent or `All`: every category. Any other value is refused (400).',
      }),
    subcategory: z
      .string()
      .trim()
      .max(60)
      .optional()
      .meta({ description: 'A subcategory key of `GET /api/v1/categories` (`bitcoin`); absent or `all`: every one.' }),
    search: searchText(100).meta({
      description: 'Words to find in the name, the description or a tag (case-insensitive).',
    }),
    premium: queryFlag.meta({ description: '`true`: premium and sponsored listings only.' }),
    sort: z
      .enum(SORT_ORDERS, { error: `Sort must be one of ${SORT_ORDERS.join(', ')}` })
      .default(DEFAULT_SORT)
      .meta({
        description:
          'The order: `members` (most members), `active` (rank score), `newest`, `growing` (30-day growth), `featured` (curated).',
      }),
    page: z.coerce.number().int().min(1).max(100_000).default(1).meta({ description: 'The page, from 1.' }),
    per_page: z.coerce.number().int().min(1).max(100).default(9).meta({ description: 'Listings per page.' }),
    min_members: memberBound('Minimum members').meta({ description: 'At least this many members (included).' }),
    max_members: memberBound('Maximum members').meta({ description: 'At most this many members (included).' }),
    min_online_share: queryNumber(
      z
        .number({ error: 'Minimum online share must be a number' })
        .min(0, 'Minimum online share must be between 0 and 1')
        .max(1, 'Minimum online share must be between 0 and 1'),
    ).meta({ description: 'Online members / members at least this, from 0 to 1 (Discord’s counts).' }),
    checked_24h: queryFlag.meta({
      description: '`true`: only listings whose invite answered within the last 24 hours.',
    }),
    language: optionalLanguage.meta({
      description: 'Primary language, an ISO 639-1 code (`en`); empty: every language.',
    }),
    region: optionalRegion.meta({ description: 'Region, an ISO 3166-1 alpha-2 code (`US`); empty: every region.' }),
  })
  .refine((q) => q.min_members === undefined || q.max_members === undefined || q.max_members >= q.min_members, {
    path: ['max_members'],
    message: 'Maximum members must be at least the minimum members',
  });
export type ServerQuery = z.output<typeof serverQuerySchema>;
