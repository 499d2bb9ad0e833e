/**
 * The public read API, version 1 (#33): the answers' shapes, once. The routes
 * (functions/_app/routes/v1/) validate with these, the OpenAPI document is generated from them
 * (`.meta()` gives each its name and description there), and /developers is rendered from that
 * document. Every object is strict: a field not named here is a field the API never sends, and the
 * suite checks every live answer against the document. Field names are stable; a change that
 * would break a client is /api/v2 (docs/public-api.md).
 */
import { z } from 'zod';
import { INVITE_STATUSES } from '../enums';

/** Days of member history a listing's answer carries (the server page's chart shows the same 30). */
export const PUBLIC_HISTORY_DAYS = 30;

const isoTime = (description: string) => z.string().meta({ description, format: 'date-time' });

/** The error envelope every /api answer uses. */
export const errorSchema = z
  .strictObject({
    error: z.strictObject({
      code: z.string().meta({ description: 'A stable machine-readable code, e.g. `not_found`, `rate_limited`.' }),
      message: z.string().meta({ description: 'A sentence for people.' }),
      issues: z
        .array(z.strictObject({ path: z.string(), message: z.string() }))
        .optional()
        .meta({ description: 'Each refused field (a query parameter) and why.' }),
    }),
  })
  .meta({ id: 'Error', description: 'The one error envelope: `{ error: { code, message, issues? } }`.' });

/** A listing as a card shows it, in a list. */
export const publicServerSchema = z
  .strictObject({
    slug: z.string().meta({ description: 'The listing’s key; its page is `/server/{slug}`.', example: 'crypto-alpha' }),
    name: z.string(),
    description: z.string(),
    category: z.string().meta({ description: 'One of the categories of `GET /api/v1/categories`.' }),
    subcategory: z.string().nullable(),
    tags: z.array(z.string()),
    language: z.string().nullable().meta({ description: 'Primary language, ISO 639-1 (`en`); null: not set.' }),
    region: z.string().nullable().meta({ description: 'Region, ISO 3166-1 alpha-2 (`US`); null: not set.' }),
    url: z.string().meta({ description: 'The listing’s page on this site.', format: 'uri' }),
    icon_url: z.string().nullable().meta({ description: 'Its icon; null: none (the site draws initials).' }),
    join_url: z.string().nullable().meta({
      description:
        'Where Join leads (through this site, which counts the join); null while the invite does not work or no link is listed.',
      format: 'uri',
    }),
    members: z.number().int().meta({ description: 'Total members (Discord’s approximate count once checked).' }),
    online: z.number().int().meta({ description: 'Members online (Discord’s approximate count once checked).' }),
    checked_at: isoTime('When the invite was last checked, or null: not checked yet (counts as submitted).').nullable(),
    invite_state: z.enum(INVITE_STATUSES).meta({
      description:
        'What the last check said of the invite: `unchecked`, `ok`, `paused` (admins paused invites), `expiring`, `suspect` (stopped working, being checked again), `dead`.',
    }),
    premium: z.boolean(),
    sponsored: z.boolean(),
    placement: z.enum(['paid', 'organic']).meta({
      description:
        '`paid`: a premium or sponsored card, placed by the same rule as on the site (at most one in five positions; the Sponsored listings of a category lead its list, no other card is moved up). Paid placement never changes the rank.',
    }),
    listed_at: isoTime('When the listing was added.'),
  })
  .meta({ id: 'Server', description: 'A listing as its card shows it.' });

/** A page of the listing. */
export const serverPageSchema = z
  .strictObject({
    servers: z.array(publicServerSchema),
    total: z.number().int().meta({ description: 'How many listings pass the filter (see `total_exact`).' }),
    total_exact: z.boolean().meta({
      description:
        'False when `total` is a lower bound: a search or a filter on values stopped counting at it (the site says "1,000+"), or a search of one or two characters looked among the first 2,000 listings of the order only (a longer term searches them all).',
    }),
    page: z.number().int(),
    per_page: z.number().int(),
  })
  .meta({ id: 'ServerPage', description: 'One page of the public listing, as `GET /api/servers` gives the site.' });

/** One point of a listing's member history. */
const historyPointSchema = z.strictObject({
  checked_at: isoTime('The day’s last check that answered with counts.'),
  members: z.number().int(),
  online: z.number().int().nullable(),
});

/** One listing, with what its page shows. */
export const serverDetailSchema = publicServerSchema
  .extend({
    features: z.array(z.string()),
    pros: z.array(z.string()),
    cons: z.array(z.string()),
    links: z.array(z.strictObject({ label: z.string(), url: z.string() })).meta({
      description: 'The owner’s links beside the join link (website, socials).',
    }),
    last_ok_at: isoTime('When a check last found the invite working; null: never.').nullable(),
    invite_notice: z.string().nullable().meta({
      description:
        'What the page says in place of (or under) Join, e.g. “This invite stopped working; we are checking again.”',
    }),
    rank: z
      .strictObject({
        place: z
          .strictObject({ rank: z.number().int(), of: z.number().int() })
          .nullable()
          .meta({ description: 'Its place in its category by score (Most Active); null: not ranked yet.' }),
        score: z.number().meta({ description: 'The rank score from checked signals only (0: not ranked).' }),
        explanation: z
          .array(z.strictObject({ part: z.string(), text: z.string() }))
          .meta({ description: 'The “Why this rank” lines of its page, one per part of the score.' }),
      })
      .meta({ description: 'How it ranks and why; paid placement never changes it.' }),
    rating: z.number().nullable().meta({
      description:
        'The average of its verified members’ reviews out of 5, rounded to one decimal, once at least 3 reviews show; null before that.',
    }),
    history: z.array(historyPointSchema).meta({
      description: `Member counts over the last ${PUBLIC_HISTORY_DAYS} days, oldest first: each day’s last check.`,
    }),
  })
  .meta({ id: 'ServerDetail', description: 'One listing with the public facts its page shows.' });

/** A subcategory with its count. */
const publicSubcategorySchema = z.strictObject({
  name: z.string(),
  key: z.string().meta({ description: 'The value of the `subcategory` filter.', example: 'bitcoin' }),
  url: z.string().meta({ format: 'uri' }),
  servers: z.number().int().meta({ description: 'Listings shown on its page.' }),
});

/** The categories and subcategories with their counts. */
export const categoryListSchema = z
  .strictObject({
    categories: z.array(
      z.strictObject({
        name: z.string().meta({ description: 'The value of the `category` filter.', example: 'Crypto' }),
        slug: z.string(),
        url: z.string().meta({ format: 'uri' }),
        servers: z.number().int().meta({ description: 'Listed servers in the category.' }),
        subcategories: z.array(publicSubcategorySchema),
      }),
    ),
  })
  .meta({ id: 'CategoryList', description: 'Every category with its subcategories and how many listings each has.' });

/** A listing's slug in a path. */
export const slugParamSchema = z.object({
  slug: z
    .string()
    .min(1)
    .max(100)
    .meta({ param: { name: 'slug', in: 'path' }, description: 'The listing’s slug.', example: 'crypto-alpha' }),
});

export type PublicServer = z.infer<typeof publicServerSchema>;
export type ServerDetail = z.infer<typeof serverDetailSchema>;
export type CategoryList = z.infer<typeof categoryListSchema>;
