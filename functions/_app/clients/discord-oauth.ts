// Owner sign-in with Discord (#17): OAuth2's authorization code flow with PKCE (S256) and a state
// check, through oauth4webapi (panva), pointed at DISCORD_OAUTH_BASE so tests use a loopback
// stand-in. Discord's access token is used once, to read the user and their guild list, then
// revoked and dropped: nothing of it is stored.
import * as oauth from 'oauth4webapi';
import { classifyInviteAnswer, type InviteAnswer } from '../../../src/lib/invite-checks/classify';
import type { GuildEntry } from '../../../src/lib/owners/proof';
import type { AppDeps } from '../context';

/** What the owner is asked to share: who they are and the guilds they are in (with their permissions). */
export const OWNER_SCOPES = 'identify guilds';
/**
 * What someone starting a review is asked to share (#31): the owner scopes and their member
 * object in a guild (`GET /users/@me/guilds/{guild.id}/member`: when they joined). Asked only then.
 */
export const REVIEW_SCOPES = 'identify guilds guilds.members.read';

/** The user's member object in one guild, as far as a review reads it; null when not a member. */
export interface DiscordMember {
  joined_at: string | null;
  nick: string | null;
}

/** Discord's user, as far as an owner account keeps it. */
export interface DiscordUser {
  id: string;
  username: string;
  global_name: string | null;
  avatar: string | null;
}

/** One guild of the user's list (`GET /users/@me/guilds`): what the ownership proof reads. */
export interface DiscordGuild extends GuildEntry {
  name: string;
}

/** A sign-in under way: where to send the browser, and what the callback must match (kept in a signed cookie). */
export interface SignInStart {
  url: string;
  state: string;
  codeVerifier: string;
}

/**
 * Why a sign-in did not finish: the user said no, the state did not match, Discord could not be
 * asked, or Discord said to stop (`busy`: a 429 or a block page, with its classified `answer`,
 * which the caller trips the shared breaker with).
 */
export class SignInFailure extends Error {
  constructor(
    readonly reason: 'denied' | 'state' | 'discord' | 'busy',
    readonly answer?: Extract<InviteAnswer, { kind: 'rate_limited' | 'blocked' }>,
  ) {
    super(`Discord sign-in failed: ${reason}`);
  }
}

/** Discord's OAuth2 as the owner sign-in uses it. */
export interface DiscordOAuth {
  /**
   * A fresh state and PKCE verifier, and Discord's authorize URL carrying the state and the S256
   * challenge; `scope` is OWNER_SCOPES unless a review asks for REVIEW_SCOPES.
   */
  start(redirectUri: string, scope?: string): Promise<SignInStart>;
  /**
   * Checks the callback's state against the expected one, trades the code (with the verifier) for
   * a token, reads the user and their guilds, and revokes the token. Throws SignInFailure.
   */
  finish(
    callback: URL,
    expected: { state: string; codeVerifier: string; redirectUri: string },
    options?: { memberOf?: string | undefined },
  ): Promise<{ user: DiscordUser; guilds: DiscordGuild[]; member?: DiscordMember | null }>;
}

/** Per call to Discord (token, user, guilds). */
const TIMEOUT_MS = 8000;

