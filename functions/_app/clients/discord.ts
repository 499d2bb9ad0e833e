import { classifyInviteAnswer, type InviteAnswer, noAnswer } from '../../../src/lib/invite-checks/classify';
import { inviteCode } from '../../../src/lib/invite-checks/invite-code';
import type { AppDeps } from '../context';

/** This client's version, for the User-Agent Discord requires: `DiscordBot ($url, $versionNumber)`. */
const CLIENT_VERSION = '1.0';

/** How the Discord client is made: from DISCORD_API_BASE, DISCORD_BOT_TOKEN and SITE_URL. */
export interface DiscordClientOptions {
  /** The API root with its version, e.g. `https://discord.com/api/v10`; tests pass a loopback stand-in's. */
  baseUrl: string;
  /** Sent as `Authorization: Bot …` when set; the invite route answers without one too. */
  botToken?: string | undefined;
  /** The site's public origin, named in the User-Agent. */
  siteUrl: string;
  fetch?: typeof fetch;
  /** Per lookup, answer included; default 5 s. */
  timeoutMs?: number;
}

/** Discord's API, as far as the directory uses it. */
export interface DiscordClient {
  /**
   * `GET /invites/{code}?with_counts=true`, classified (classifyInviteAnswer). Never rejects:
   * a network error or a timeout is a `transient` answer. Throws only when `code` is not a bare
   * invite code (normalise with inviteCode first).
   */
  lookupInvite(code: string, expectedGuildId?: string | null): Promise<InviteAnswer>;
}

/** The Discord client; one per app, handed to the routes and jobs that need it. */
export function discordClient(options: DiscordClientOptions): DiscordClient {
  const { baseUrl, botToken, siteUrl, fetch: fetchImpl = fetch, timeoutMs = 5000 } = options;
  const base = baseUrl.replace(/\/+$/, '');
  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': `DiscordBot (${siteUrl}, ${CLIENT_VERSION})`,
  };
  if (botToken) headers.authorization = `Bot ${botToken}`;

  return {
    async lookupInvite(code, expectedGuildId) {
      if (inviteCode(code) !== code) throw new TypeError(`not an invite code: ${JSON.stringify(code)}`);
      try {
        const res = await fetchImpl(`${base}/invites/${encodeURIComponent(code)}?with_counts=true`, {
          headers,
          // The API never redirects; a redirect is not an answer, and the token must not follow one.
          redirect: 'manual',
          // Covers the body too: a slow body is a timeout like a slow status line.
          signal: AbortSignal.timeout(timeoutMs),
        });
        const body = await res.text();
        return classifyInviteAnswer({ status: res.status, headers: res.headers, body, expectedGuildId });
      } catch (error) {
        return noAnswer((error as Error | undefined)?.name === 'TimeoutError' ? 'timeout' : 'network');
      }
    },
  };
}

/** The app's Discord client: `deps.discord` when injected (tests), else one built from the env. */
export function discordFor(deps: Pick<AppDeps, 'env' | 'discord' | 'fetch'>): DiscordClient {
  if (deps.discord) return deps.discord;
  const { DISCORD_API_BASE, DISCORD_BOT_TOKEN, SITE_URL } = deps.env;
  return discordClient({
    baseUrl: DISCORD_API_BASE,
    botToken: DISCORD_BOT_TOKEN,
    siteUrl: SITE_URL,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  });
}
