import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Client, InStatement } from '@libsql/client';
import { CATEGORIES, subcategoriesOf } from '../src/lib/categories';
import { serverSlug } from '../src/lib/slug';

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

export interface FakeServer {
  name: string;
  slug: string;
  description: string;
  category: string;
  subcategory: string | null;
  members: number;
  active_users: number;
  rating: number;
  tags: string[];
  features: string[];
  pros: string[];
  cons: string[];
  is_premium: boolean;
  is_sponsored: boolean;
  affiliate_link: string;
  sort_order: number;
}

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
    description: `${name} is a ${category.name.toLowerCase()} community focused on ${topic.toLowerCase()}${
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
  };
}

const COLUMNS =
  'name, slug, description, category, subcategory, members, active_users, rating, tags, features, pros, cons, is_premium, is_sponsored, affiliate_link, sort_order';

/** Inserts `count` deterministic fake servers (seed 42) in one transaction; returns the time taken in ms. */
export async function insertFakeServers(client: Client, count: number, seed = 42, offset = 0): Promise<number> {
  const started = performance.now();
  const random = rng(seed + offset);
  const rowsPerStatement = 200;
  const statements: InStatement[] = [];
  for (let start = 0; start < count; start += rowsPerStatement) {
    const args: (string | number | null)[] = [];
    const n = Math.min(rowsPerStatement, count - start);
    for (let k = 0; k < n; k++) {
      const s = fakeServer(offset + start + k, random);
      args.push(
        s.name,
        s.slug,
        s.description,
        s.category,
        s.subcategory,
        s.members,
        s.active_users,
        s.rating,
        JSON.stringify(s.tags),
        JSON.stringify(s.features),
        JSON.stringify(s.pros),
        JSON.stringify(s.cons),
        s.is_premium ? 1 : 0,
        s.is_sponsored ? 1 : 0,
        s.affiliate_link,
        s.sort_order,
      );
    }
    const row = `(${Array(16).fill('?').join(', ')})`;
    statements.push({
      sql: `INSERT INTO discord_servers (${COLUMNS}) VALUES ${Array(n).fill(row).join(', ')}`,
      args,
    });
  }
  await client.batch(statements, 'write');
  return performance.now() - started;
}

// `npm run db:fake -- --servers N [--seed S]`: adds N fake servers to DATABASE_URL.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: { servers: { type: 'string', default: '1000' }, seed: { type: 'string', default: '42' } },
  });
  const count = Number.parseInt(values.servers, 10);
  if (!Number.isInteger(count) || count < 1) throw new Error('--servers must be a positive whole number');
  const { loadEnv } = await import('../functions/_app/env');
  const { openDb } = await import('./client');
  const { migrateDb } = await import('./migrate');
  const env = loadEnv(process.env);
  const { db, client } = await openDb({ url: env.DATABASE_URL, authToken: env.DATABASE_AUTH_TOKEN });
  await migrateDb(db);
  const existing = Number((await client.execute('SELECT count(*) AS n FROM discord_servers')).rows[0]?.n ?? 0);
  const ms = await insertFakeServers(client, count, Number(values.seed), existing);
  console.log(`Inserted ${count} fake servers in ${(ms / 1000).toFixed(1)} s (${existing + count} in all).`);
  client.close();
}
