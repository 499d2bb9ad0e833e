import type { Client } from '@libsql/client';
import { CATEGORIES, subcategoriesOf } from '../src/lib/categories';
import { serverSlug } from '../src/lib/slug';
import { loadServersInBulk } from './queries/bulk-load';
import { type BulkServer, insertServersInBulk } from './queries/servers';

/** A small seeded PRNG (mulberry32), so the same seed gives the same servers. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS: Record<string, { names: string[]; topics: string[] }> = {
  gaming: {
    names: [
      'Valorant',
      'Minecraft',
      'Fortnite',
      'League',
      'Rocket',
      'Overwatch',
      'Elden',
      'Warzone',
      'Roblox',
      'Halo',
      'Destiny',
      'Dota',
    ],
    topics: ['LFG', 'Ranked', 'Esports', 'Casual', 'Speedrun', 'Clips', 'Mods', 'Tournaments'],
  },
  crypto: {
    names: ['Satoshi', 'Ether', 'Solana', 'Chainlink', 'DeFi', 'Moon', 'HODL', 'Block', 'Ledger', 'Token'],
    topics: ['Research', 'Alpha', 'Airdrops', 'On-chain', 'Staking', 'NFT', 'Yield', 'Security'],
  },
  trading: {
    names: ['Pip', 'Candle', 'Breakout', 'Scalp', 'Swing', 'Momentum', 'Trend', 'Pivot', 'Futures', 'Options'],
    topics: ['Signals', 'Education', 'Live Calls', 'Chart Analysis', 'Journal', 'Scalping', 'Risk', 'Backtesting'],
  },
  'sports-betting': {
    names: ['Sharp', 'Underdog', 'Parlay', 'Moneyline', 'Spread', 'Prop', 'Locks', 'Value', 'Edge', 'Bankroll'],
    topics: ['Picks', 'Odds', 'Props', 'Live Bets', 'Tracked Record', 'Bankroll', 'Injuries', 'Analytics'],
  },
  investing: {
    names: ['Dividend', 'Value', 'Growth', 'Index', 'Compound', 'Wealth', 'Capital', 'Portfolio', 'Bull', 'Fund'],
    topics: ['Stocks', 'ETFs', 'Research', 'Earnings', 'Long-term', 'Dividends', 'Macro', 'FIRE'],
  },
};
const SUFFIXES = ['Hub', 'Community', 'Club', 'Lounge', 'Society', 'Network', 'Collective', 'HQ', 'Room', 'Guild'];

/**
 * Languages of the fake servers (#19) by share out of 20, each with the region a few of them
 * name: mostly English, then the languages Discord communities most often use.
 */
const LANGUAGE_MIX: readonly [code: string, region: string, share: number][] = [
  ['en', 'US', 11],
  ['es', 'MX', 2],
  ['pt', 'BR', 2],
  ['de', 'DE', 1],
  ['fr', 'FR', 1],
  ['ru', 'RU', 1],
  ['tr', 'TR', 1],
  ['ja', 'JP', 1],
];
const LANGUAGE_SLOTS = LANGUAGE_MIX.flatMap(
  ([code, region, share]) => Array(share).fill([code, region]) as [string, string][],
);

/**
 * The i-th server's language and region, from its index (not the seeded random stream, so the
 * other fake fields stay what they were): one in three names its region.
 */
function fakeLanguage(i: number): { language: string; region: string | null } {
  const [language, region] = LANGUAGE_SLOTS[(i * 7) % LANGUAGE_SLOTS.length]!;
  return { language, region: i % 3 === 0 ? region : null };
}

/** A fake server: the columns a bulk insert writes. */
export type FakeServer = BulkServer;

/** The i-th fake server of a seeded sequence: every category and subcategory gets its share. */
export function fakeServer(i: number, random: () => number): FakeServer {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const category = CATEGORIES[i % CATEGORIES.length]!;
  const subs = subcategoriesOf(category.slug);
  const sub = subs.length ? subs[Math.floor(i / CATEGORIES.length) % subs.length]! : null;
  const words = WORDS[category.slug]!;
  const topic = pick(words.topics);
  const name = `${pick(words.names)} ${sub ? sub.name : topic} ${pick(SUFFIXES)}`;
  const members = Math.floor(50 + random() ** 3 * 250_000);
  const code = `f${i.toString(36)}`;
  return {
    name,
    slug: `${serverSlug(name).slice(0, 40).replace(/-+$/, '')}-${code}`,
    description: `${name} is ${/^[aeiou]/i.test(category.name) ? 'an' : 'a'} ${category.name.toLowerCase()} community focused on ${topic.toLowerCase()}${
      sub ? ` and ${sub.name}` : ''
    }. Daily discussion, helpful members and active moderators keep it friendly for newcomers and veterans alike.`,
    category: category.name,
    subcategory: sub ? sub.name : pick(['FPS', 'MMO', 'Battle Royale', 'Indie', 'Strategy', null] as const),
    members,
    active_users: Math.floor(members * (0.05 + random() * 0.2)),
    rating: Math.round((3 + random() * 2) * 10) / 10,
    tags: [topic, sub?.name ?? category.name, pick(words.topics)].filter((t, k, a) => a.indexOf(t) === k),
    features: ['Active moderation', `${topic} channels`, 'Weekly events'],
    pros: ['Friendly members', `Strong ${topic.toLowerCase()} focus`],
    cons: random() < 0.5 ? ['Can be busy at peak hours'] : [],
    is_premium: random() < 0.08,
    is_sponsored: random() < 0.02,
    affiliate_link: `https://discord.gg/${code}`,
    sort_order: random() < 0.1 ? Math.floor(random() * 100) : 0,
    ...fakeLanguage(i),
  };
}

/** From this many servers on, a file database is loaded with its indexes set aside and rebuilt (db/queries/bulk-load.ts). */
const BULK_LOAD_FROM = 20_000;

/** Inserts `count` deterministic fake servers (seed 42) in one transaction; returns the time taken in ms. */
export async function insertFakeServers(client: Client, count: number, seed = 42, offset = 0): Promise<number> {
  const started = performance.now();
  const random = rng(seed + offset);
  if (count >= BULK_LOAD_FROM && client.protocol === 'file') {
    await loadServersInBulk(client, count, (k) => fakeServer(offset + k, random));
  } else {
    await insertServersInBulk(
      client,
      Array.from({ length: count }, (_, k) => fakeServer(offset + k, random)),
    );
  }
  return performance.now() - started;
}