/** The Discord OAuth client, or null when DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET are unset. */
export function discordOAuthFor(deps: Pick<AppDeps, 'env' | 'fetch'>): DiscordOAuth | null {
  const { DISCORD_CLIENT_ID: clientId, DISCORD_CLIENT_SECRET: secret, DISCORD_OAUTH_BASE } = deps.env;
  if (!clientId || !secret) return null;
  const base = DISCORD_OAUTH_BASE.replace(/\/+$/, '');
  const as: oauth.AuthorizationServer = {
    issuer: base,
    authorization_endpoint: `${base}/oauth2/authorize`,
    token_endpoint: `${base}/api/v10/oauth2/token`,
    revocation_endpoint: `${base}/api/v10/oauth2/token/revoke`,
  };
  const client: oauth.Client = { client_id: clientId };
  const auth = oauth.ClientSecretPost(secret);
  const fetchImpl = deps.fetch ?? fetch;
  // Plain http only for a loopback stand-in (tests, `npm run discord:stand-in`); Discord is https.
  const options = () => ({
    [oauth.allowInsecureRequests]: base.startsWith('http:'),
    [oauth.customFetch]: fetchImpl,
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });

  // Discord's 429 and the block pages look the same on every route: classified as an invite
  // lookup's are, so the caller trips the same breaker for the same time (invite-check.ts).
  const throwIfBusy = async (res: Response): Promise<void> => {
    if (res.status !== 429 && res.status !== 403) return;
    const answer = classifyInviteAnswer({ status: res.status, headers: res.headers, body: await res.text() });
    if (answer.kind === 'rate_limited' || answer.kind === 'blocked') throw new SignInFailure('busy', answer);
  };

  const read = async <T>(path: string, token: string): Promise<T> => {
    const res = await fetchImpl(`${base}/api/v10${path}`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await throwIfBusy(res);
    if (!res.ok) throw new SignInFailure('discord');
    return (await res.json()) as T;
  };

  // The member object of one guild (#31): 404 (Unknown Guild, 10004) is "not a member", not a failure.
  const readMember = async (guildId: string, token: string): Promise<DiscordMember | null> => {
    if (!/^\d{1,20}$/.test(guildId)) return null;
    const res = await fetchImpl(`${base}/api/v10/users/@me/guilds/${guildId}/member`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (res.status === 404) return null;
    await throwIfBusy(res);
    if (!res.ok) throw new SignInFailure('discord');
    const body = (await res.json()) as { joined_at?: string | null; nick?: string | null };
    return { joined_at: body.joined_at ?? null, nick: body.nick ?? null };
  };

  return {
    async start(redirectUri, scope = OWNER_SCOPES) {
      const state = oauth.generateRandomState();
      const codeVerifier = oauth.generateRandomCodeVerifier();
      const url = new URL(as.authorization_endpoint!);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: redirectUri,
        scope,
        state,
        code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      }).toString();
      return { url: url.toString(), state, codeVerifier };
    },

    async finish(callback, expected, finishOptions = {}) {
      if (callback.searchParams.has('error')) throw new SignInFailure('denied');
      let params: URLSearchParams;
      try {
        params = oauth.validateAuthResponse(as, client, callback.searchParams, expected.state);
      } catch {
        throw new SignInFailure('state');
      }
      let token: string;
      try {
        const response = await oauth.authorizationCodeGrantRequest(
          as,
          client,
          auth,
          params,
          expected.redirectUri,
          expected.codeVerifier,
          options(),
        );
        token = (await oauth.processAuthorizationCodeResponse(as, client, response)).access_token;
      } catch {
        throw new SignInFailure('discord');
      }
      try {
        const { memberOf } = finishOptions;
        const [me, guilds, member] = await Promise.all([
          read<DiscordUser>('/users/@me', token),
          read<DiscordGuild[]>('/users/@me/guilds', token),
          memberOf ? readMember(memberOf, token) : undefined,
        ]);
        return {
          user: { id: me.id, username: me.username, global_name: me.global_name ?? null, avatar: me.avatar ?? null },
          guilds: guilds.map((g) => ({ id: g.id, name: g.name, owner: g.owner, permissions: g.permissions })),
          ...(memberOf ? { member: member ?? null } : {}),
        };
      } catch (error) {
        throw error instanceof SignInFailure ? error : new SignInFailure('discord');
      } finally {
        // Used once: revoked at once, so no copy of it stays good anywhere (a failure here changes nothing).
        await oauth.revocationRequest(as, client, auth, token, options()).catch(() => undefined);
      }
    },
  };
}
