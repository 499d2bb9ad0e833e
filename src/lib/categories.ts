/**
 * The five niches and their 21 subcategory pages, defined once. Everything else
 * (zod enums, routes, filter buttons, form options, seed data) derives from here.
 */

/** Display names of the listed categories, as stored in `discord_servers.category`. */
export const CATEGORY_NAMES = ['Gaming', 'Crypto', 'Trading', 'Sports Betting', 'Investing'] as const;
export type CategoryName = (typeof CATEGORY_NAMES)[number];

export interface CategoryDef {
  name: CategoryName;
  /** URL slug: the page lives at /best-{slug}-discord. */
  slug: string;
  title: string;
  seoTitle: string;
  description: string;
  keywords: readonly string[];
  color: string;
  gradient: string;
  /** The approximate audience the spec advertises, e.g. '1.2M+'. */
  approxMembers: string;
  icon: string;
}

export interface SubcategoryDef {
  /** Matched (hyphen to space, case-insensitive, partial) against `discord_servers.subcategory`. */
  key: string;
  /** Display name stored in `discord_servers.subcategory`. */
  name: string;
  /** Path segment: /best-{parentSlug}-discord/{slug}. */
  slug: string;
  title: string;
  seoTitle: string;
  description: string;
  keywords: readonly string[];
  parentCategory: CategoryName;
  parentSlug: string;
  color: string;
  gradient: string;
}

export const CATEGORIES: readonly CategoryDef[] = [
  {
    name: 'Gaming',
    slug: 'gaming',
    title: 'Best Gaming Discord Servers',
    seoTitle: 'Best Gaming Discord Servers to Join in 2026',
    description:
      'Find active gaming communities for every genre: competitive shooters, MMOs, indie games, LFG squads and esports fans, ranked by member count.',
    keywords: ['gaming discord', 'lfg discord', 'esports discord', 'mmo discord', 'fps discord'],
    color: '#6366f1',
    gradient: 'linear-gradient(135deg, #4f46e5 0%, #7c3aed 100%)',
    approxMembers: '1.2M+',
    icon: '🎮',
  },
  {
    name: 'Crypto',
    slug: 'crypto',
    title: 'Best Crypto Discord Servers',
    seoTitle: 'Best Crypto Discord Servers: Bitcoin, Ethereum, DeFi and NFT Communities',
    description:
      'Crypto communities for Bitcoin, Ethereum, DeFi, NFTs and altcoins: market talk, research, alerts and project news from people who follow the chain.',
    keywords: ['crypto discord', 'bitcoin discord', 'ethereum discord', 'defi discord', 'nft discord'],
    color: '#d97706',
    gradient: 'linear-gradient(135deg, #b45309 0%, #d97706 100%)',
    approxMembers: '850K+',
    icon: '₿',
  },
  {
    name: 'Trading',
    slug: 'trading',
    title: 'Best Trading Discord Servers',
    seoTitle: 'Best Trading Discord Servers for Forex, Stocks, Crypto, Options and Futures',
    description:
      'Trading rooms with live calls, chart analysis and education for forex, stocks, crypto, options and futures traders of every level.',
    keywords: ['trading discord', 'forex discord', 'day trading discord', 'options discord', 'futures discord'],
    color: '#059669',
    gradient: 'linear-gradient(135deg, #047857 0%, #0d9488 100%)',
    approxMembers: '720K+',
    icon: '📈',
  },
  {
    name: 'Sports Betting',
    slug: 'sports-betting',
    title: 'Best Sports Betting Discord Servers',
    seoTitle: 'Best Sports Betting Discord Servers: NFL, NBA, MLB, NHL, Soccer, Tennis and MMA Picks',
    description:
      'Sports betting communities sharing picks, odds analysis and bankroll discipline across the NFL, NBA, MLB, NHL, soccer, tennis and MMA.',
    keywords: ['sports betting discord', 'betting picks discord', 'nfl picks discord', 'nba picks discord'],
    color: '#dc2626',
    gradient: 'linear-gradient(135deg, #b91c1c 0%, #ea580c 100%)',
    approxMembers: '290K+',
    icon: '🏈',
  },
  {
    name: 'Investing',
    slug: 'investing',
    title: 'Best Investing Discord Servers',
    seoTitle: 'Best Investing Discord Servers for Stocks, Forex, Options and Day Trading',
    description:
      'Long-term investors and active traders discussing stocks, forex, options and day trading: research, portfolios and market news.',
    keywords: ['investing discord', 'stock market discord', 'dividend discord', 'value investing discord'],
    color: '#2563eb',
    gradient: 'linear-gradient(135deg, #1d4ed8 0%, #4f46e5 100%)',
    approxMembers: '180K+',
    icon: '💼',
  },
];

