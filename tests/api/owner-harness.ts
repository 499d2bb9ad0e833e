// Owner accounts (#17) under test: a console harness (real app, real libSQL file) whose Discord,
// invites and OAuth alike, is a loopback stand-in started as a real HTTP server; an owner signs in
// through the whole redirect dance (the app, then the stand-in's authorize, then the app's callback).
import { createAdminHarness } from '../helpers/admin';
import {
  type DiscordStandIn,
  STAND_IN_CLIENT,
  type StandInGuild,
  startDiscordStandIn,
} from '../helpers/discord-stand-in';

/** The site origin the harness app serves (SITE_URL). */
export const SITE = 'http://localhost:4321';

/** A signed-in owner: the Cookie header to send, and the session's CSRF token. */
export interface OwnerSession {
  cookie: string;
  csrf: string;
}

/** Discord's permission bits the tests use. */
export const PERMISSIONS = {
  manageGuild: String(0x20),
  /** View channels, send messages, kick members: no Manage Server. */
  member: String(0x400 | 0x800 | 0x2),
} as const;

/** `name=value` of each Set-Cookie of an answer, by name. */
export function cookiesOf(res: Response): Map<string, { pair: string; raw: string }> {
  const out = new Map<string, { pair: string; raw: string }>();
  for (const raw of res.headers.getSetCookie()) {
    const pair = raw.split(';')[0]!;
    out.set(pair.slice(0, pair.indexOf('=')), { pair, raw });
  }
  return out;
}

/** A console harness with owner sign-in configured against a fresh stand-in. */
export async function createOwnerHarness(
  env: Record<string, string> = {},
  deps: Partial<import('../../functions/_app/context').AppDeps> = {},
) {
  const discord: DiscordStandIn = await startDiscordStandIn();
  const h = await createAdminHarness({
    env: {
      RATE_LIMITS: 'false',
      DISCORD_API_BASE: discord.url,
      DISCORD_OAUTH_BASE: discord.origin,
      DISCORD_CLIENT_ID: STAND_IN_CLIENT.id,
      DISCORD_CLIENT_SECRET: STAND_IN_CLIENT.secret,
      ...env,
    },
    deps,
  });
  const siteUrl = env.SITE_URL ?? SITE;

  /** Starts a sign-in: the app's redirect to Discord and the state cookie it set. */
  async function start() {
    const res = await h.app.request(`${siteUrl}/api/account/sign-in`);
    const authorize = new URL(res.headers.get('location') ?? 'http://invalid/');
    const stateCookie = [...cookiesOf(res).values()].find((c) => c.pair.includes('gr_owner_oauth'));
    return { res, authorize, stateCookie };
  }

  /** What Discord's authorize answers the browser: the redirect back to the app's callback. */
  async function authorize(url: URL): Promise<URL> {
    const res = await fetch(url, { redirect: 'manual' });
    if (res.status !== 302) throw new Error(`authorize answered ${res.status}: ${await res.text()}`);
    return new URL(res.headers.get('location')!);
  }

  /** The app's callback as the browser reaches it, with the state cookie. */
  const callback = (url: URL, stateCookie: string | undefined) =>
    h.app.request(url.toString().replace(/^https?:\/\/[^/]+/, siteUrl), {
      headers: stateCookie ? { cookie: stateCookie } : {},
    });

  /** Signs in `user` with `guilds` through the whole dance; answers the owner's session. */
  async function signInOwner(
    guilds: StandInGuild[],
    user: Partial<DiscordStandIn['oauth']['user']> = {},
  ): Promise<OwnerSession> {
    discord.oauth.guilds = guilds;
    discord.oauth.user = { ...discord.oauth.user, ...user };
    const { authorize: url, stateCookie } = await start();
    const back = await authorize(url);
    const res = await callback(back, stateCookie?.pair);
    if (res.status !== 303 || res.headers.get('location') !== '/account')
      throw new Error(`callback answered ${res.status} ${res.headers.get('location')}`);
    const cookies = cookiesOf(res);
    const cookie = [...cookies.values()]
      .filter((c) => /gr_owner(_guilds)?=/.test(c.pair) && !c.raw.includes('Max-Age=0'))
      .map((c) => c.pair)
      .join('; ');
    const me = (await (await h.app.request(`${siteUrl}/api/account/me`, { headers: { cookie } })).json()) as {
      csrfToken: string;
    };
    return { cookie, csrf: me.csrfToken };
  }

  /** Calls /api/account as the owner's page would (cookie, Origin, CSRF header, JSON body). */
  function ownerCall(session: OwnerSession | null, method: string, path: string, body?: unknown) {
    return h.app.request(`${siteUrl}${path}`, {
      method,
      headers: {
        origin: siteUrl,
        ...(session ? { cookie: session.cookie, 'x-csrf-token': session.csrf } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  }

  return {
    ...h,
    discord,
    start,
    authorize,
    callback,
    signInOwner,
    ownerCall,
    cleanup: async () => {
      await h.cleanup();
      await discord.close();
    },
  };
}

/** One guild entry of a Discord guild list. */
export const guild = (id: string, opts: { owner?: boolean; permissions?: string } = {}): StandInGuild => ({
  id,
  name: `Guild ${id}`,
  owner: opts.owner ?? false,
  permissions: opts.permissions ?? PERMISSIONS.member,
});
