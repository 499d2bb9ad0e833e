import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One invite the stand-in knows; change it (or the table) while a test runs. */
export interface StandInInvite {
  /** 0 a guild invite (default), 1 a group DM invite (no guild). */
  type?: 0 | 1;
  guild: {
    id: string;
    name: string;
    icon?: string | null;
    features?: string[];
    vanityUrlCode?: string | null;
    description?: string | null;
    /** Discord's GUILD_NSFW_LEVEL: 0 default (the stand-in's), 1 explicit, 2 safe, 3 age-restricted. */
    nsfwLevel?: number;
  };
  memberCount: number;
  onlineCount: number;
  /** ISO-8601 as Discord writes it (`…+00:00`); null or absent for a permanent invite. */
  expiresAt?: string | null;
}

/** How the stand-in answers every invite request, whatever the code. */
export type StandInMode =
  | { kind: 'normal' }
  /** Discord's own 429: Retry-After, X-RateLimit-* and `{ message, retry_after, global }`. */
  | { kind: 'rate_limited'; retryAfter: number; scope?: 'user' | 'global' | 'shared'; global?: boolean }
  /** Cloudflare's HTML page for error 1015. */
  | { kind: 'cloudflare_block'; status?: 429 | 403 }
  /** Discord's temporary IP ban: JSON with code 0 and no rate-limit headers. */
  | { kind: 'ip_ban'; status?: 429 | 403 }
  | { kind: 'server_error'; status?: number };

/** A request as the stand-in received it. */
export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/api/v10/invites/abc?with_counts=true`. */
  path: string;
  headers: IncomingHttpHeaders;
}

/** A running stand-in for Discord's API on loopback. */
export interface DiscordStandIn {
  /** What a test passes as DISCORD_API_BASE: `http://127.0.0.1:PORT/api/v10`. */
  url: string;
  /**
   * The invites by code; a code not in it is Unknown Invite (10006), unless the stand-in is
   * `permissive` (then it is PERMISSIVE_INVITE's guild, a new one at each lookup).
   */
  invites: Map<string, StandInInvite>;
  /** Every code is a working invite (started with `permissive`); set false to make unknown codes unknown. */
  permissive: boolean;
  mode: StandInMode;
  /** Wait this long before answering (a slow Discord). */
  delayMs: number;
  requests: RecordedRequest[];
  /** Discord's OAuth2 and the user endpoints (owner sign-in, #17), on the same port: see StandInOAuth. */
  oauth: StandInOAuth;
  /** The origin, for DISCORD_OAUTH_BASE: `http://127.0.0.1:PORT`. */
  origin: string;
  close(): Promise<void>;
}

/** The Discord user the stand-in signs in. */
export interface StandInUser {
  id: string;
  username: string;
  global_name?: string | null;
  avatar?: string | null;
}

/** One entry of the user's guild list (`GET /users/@me/guilds`), as Discord sends it. */
export interface StandInGuild {
  id: string;
  name: string;
  owner: boolean;
  /** The user's permissions in the guild, a decimal string of bits (0x20 is Manage Server). */
  permissions: string;
  /**
   * When the user joined the guild (#31), ISO-8601 as Discord writes it: what
   * `GET /users/@me/guilds/{guild.id}/member` answers as `joined_at` (default: 2020-01-01).
   */
  joined_at?: string;
}

/**
 * Discord's OAuth2 as the stand-in plays it: `GET /oauth2/authorize` answers at once as if `user`
 * clicked Authorize (302 to the redirect URI with a code and the state; `deny` makes it Cancel),
 * `POST /api/v10/oauth2/token` trades a code once for a token when the client id and secret, the
 * redirect URI and the PKCE verifier (S256 of it = the challenge) match, `GET /api/v10/users/@me`
 * and `/users/@me/guilds` answer for a live token, `POST /api/v10/oauth2/token/revoke` ends one.
 * The user and guilds are read when the code is issued: change them between sign-ins.
 */
