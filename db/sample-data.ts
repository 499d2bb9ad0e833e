import { pageOfServers } from '../src/lib/listing';
import type { Server, ServerFilter } from './queries/servers';
import type { NewServerRow } from './schema';

/**
 * The built-in sample set of SPEC section 3: seven servers with ids 1, 2, 3, 4, 9, 10 and 12.
 * Seeded into an empty database; the Education one is stored but never listed.
 */
export const SAMPLE_SERVERS: NewServerRow[] = [
  {
    id: 1,
    name: 'Apex Legends Hub',
    language: 'en',
    slug: 'apex-legends-hub',
    description:
      'The largest Apex Legends community: ranked LFG every hour, weekly scrims with prizes, patch breakdowns and coaching from Predator-rank players.',
    category: 'Gaming',
    subcategory: 'Battle Royale',
    members: 184_300,
    active_users: 21_400,
    rating: 4.8,
    image_url: '/icons/servers/apex-legends-hub.svg',
    pros: ['LFG channels for every rank', 'Weekly scrims with prizes', 'Active moderation around the clock'],
    cons: ['Busy channels can move fast'],
    is_premium: true,
    is_sponsored: true,
    affiliate_link: 'https://discord.gg/apexhub',
    tags: ['Apex Legends', 'LFG', 'Esports', 'Ranked'],
    features: ['Ranked LFG bot', 'Scrim ladder', 'Coaching sessions', 'Patch-note digests'],
    sort_order: 100,
    created_at: '2019-03-12T10:00:00.000Z',
  },
  {
    id: 2,
    name: 'Bitcoin Maximalists',
    language: 'en',
    slug: 'bitcoin-maximalists',
    description:
      'On-chain analysis, Lightning node operators and long-term holders discussing Bitcoin only: no altcoin shilling, no paid signals, just research.',
    category: 'Crypto',
    subcategory: 'Bitcoin',
    members: 96_800,
    active_users: 8_900,
    rating: 4.6,
    image_url: '/icons/servers/bitcoin-maximalists.svg',
    pros: ['Strict no-shill policy', 'Daily on-chain reports', 'Lightning help desk'],
    cons: ['Bitcoin only by design'],
    is_premium: true,
    is_sponsored: false,
    affiliate_link: 'https://discord.gg/btcmax',
    tags: ['Bitcoin', 'Lightning', 'On-chain'],
    features: ['On-chain dashboards', 'Node setup guides', 'Weekly AMA'],
    sort_order: 90,
    created_at: '2018-11-02T10:00:00.000Z',
  },
  {
    id: 3,
    name: 'Forex Signals Room',
    language: 'en',
    region: 'GB',
    slug: 'forex-signals-room',
    description:
      'Live London and New York session analysis, trade ideas with entries and stops posted before the move, and a journal channel for every member.',
    category: 'Trading',
    subcategory: 'Forex Trading',
    members: 58_200,
    active_users: 6_100,
    rating: 4.4,
    image_url: '/icons/servers/forex-signals-room.svg',
    pros: ['Entries posted before the move', 'Session recaps', 'Beginner course'],
    cons: ['Quiet on weekends'],
    is_premium: false,
    is_sponsored: true,
    affiliate_link: 'https://discord.gg/fxroom',
    tags: ['Forex', 'Signals', 'Price Action'],
    features: ['Session recaps', 'Trade journal channel', 'Risk calculator bot'],
    sort_order: 80,
    created_at: '2020-06-21T10:00:00.000Z',
  },
  {
    id: 4,
    name: 'NFL Betting Edge',
    language: 'en',
    region: 'US',
    slug: 'nfl-betting-edge',
    description:
      'Sharp NFL picks with tracked records, line-movement alerts, injury news and bankroll discipline. Every pick is logged publicly, wins and losses.',
    category: 'Sports Betting',
    subcategory: 'NFL',
    members: 41_500,
    active_users: 5_200,
    rating: 4.5,
    image_url: '/icons/servers/nfl-betting-edge.svg',
    pros: ['Public pick record', 'Line-movement alerts', 'Bankroll guides'],
    cons: ['Off-season is slower'],
    is_premium: true,
    is_sponsored: false,
    affiliate_link: 'https://discord.gg/nfledge',
    tags: ['NFL', 'Picks', 'Odds'],
    features: ['Tracked pick record', 'Injury news feed', 'Live game threads'],
    sort_order: 70,
    created_at: '2021-08-30T10:00:00.000Z',
  },
  {
    id: 9,
    name: 'Dividend Investors Club',
    language: 'en',
    region: 'US',
    slug: 'dividend-investors-club',
    description:
      'Long-term investors sharing dividend growth portfolios, stock research and tax-efficient strategies. Friendly to beginners, allergic to hype.',
    category: 'Investing',
    subcategory: 'Stocks',
    members: 23_700,
    active_users: 2_300,
    rating: 4.7,
    image_url: '/icons/servers/dividend-investors-club.svg',
    pros: ['Portfolio reviews', 'Research library', 'No pump-and-dump'],
    cons: ['Slow-paced by design'],
    is_premium: false,
    is_sponsored: false,
    affiliate_link: 'https://discord.gg/dividends',
    tags: ['Stocks', 'Dividends', 'Long-term'],
    features: ['Portfolio review threads', 'Earnings calendar', 'Book club'],
    sort_order: 0,
    created_at: '2020-01-15T10:00:00.000Z',
  },
  {
    id: 10,
    name: 'Indie Game Devs',
    language: 'de',
    region: 'DE',
    slug: 'indie-game-devs',
    description:
      'Indie developers and players trading feedback, playtests and devlogs. Share your build, find a team for the next game jam, or just play something new.',
    category: 'Gaming',
    subcategory: 'Indie',
    members: 12_400,
    active_users: 1_900,
    rating: 4.3,
    image_url: '/icons/servers/indie-game-devs.svg',
    pros: ['Playtest swaps', 'Game jam teams', 'Devlog showcase'],
    cons: ['Not for competitive players'],
    is_premium: false,
    is_sponsored: false,
    affiliate_link: 'https://discord.gg/indiedevs',
    tags: ['Indie', 'Game Dev', 'Playtesting'],
    features: ['Playtest queue', 'Jam team finder', 'Weekly showcase'],
    sort_order: 0,
    created_at: '2022-04-03T10:00:00.000Z',
  },
  {
    id: 12,
    name: 'Study Together',
    language: 'es',
    slug: 'study-together',
    description:
      'Co-working voice rooms, pomodoro timers and study groups for students everywhere. Listed under Education, which the directory does not show.',
    category: 'Education',
    subcategory: null,
    members: 30_000,
    active_users: 4_000,
    rating: 4.2,
    image_url: '/icons/servers/study-together.svg',
    pros: ['Silent study rooms'],
    cons: ['Outside our five niches'],
    is_premium: false,
    is_sponsored: false,
    affiliate_link: 'https://discord.gg/studytogether',
    tags: ['Study', 'Productivity'],
    features: ['Pomodoro bot'],
    sort_order: 0,
    created_at: '2021-02-01T10:00:00.000Z',
  },
];

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
  }));
  return samples;
}

