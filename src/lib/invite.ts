/** What a Discord invite link is made of, once parsed. */
export interface DiscordInvite {
  code: string;
  /** Canonical https://discord.gg/CODE form. */
  url: string;
}

const INVITE_PATTERNS = [
  /^(?:www\.)?discord\.gg\/(?:invite\/)?([A-Za-z0-9-]{2,64})\/?$/,
  /^(?:www\.|ptb\.|canary\.)?discord(?:app)?\.com\/invite\/([A-Za-z0-9-]{2,64})\/?$/,
];

/**
 * Parses discord.gg/CODE, discord.gg/invite/CODE, discord.com/invite/CODE and
 * discordapp.com/invite/CODE (http(s) optional, query and fragment ignored).
 * Returns null for anything else.
 */
export function parseDiscordInvite(input: string): DiscordInvite | null {
  const trimmed = input.trim();
  const match = /^(?:https?:\/\/)?([^?#\s]+)(?:[?#].*)?$/i.exec(trimmed);
  if (!match || /^[a-z]+:/i.test(trimmed.replace(/^https?:\/\//i, ''))) return null;
  const rest = match[1]!;
  const lowerHost = rest.replace(/^[^/]+/, (host) => host.toLowerCase());
  for (const pattern of INVITE_PATTERNS) {
    const found = pattern.exec(lowerHost);
    if (found) return { code: found[1]!, url: `https://discord.gg/${found[1]}` };
  }
  return null;
}