export interface StandInOAuth {
  clientId: string;
  clientSecret: string;
  user: StandInUser;
  guilds: StandInGuild[];
  deny: boolean;
  /** Every authorize request's query, in order. */
  authorizations: URLSearchParams[];
  /** Every token request's form, in order. */
  tokenRequests: URLSearchParams[];
  /** Tokens that are still good, and those revoked. */
  liveTokens: Set<string>;
  revokedTokens: string[];
  /**
   * How `GET /users/@me/guilds/{guild.id}/member` answers (#31): `normal` (the default) reads the
   * guild list; the other modes answer as the invite endpoint's do (Discord's 429, a block page).
   */
  memberMode: StandInMode;
  /** How `GET /users/@me` and `GET /users/@me/guilds` (every sign-in's reads) answer, as `memberMode`. */
  readMode: StandInMode;
}

/** The stand-in application's credentials (what a test passes as DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET). */
export const STAND_IN_CLIENT = { id: '1234567890123456789', secret: 'stand-in-client-secret' } as const;

const CLOUDFLARE_PAGE = `<!DOCTYPE html>
<html lang="en-US"><head><title>Access denied | discord.com used Cloudflare to restrict access</title></head>
<body><div id="cf-wrapper"><h1><span>Error</span> <span>1015</span></h1>
<h2>You are being rate limited</h2>
<p>The owner of this website (discord.com) has banned you temporarily from accessing this website.</p>
</div></body></html>`;

const IP_BAN_MESSAGE =
  'You are being blocked from accessing our API temporarily due to exceeding our rate limits frequently. Please read our docs at https://discord.com/developers/docs/topics/rate-limits to prevent this moving forward.';

/** The invite object Discord sends: the documented fields, and undocumented ones a client must ignore. */
function inviteObject(code: string, invite: StandInInvite, withCounts: boolean) {
  const { guild } = invite;
  const channel = { id: '1100000000000000001', type: invite.type === 1 ? 3 : 0, name: 'welcome' };
  if (invite.type === 1) return { type: 1, code, expires_at: invite.expiresAt ?? null, channel };
  return {
    type: 0,
    code,
    expires_at: invite.expiresAt ?? null,
    guild: {
      id: guild.id,
      name: guild.name,
      splash: null,
      banner: null,
      description: guild.description ?? null,
      icon: guild.icon ?? null,
      features: guild.features ?? [],
      verification_level: 1,
      vanity_url_code: guild.vanityUrlCode ?? null,
      nsfw_level: guild.nsfwLevel ?? 0,
      nsfw: (guild.nsfwLevel ?? 0) === 1 || (guild.nsfwLevel ?? 0) === 3,
      premium_subscription_count: 2,
    },
    guild_id: guild.id,
    channel,
    ...(withCounts
      ? { approximate_member_count: invite.memberCount, approximate_presence_count: invite.onlineCount }
      : {}),
    // Undocumented (discord-api-docs#8418): numbers that differ, so a client reading them shows.
    profile: { id: guild.id, name: guild.name, member_count: invite.memberCount + 7, online_count: 1 },
  };
}

/**
 * What a permissive stand-in answers for a code it was not told about: a guild with these counts
 * (what the harness's validSubmission used to type), a new guild id at every lookup, so the apps
 * and sites of tests that submit one invite many times see different guilds, never a duplicate.
 */
export const PERMISSIVE_INVITE = { memberCount: 1250, onlineCount: 140 } as const;

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

/**
 * Answers as `mode` says when it is not `normal` (Discord's 429 with its headers, Cloudflare's
 * block page, the IP ban, a server error), naming `bucket` in the rate-limit headers; false when
 * the request is to be answered normally.
 */
function answerInMode(res: ServerResponse, mode: StandInMode, bucket: string): boolean {
  if (mode.kind === 'rate_limited') {
    const scope = mode.scope ?? (mode.global ? 'global' : 'user');
    send(
      res,
      429,
      { message: 'You are being rate limited.', retry_after: mode.retryAfter, global: mode.global ?? false },
      {
        'retry-after': String(Math.ceil(mode.retryAfter)),
        'x-ratelimit-limit': '5',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(Date.now() / 1000 + mode.retryAfter),
        'x-ratelimit-reset-after': String(mode.retryAfter),
        'x-ratelimit-bucket': bucket,
        'x-ratelimit-scope': scope,
        ...(mode.global ? { 'x-ratelimit-global': 'true' } : {}),
      },
    );
    return true;
  }
  if (mode.kind === 'cloudflare_block') {
    send(res, mode.status ?? 429, CLOUDFLARE_PAGE, { 'content-type': 'text/html; charset=UTF-8' });
    return true;
  }
  if (mode.kind === 'ip_ban') {
    send(res, mode.status ?? 429, { code: 0, message: IP_BAN_MESSAGE });
    return true;
  }
  if (mode.kind === 'server_error') {
    send(res, mode.status ?? 500, { message: '500: Internal Server Error', code: 0 });
    return true;
  }
  return false;
}

