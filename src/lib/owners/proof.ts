// What proves a Discord guild is the signed-in user's to manage (#17), from Discord's own guild list
// (`GET /users/@me/guilds`): pure, so the sign-in and its tests share one rule.
import type { ClaimProof } from '../enums';

/** Discord's Manage Server permission bit. */
export const MANAGE_GUILD = 0x20n;
/** Discord's Administrator bit: it grants every permission, Manage Server included. */
export const ADMINISTRATOR = 0x8n;

/** One entry of Discord's guild list, as far as the proof reads it. */
export interface GuildEntry {
  id: string;
  owner?: boolean | undefined;
  /** The user's permissions in the guild as a decimal string of bits. */
  permissions?: string | undefined;
}

/**
 * How the user can claim this guild's listing: `owner` when Discord says they own it, `manage_guild`
 * when their permissions carry Manage Server (or Administrator, which includes it); null otherwise.
 */
export function proofOf(guild: GuildEntry): ClaimProof | null {
  if (guild.owner === true) return 'owner';
  let bits: bigint;
  try {
    bits = BigInt(guild.permissions ?? '0');
  } catch {
    return null;
  }
  return (bits & (MANAGE_GUILD | ADMINISTRATOR)) !== 0n ? 'manage_guild' : null;
}

/** The guilds of a list the user may claim, by guild id: owner first when a guild is listed twice. */
export function managedGuilds(guilds: readonly GuildEntry[]): Map<string, ClaimProof> {
  const out = new Map<string, ClaimProof>();
  for (const guild of guilds) {
    const proof = proofOf(guild);
    if (proof && out.get(guild.id) !== 'owner') out.set(guild.id, proof);
  }
  return out;
}
