/** A Discord id (snowflake): a 64-bit number written in decimal, 17 digits since 2015, at most 20. */
export const SNOWFLAKE = /^\d{17,20}$/;

/** Discord's epoch, the first second of 2015 (ms), from which snowflake timestamps count. */
const DISCORD_EPOCH = 1_420_070_400_000n;

/** The sizes Discord's CDN serves: powers of two from 16 to 4096. */
export type IconSize = 16 | 32 | 64 | 128 | 256 | 512 | 1024 | 2048 | 4096;

/** An icon hash as the API gives it; anything else (a stray slash, a query) never reaches the URL. */
const ICON_HASH = /^[\w-]{1,64}$/;

/**
 * The CDN URL of a guild's icon, or null when it has none (or id and hash are not what Discord
 * sends). Animated icons (hash `a_…`) as WebP with `animated=true`, which Discord recommends for
 * compatibility over GIF; still ones as PNG.
 */
export function guildIconUrl(guildId: string, iconHash: string | null, size: IconSize = 128): string | null {
  if (!iconHash || !SNOWFLAKE.test(guildId) || !ICON_HASH.test(iconHash)) return null;
  const base = `https://cdn.discordapp.com/icons/${guildId}/${iconHash}`;
  return iconHash.startsWith('a_') ? `${base}.webp?size=${size}&animated=true` : `${base}.png?size=${size}`;
}

/** When a guild was created, read from its id: the top 42 bits are ms since Discord's epoch. */
export function guildCreatedAt(guildId: string): Date {
  if (!SNOWFLAKE.test(guildId)) throw new RangeError(`not a Discord id: ${JSON.stringify(guildId)}`);
  return new Date(Number((BigInt(guildId) >> 22n) + DISCORD_EPOCH));
}
