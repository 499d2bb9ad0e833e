import { parseDiscordInvite } from '../invite';

/** A bare invite code: the characters and length the link forms accept (lib/invite), nothing else. */
const BARE_CODE = /^[A-Za-z0-9-]{2,64}$/;

/**
 * The invite code in what an owner typed: a bare code, or a discord.gg / discord.com/invite /
 * discordapp.com/invite link (scheme, query, fragment and trailing slash optional); null for
 * anything else. Links go through parseDiscordInvite, so the submit form and the checker agree.
 */
export function inviteCode(input: string): string | null {
  const trimmed = input.trim();
  return parseDiscordInvite(trimmed)?.code ?? (BARE_CODE.test(trimmed) ? trimmed : null);
}