/** The paths of Discord's OAuth2 and user endpoints. */
const OAUTH_PATHS =
  /^\/(oauth2\/authorize|api\/v10\/oauth2\/token(\/revoke)?|api\/v10\/users\/@me(\/guilds(\/\d+\/member)?)?)$/;

/** A code the authorize endpoint gave out: what the token request must match, and whom it signs in. */
interface IssuedCode {
  challenge: string;
  redirectUri: string;
  user: StandInUser;
  guilds: StandInGuild[];
  scopes: string[];
}

/** The user, guilds and granted scopes behind each live token. */
const tokenOwners = new Map<string, { user: StandInUser; guilds: StandInGuild[]; scopes: string[] }>();

const randomCode = () => randomBytes(24).toString('base64url');

/** The request's body as a form (token and revoke requests are urlencoded). */
async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** The client id and secret of a token request: HTTP Basic or the form's client_id and client_secret. */
function clientOf(req: IncomingMessage, form: URLSearchParams): { id: string | null; secret: string | null } {
  const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '');
  if (basic) {
    const [id, secret] = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':');
    return { id: decodeURIComponent(id ?? ''), secret: decodeURIComponent(secret ?? '') };
  }
  return { id: form.get('client_id'), secret: form.get('client_secret') };
}

/** Discord's OAuth2 and user endpoints, played as StandInOAuth describes. */
async function oauthAnswer(
  oauth: StandInOAuth,
  codes: Map<string, IssuedCode>,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
) {
  const method = req.method ?? 'GET';
  if (url.pathname === '/oauth2/authorize' && method === 'GET') {
    const q = url.searchParams;
    oauth.authorizations.push(q);
    const redirectUri = q.get('redirect_uri');
    const scopes = (q.get('scope') ?? '').split(' ');
    if (q.get('client_id') !== oauth.clientId || !redirectUri)
      return send(res, 400, { message: 'Invalid OAuth2 application or redirect_uri', code: 50035 });
    const back = new URL(redirectUri);
    const state = q.get('state');
    if (state) back.searchParams.set('state', state);
    if (q.get('response_type') !== 'code' || !scopes.includes('identify') || !scopes.includes('guilds')) {
      back.searchParams.set('error', 'invalid_request');
    } else if (q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) {
      back.searchParams.set('error', 'invalid_request');
    } else if (oauth.deny) {
      back.searchParams.set('error', 'access_denied');
    } else {
      const code = randomCode();
      codes.set(code, {
        challenge: q.get('code_challenge')!,
        redirectUri,
        user: { ...oauth.user },
        guilds: oauth.guilds.map((g) => ({ ...g })),
        scopes,
      });
      back.searchParams.set('code', code);
    }
    res.writeHead(302, { location: back.toString() });
    return res.end();
  }
  if (url.pathname === '/api/v10/oauth2/token' && method === 'POST') {
    const form = await formBody(req);
    oauth.tokenRequests.push(form);
    const client = clientOf(req, form);
    if (client.id !== oauth.clientId || client.secret !== oauth.clientSecret)
      return send(res, 401, { error: 'invalid_client' });
    const code = form.get('code') ?? '';
    const issued = codes.get(code);
    codes.delete(code);
    const verifier = form.get('code_verifier') ?? '';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    if (
      form.get('grant_type') !== 'authorization_code' ||
      !issued ||
      issued.redirectUri !== form.get('redirect_uri') ||
      issued.challenge !== challenge
    )
      return send(res, 400, { error: 'invalid_grant' });
    const token = randomCode();
    oauth.liveTokens.add(token);
    tokenOwners.set(token, { user: issued.user, guilds: issued.guilds, scopes: issued.scopes });
    return send(res, 200, {
      access_token: token,
      token_type: 'Bearer',
      expires_in: 604800,
      refresh_token: randomCode(),
      scope: issued.scopes.filter(Boolean).join(' '),
    });
  }
  if (url.pathname === '/api/v10/oauth2/token/revoke' && method === 'POST') {
    const form = await formBody(req);
    const token = form.get('token') ?? '';
    if (oauth.liveTokens.delete(token)) oauth.revokedTokens.push(token);
    return send(res, 200, {});
  }
  if (url.pathname.startsWith('/api/v10/users/@me') && method === 'GET') {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const owner = oauth.liveTokens.has(token) ? tokenOwners.get(token) : undefined;
    if (!owner) return send(res, 401, { message: '401: Unauthorized', code: 0 });
    const memberOf = /\/guilds\/(\d+)\/member$/.exec(url.pathname)?.[1];
    if (memberOf) {
      // Needs the guilds.members.read scope; a guild the user is not in is Unknown Guild (10004).
      if (!owner.scopes.includes('guilds.members.read'))
        return send(res, 401, { message: '401: Unauthorized', code: 0 });
      if (answerInMode(res, oauth.memberMode, 'stand-in-members')) return;
      const guild = owner.guilds.find((g) => g.id === memberOf);
      if (!guild) return send(res, 404, { message: 'Unknown Guild', code: 10004 });
      return send(res, 200, {
        user: { id: owner.user.id, username: owner.user.username, global_name: owner.user.global_name ?? null },
        nick: null,
        avatar: null,
        roles: [],
        joined_at: guild.joined_at ?? '2020-01-01T00:00:00.000000+00:00',
        premium_since: null,
        deaf: false,
        mute: false,
        flags: 0,
        pending: false,
      });
    }
    if (answerInMode(res, oauth.readMode, 'stand-in-reads')) return;
    if (url.pathname.endsWith('/guilds'))
      return send(
        res,
        200,
        owner.guilds.map(({ joined_at: _joined, ...g }) => ({ ...g, icon: null, banner: null, features: [] })),
      );
    const { user } = owner;
    return send(res, 200, {
      id: user.id,
      username: user.username,
      global_name: user.global_name ?? null,
      avatar: user.avatar ?? null,
      discriminator: '0',
      public_flags: 0,
      flags: 0,
      mfa_enabled: false,
    });
  }
  return send(res, 405, { message: '405: Method Not Allowed', code: 0 });
}