/** listServers' answer over the built-in sample set (SPEC section 4's fallback), by the same listing rules. */
export function listSampleServers(filter: ServerFilter): { servers: Server[]; total: number } {
  return pageOfServers(sampleServers(), filter);
}

export interface ContentDefault {
  page: string;
  section: string;
  content_key: string;
  content_value: string;
  sort_order?: number;
}

/** Editable texts with their defaults; the site reads `site_content` and falls back to these. */
export const CONTENT_DEFAULTS: ContentDefault[] = [
  { page: 'home', section: 'hero', content_key: 'heading', content_value: 'Find the Best Discord Servers' },
  {
    page: 'home',
    section: 'hero',
    content_key: 'subheading',
    content_value:
      'Hand-reviewed gaming, crypto, trading, investing and sports betting communities, ranked by member count.',
  },
  {
    page: 'home',
    section: 'hero',
    content_key: 'search_placeholder',
    content_value: 'Search servers by name or topic…',
  },
  { page: 'home', section: 'categories', content_key: 'heading', content_value: 'Browse by Category' },
  {
    page: 'home',
    section: 'categories',
    content_key: 'subheading',
    content_value: 'Five niches, every server reviewed by a person before it is listed.',
  },
  {
    page: 'global',
    section: 'footer',
    content_key: 'tagline',
    content_value: 'The honest directory of Discord communities for gamers, traders, investors and bettors.',
  },
  {
    page: 'global',
    section: 'footer',
    content_key: 'copyright',
    content_value: 'GuildRank. Not affiliated with Discord Inc.',
  },
];