type SubSeed = readonly [key: string, name: string, slug: string];

const SUBCATEGORY_SEEDS: Record<string, readonly SubSeed[]> = {
  'sports-betting': (['nfl', 'nba', 'mlb', 'nhl', 'soccer', 'tennis', 'mma'] as const).map(
    (s) => [s, s.length <= 3 ? s.toUpperCase() : s[0]!.toUpperCase() + s.slice(1), `${s}-betting-discord`] as const,
  ),
  investing: [
    ['stocks', 'Stocks', 'stocks-discord'],
    ['forex', 'Forex', 'forex-discord'],
    ['options', 'Options', 'options-discord'],
    ['day-trading', 'Day Trading', 'day-trading-discord'],
  ],
  trading: [
    ['forex-trading', 'Forex Trading', 'forex-trading-discord'],
    ['stock-trading', 'Stock Trading', 'stock-trading-discord'],
    ['crypto-trading', 'Crypto Trading', 'crypto-trading-discord'],
    ['options-trading', 'Options Trading', 'options-trading-discord'],
    ['futures-trading', 'Futures Trading', 'futures-trading-discord'],
  ],
  crypto: [
    ['bitcoin', 'Bitcoin', 'bitcoin-discord'],
    ['ethereum', 'Ethereum', 'ethereum-discord'],
    ['defi', 'DeFi', 'defi-discord'],
    ['nft', 'NFT', 'nft-discord'],
    ['altcoins', 'Altcoins', 'altcoins-discord'],
  ],
};

/** How a subcategory is named in titles and links: a sport's betting niche says so ("NFL Betting"). */
export function subcategoryLabel(sub: { name: string; parentSlug: string }): string {
  return sub.parentSlug === 'sports-betting' ? `${sub.name} Betting` : sub.name;
}

function buildSubcategory(parent: CategoryDef, [key, name, slug]: SubSeed): SubcategoryDef {
  const isBetting = parent.slug === 'sports-betting';
  const label = subcategoryLabel({ name, parentSlug: parent.slug });
  return {
    key,
    name,
    slug,
    title: `Best ${label} Discord Servers`,
    seoTitle: `Best ${label} Discord Servers (${parent.name})`,
    description: isBetting
      ? `${name} betting communities with daily picks, line movement, injury news and honest records.`
      : `${label} communities in ${parent.name.toLowerCase()}: discussion, analysis, alerts and education from active members.`,
    keywords: [`${label.toLowerCase()} discord`, `best ${label.toLowerCase()} discord`, `${parent.slug} discord`],
    parentCategory: parent.name,
    parentSlug: parent.slug,
    color: parent.color,
    gradient: parent.gradient,
  };
}

/** The 21 subcategory pages, grouped by nothing: filter on parentSlug. */
export const SUBCATEGORIES: readonly SubcategoryDef[] = CATEGORIES.flatMap((parent) =>
  (SUBCATEGORY_SEEDS[parent.slug] ?? []).map((seed) => buildSubcategory(parent, seed)),
);

/** Path of a category page. */
export const categoryPath = (slug: string): string => `/best-${slug}-discord`;

/** Path of a subcategory page. */
export const subcategoryPath = (sub: Pick<SubcategoryDef, 'parentSlug' | 'slug'>): string =>
  `${categoryPath(sub.parentSlug)}/${sub.slug}`;

/** Finds a category by URL slug. */
export const getCategoryBySlug = (slug: string): CategoryDef | undefined => CATEGORIES.find((c) => c.slug === slug);

/** Finds a category by its stored display name (case-insensitive). */
export const getCategoryByName = (name: string): CategoryDef | undefined =>
  CATEGORIES.find((c) => c.name.toLowerCase() === name.toLowerCase());

/** Subcategories of one category, in display order. */
export const subcategoriesOf = (categorySlug: string): SubcategoryDef[] =>
  SUBCATEGORIES.filter((s) => s.parentSlug === categorySlug);

/** Finds a subcategory page by parent slug and page slug. */
export const getSubcategory = (parentSlug: string, slug: string): SubcategoryDef | undefined =>
  SUBCATEGORIES.find((s) => s.parentSlug === parentSlug && s.slug === slug);

/** Display names of a category's subcategories (what a listing stores), by category name; none for Gaming. */
export const subcategoryNames = (category: string): string[] =>
  SUBCATEGORIES.filter((s) => s.parentCategory === category).map((s) => s.name);

/** True when `name` is one of the five listed categories (anything else is filtered out of listings). */
export const isListedCategory = (name: string): name is CategoryName =>
  (CATEGORY_NAMES as readonly string[]).includes(name);