/**
 * Starts a stand-in for `GET /api/v10/invites/{code}` on 127.0.0.1 (a free port). With
 * `botToken`, a request carrying another Authorization answers 401 as Discord does; one
 * without Authorization is answered (the invite route needs no token). `permissive`: every code
 * is a working invite (PERMISSIVE_INVITE), for the apps of tests about something else.
 */
export async function startDiscordStandIn(
  options: { botToken?: string; permissive?: boolean; port?: number } = {},
): Promise<DiscordStandIn> {
  let lookups = 0;
  const codes = new Map<string, IssuedCode>();
  const timers = new Set<NodeJS.Timeout>();
  const standIn: DiscordStandIn = {
    url: '',
    invites: new Map(),
    permissive: options.permissive ?? false,
    mode: { kind: 'normal' },
    delayMs: 0,
    requests: [],
    origin: '',
    oauth: {
      clientId: STAND_IN_CLIENT.id,
      clientSecret: STAND_IN_CLIENT.secret,
      user: { id: '80351110224678912', username: 'stand-in-owner', global_name: 'Stand-in Owner', avatar: null },
      guilds: [],
      deny: false,
      authorizations: [],
      tokenRequests: [],
      liveTokens: new Set(),
      revokedTokens: [],
      memberMode: { kind: 'normal' },
      readMode: { kind: 'normal' },
    },
    close: () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      return new Promise<void>((ok) => server.close(() => ok()));
    },
  };

  function answer(res: ServerResponse, method: string, url: URL, authorization: string | undefined) {
    const { mode } = standIn;
    const route = /^\/api\/v10\/invites\/([^/]+)$/.exec(url.pathname);
    if (!route) return send(res, 404, { message: '404: Not Found', code: 0 });
    if (method !== 'GET') return send(res, 405, { message: '405: Method Not Allowed', code: 0 });
    if (options.botToken && authorization !== undefined && authorization !== `Bot ${options.botToken}`)
      return send(res, 401, { message: '401: Unauthorized', code: 0 });
    if (answerInMode(res, mode, 'stand-in-invites')) return;

    const code = decodeURIComponent(route[1]!);
    const invite =
      standIn.invites.get(code) ??
      (standIn.permissive
        ? {
            guild: { id: String(1_300_000_000_000_000_000n + BigInt(++lookups)), name: `Guild ${code}` },
            ...PERMISSIVE_INVITE,
          }
        : undefined);
    // Discord sends rate-limit headers to authorised requests only (discord-api-docs#1487).
    const limits: Record<string, string> = authorization
      ? {
          'x-ratelimit-limit': '50',
          'x-ratelimit-remaining': '49',
          'x-ratelimit-reset-after': '1',
          'x-ratelimit-bucket': 'stand-in-invites',
        }
      : {};
    if (!invite) return send(res, 404, { message: 'Unknown Invite', code: 10006 }, limits);
    const withCounts = ['true', '1'].includes(url.searchParams.get('with_counts') ?? '');
    return send(res, 200, inviteObject(code, invite, withCounts), limits);
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    standIn.requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, headers: req.headers });
    if (OAUTH_PATHS.test(url.pathname)) {
      void oauthAnswer(standIn.oauth, codes, req, res, url);
      return;
    }
    const reply = () => answer(res, req.method ?? 'GET', url, req.headers.authorization);
    if (standIn.delayMs <= 0) return reply();
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!res.destroyed) reply();
    }, standIn.delayMs);
    timers.add(timer);
  });
  await new Promise<void>((ok) => server.listen(options.port ?? 0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;

  standIn.url = `http://127.0.0.1:${port}/api/v10`;
  standIn.origin = `http://127.0.0.1:${port}`;
  return standIn;
}

let shared: Promise<DiscordStandIn> | undefined;

/**
 * One permissive stand-in per test process, started on first use and left running: the Discord
 * that test apps about something else are pointed at (DISCORD_API_BASE), so none reaches discord.com.
 */
export function sharedPermissiveStandIn(): Promise<DiscordStandIn> {
  shared ??= startDiscordStandIn({ permissive: true });
  return shared;
}

/**
 * What `npm run discord:stand-in` reads (scripts/discord-stand-in.json): `invites` (code → invite),
 * and for owner sign-in the `user` it signs in and that user's `guilds` (each `{ id, name, owner,
 * permissions }`, Discord's shape), so a guild the user owns claims its listing at sign-in. A file
 * that is only a code → invite map (the earlier shape) sets the invites alone.
 */
export interface StandInFile {
  invites?: Record<string, StandInInvite>;
  user?: StandInUser;
  guilds?: StandInGuild[];
}

/** Applies a parsed stand-in file to a running stand-in; answers what it set, for the log line. */
export function applyStandInFile(standIn: DiscordStandIn, file: unknown): string {
  if (!file || typeof file !== 'object' || Array.isArray(file)) throw new Error('expected a JSON object');
  const shaped = file as StandInFile & Record<string, unknown>;
  const sections = 'invites' in shaped || 'guilds' in shaped || 'user' in shaped;
  const invites = (sections ? shaped.invites : shaped) ?? {};
  standIn.invites = new Map(Object.entries(invites as Record<string, StandInInvite>));
  if (sections && shaped.user) standIn.oauth.user = { ...shaped.user };
  if (sections && shaped.guilds) {
    if (!Array.isArray(shaped.guilds)) throw new Error('"guilds" must be a list');
    standIn.oauth.guilds = shaped.guilds.map((g) => ({ ...g }));
  }
  const guilds = standIn.oauth.guilds.map((g) => `${g.name}${g.owner ? ' (owner)' : ''}`);
  return `invites: ${[...standIn.invites.keys()].join(', ') || 'none'}; signs in ${standIn.oauth.user.username} with guilds: ${guilds.join(', ') || 'none'}`;
}
