/**
 * An owner's Discord webhook URL (#32): only Discord's own forms are accepted,
 * `https://discord.com/api/webhooks/{id}/{token}` and the same on discordapp.com and their
 * canary. and ptb. hosts, so the site never posts anywhere else. Pure; the account form checks it
 * before sending and the API again before saving.
 */

/** The hosts a webhook URL may name. */
export const WEBHOOK_HOSTS = [
  'discord.com',
  'canary.discord.com',
  'ptb.discord.com',
  'discordapp.com',
  'canary.discordapp.com',
  'ptb.discordapp.com',
] as const;

const PATH = /^\/api\/webhooks\/(\d{17,20})\/([A-Za-z0-9_-]{40,100})\/?$/;

/** A webhook's id and token, read from a URL of one of Discord's forms; null for anything else. */
export function parseWebhookUrl(value: string): { id: string; token: string } | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.port !== '' || url.username !== '' || url.password !== '') return null;
  if (!(WEBHOOK_HOSTS as readonly string[]).includes(url.hostname)) return null;
  if (url.search !== '' || url.hash !== '') return null;
  const m = PATH.exec(url.pathname);
  return m ? { id: m[1]!, token: m[2]! } : null;
}

/** The message the account form and the API give a URL that is not one. */
export const WEBHOOK_URL_MESSAGE =
  'Enter a Discord webhook URL, like https://discord.com/api/webhooks/123456789012345678/abc… (Server Settings → Integrations → Webhooks → Copy Webhook URL).';

/** The URL as shown back to its owner: the token's end hidden. */
export const maskedWebhookUrl = (value: string): string =>
  value.replace(/\/([A-Za-z0-9_-]{6})[A-Za-z0-9_-]+\/?$/, '/$1…');
