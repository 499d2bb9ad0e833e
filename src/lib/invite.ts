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

/**
 * A stored join link as an absolute http(s) URL, or null. Only these get a Join button and a
 * /go/ redirect; anything else (empty, relative, javascript:) means the listing has no join link.
 */
export function joinTarget(link: string | null | undefined): string | null {
  if (!link?.trim()) return null;
  try {
    const url = new URL(link.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}
