import { pageOfServers } from '../src/lib/listing';
import type { Server, ServerFilter } from './queries/servers';
import sampleRows from './sample-servers.json' with { type: 'json' };
import type { NewServerRow } from './schema';

/**
 * The built-in sample set: seven servers with ids 1, 2, 3, 4, 9, 10 and 12, as rows of data in
 * sample-servers.json (the seed inserts them as they stand; columns a row leaves out take the
 * table's defaults). Seeded into an empty database; the Education one is stored but never listed.
 */
export const SAMPLE_SERVERS: NewServerRow[] = sampleRows;

/** The sample servers as full rows (defaults filled in), built once. */
let samples: Server[] | undefined;
function sampleServers(): Server[] {
  samples ??= SAMPLE_SERVERS.map((s, i) => ({
    id: s.id ?? i + 1,
    name: s.name,
    description: s.description ?? '',
    category: s.category,
    subcategory: s.subcategory ?? null,
    slug: s.slug,
    members: s.members ?? 0,
    active_users: s.active_users ?? 0,
    rating: s.rating ?? 0,
    // Sample servers have no member reviews (#31): their ratings never show as an average.
    review_count: 0,
    image_url: s.image_url ?? null,
    pros: s.pros ?? [],
    cons: s.cons ?? [],
    is_premium: s.is_premium ?? false,
    is_sponsored: s.is_sponsored ?? false,
    affiliate_link: s.affiliate_link ?? null,
    tags: s.tags ?? [],
    features: s.features ?? [],
    links: s.links ?? [],
    sort_order: s.sort_order ?? 0,
    is_active: s.is_active ?? true,
    language: s.language ?? null,
    region: s.region ?? null,
    placement_started_at: s.placement_started_at ?? null,
    placement_ends_at: s.placement_ends_at ?? null,
    placement_kind: s.placement_kind ?? null,
    created_at: s.created_at ?? '1970-01-01T00:00:00.000Z',
    updated_at: s.updated_at ?? s.created_at ?? '1970-01-01T00:00:00.000Z',
    // Never checked against Discord: the sample set is what the site shows with no database.
    guild_id: null,
    guild_icon: null,
    invite_code: null,
    invite_status: 'unchecked' as const,
    last_checked_at: null,
    last_ok_at: null,
    next_check_at: '',
    fail_streak: 0,
    first_fail_at: null,
    transient_streak: 0,
    rank_score: 0,
    rank_explain: null,
    growth_30d: 0,
    category_place: null,
  }));
  return samples;
}

/** listServers' answer over the built-in sample set (the fallback when the database cannot answer), by the same listing rules. */
export function listSampleServers(filter: ServerFilter): { servers: Server[]; total: number } {
  return pageOfServers(sampleServers(), filter);
}
