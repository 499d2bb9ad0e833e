import { z } from 'zod';
import { upstreamWaitMs } from './backoff';
import { SNOWFLAKE } from './guild-icon';

/** What a lookup of the invite saw of the guild; documented fields only (Discord's Invite and Guild objects). */
export interface InviteSnapshot {
  code: string;
  guildId: string;
  name: string;
  /** Icon hash (guildIconUrl); banner and splash likewise. */
  icon: string | null;
  banner: string | null;
  splash: string | null;
  description: string | null;
  /** Guild features, e.g. COMMUNITY, VERIFIED, PARTNERED, INVITES_DISABLED. */
  features: string[];
  /** Set when the guild has a vanity URL; the invite is the vanity one when it equals `code`. */
  vanityUrlCode: string | null;
  verificationLevel: number | null;
  nsfwLevel: number | null;
  boostCount: number | null;
  /** approximate_member_count: Discord's own approximation. */
  memberCount: number | null;
  /** approximate_presence_count: members online, approximate too. */
  onlineCount: number | null;
  /** When a temporary invite stops working, ISO-8601 UTC; null for a permanent one. */
  expiresAt: string | null;
}

/** The scopes Discord names in X-RateLimit-Scope on a 429. */
export type RateLimitScope = 'user' | 'global' | 'shared';

/** The X-RateLimit-* headers of an answer, for pacing the next lookup; null when there were none. */
export interface RateLimit {
  limit: number | null;
  remaining: number | null;
  resetAfterMs: number | null;
  bucket: string | null;
}

/**
 * Every answer to `GET /invites/{code}`, by kind. Only the definitive kinds (DEFINITIVE_KINDS)
 * say anything about the invite; the others are about us, the network or Discord, and a
 * listing's state must never change on them.
 */
export type InviteAnswer = { rateLimit: RateLimit | null } & (
  | { kind: 'ok'; invite: InviteSnapshot }
  /** The guild has paused invites (INVITES_DISABLED): alive, but nobody can join for now. */
  | { kind: 'paused'; invite: InviteSnapshot }
  /** A temporary invite: it works until `invite.expiresAt`. */
  | { kind: 'expiring'; invite: InviteSnapshot & { expiresAt: string } }
  /** 404 with Discord's 10006 (Unknown Invite) or 10004 (Unknown Guild). */
  | { kind: 'unknown_invite'; code: 10004 | 10006 }
  /** The code now opens another guild than the listing's (or no guild at all: a group DM invite). */
  | { kind: 'wrong_guild'; expectedGuildId: string | null; guildId: string | null; name: string | null }
  /** Discord's own rate limit (JSON body with retry_after): wait, then ask again. */
  | { kind: 'rate_limited'; retryAfterMs: number; global: boolean; scope: RateLimitScope | null }
  /** Cloudflare's block page (error 1015 and kin) or Discord's temporary IP ban: stop asking for a while. */
  | { kind: 'blocked'; source: 'cloudflare' | 'ip_ban'; status: number; retryAfterMs: number | null }
  /** 401/403 from the API itself: the bot token is wrong or revoked. */
  | { kind: 'auth_error'; status: number; code: number | null; message: string | null }
  /** 5xx, an answer that cannot be read, an unexpected status, the network, a timeout: ask again later. */
  | {
      kind: 'transient';
      reason: 'server_error' | 'unparseable' | 'unexpected_status' | 'network' | 'timeout';
      status: number | null;
    }
);

/** The kinds that are Discord's word on the invite itself. */
export const DEFINITIVE_KINDS = ['ok', 'paused', 'expiring', 'unknown_invite', 'wrong_guild'] as const;

/** An answer that says something about the invite (see DEFINITIVE_KINDS). */
export type DefinitiveAnswer = Extract<InviteAnswer, { kind: (typeof DEFINITIVE_KINDS)[number] }>;

/** True for a definitive answer; false for one that must leave a listing as it is. */
export function isDefinitive(answer: InviteAnswer): answer is DefinitiveAnswer {
  return (DEFINITIVE_KINDS as readonly string[]).includes(answer.kind);
}

/** An answer where none came: the network failed or the time ran out. */
export const noAnswer = (reason: 'network' | 'timeout'): InviteAnswer => ({
  kind: 'transient',
  reason,
  status: null,
  rateLimit: null,
});

// Fields past id and name degrade to null rather than fail: a new or odd value in one of them
// must not turn every check of a listing into "unparseable".
const extra = <T extends z.ZodType>(schema: T) => schema.nullish().catch(null);
const whole = extra(z.number().int().nonnegative());

/** The documented fields of an invite object (INV "Invite Structure"); zod drops the rest (`profile` and kin). */
const inviteSchema = z.object({
  type: z.number().int().optional(),
  code: z.string(),
  guild: z
    .object({
      id: z.string().regex(SNOWFLAKE),
      name: z.string(),
      icon: extra(z.string()),
      banner: extra(z.string()),
      splash: extra(z.string()),
      description: extra(z.string()),
      features: z.array(z.string()).catch([]),
      vanity_url_code: extra(z.string()),
      verification_level: whole,
      nsfw_level: whole,
      premium_subscription_count: whole,
    })
    .optional(),
  approximate_member_count: whole,
  approximate_presence_count: whole,
  expires_at: z.iso.datetime({ offset: true }).nullish(),
});

/** Discord's error body: `{ message, code }`, plus `retry_after` and `global` on a rate limit. */
const errorSchema = z.object({
  message: z.string().optional().catch(undefined),
  code: z.number().int().optional().catch(undefined),
  retry_after: z.number().nonnegative().optional().catch(undefined),
  global: z.boolean().optional().catch(undefined),
});

/** What came back from `GET /invites/{code}`, as received. */
export interface InviteResponse {
  status: number;
  headers: Headers | Record<string, string>;
  /** The body as text; JSON is read only when the content-type says so. */
  body: string;
  /** The guild the listing was verified as; null or absent on a first check (a submission). */
  expectedGuildId?: string | null | undefined;
}

const headerNumber = (value: string | null): number | null => {
  if (value === null || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : null;
};

function readRateLimit(headers: Headers): RateLimit | null {
  const limit = headerNumber(headers.get('x-ratelimit-limit'));
  const remaining = headerNumber(headers.get('x-ratelimit-remaining'));
  const resetAfter = headerNumber(headers.get('x-ratelimit-reset-after'));
  const bucket = headers.get('x-ratelimit-bucket');
  if (limit === null && remaining === null && resetAfter === null && bucket === null) return null;
  return { limit, remaining, resetAfterMs: resetAfter === null ? null : Math.ceil(resetAfter * 1000), bucket };
}

function readJson(headers: Headers, body: string): unknown {
  if (!/^application\/json\b/i.test(headers.get('content-type') ?? '')) return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

function snapshot(invite: z.output<typeof inviteSchema>, guild: NonNullable<z.output<typeof inviteSchema>['guild']>) {
  return {
    code: invite.code,
    guildId: guild.id,
    name: guild.name,
    icon: guild.icon ?? null,
    banner: guild.banner ?? null,
    splash: guild.splash ?? null,
    description: guild.description ?? null,
    features: guild.features,
    vanityUrlCode: guild.vanity_url_code ?? null,
    verificationLevel: guild.verification_level ?? null,
    nsfwLevel: guild.nsfw_level ?? null,
    boostCount: guild.premium_subscription_count ?? null,
    memberCount: invite.approximate_member_count ?? null,
    onlineCount: invite.approximate_presence_count ?? null,
    expiresAt: invite.expires_at ? new Date(invite.expires_at).toISOString() : null,
  } satisfies InviteSnapshot;
}

/**
 * Classifies one answer to `GET /invites/{code}?with_counts=true`. Status and content-type decide
 * first, then documented JSON fields; never a substring of the body (a member count of 1015 is
 * not Cloudflare's error 1015).
 */
export function classifyInviteAnswer(response: InviteResponse): InviteAnswer {
  const headers = response.headers instanceof Headers ? response.headers : new Headers(response.headers);
  const { status } = response;
  const rateLimit = readRateLimit(headers);
  const json = readJson(headers, response.body);

  if (status === 200) {
    const parsed = inviteSchema.safeParse(json);
    if (!parsed.success) return { kind: 'transient', reason: 'unparseable', status, rateLimit };
    const invite = parsed.data;
    const guild = invite.guild;
    const expectedGuildId = response.expectedGuildId ?? null;
    if (!guild || (invite.type !== undefined && invite.type !== 0) || (expectedGuildId && guild.id !== expectedGuildId))
      return { kind: 'wrong_guild', expectedGuildId, guildId: guild?.id ?? null, name: guild?.name ?? null, rateLimit };
    const seen = snapshot(invite, guild);
    if (seen.features.includes('INVITES_DISABLED')) return { kind: 'paused', invite: seen, rateLimit };
    if (seen.expiresAt !== null) return { kind: 'expiring', invite: { ...seen, expiresAt: seen.expiresAt }, rateLimit };
    return { kind: 'ok', invite: seen, rateLimit };
  }

  const error = json === undefined ? undefined : errorSchema.safeParse(json).data;
  const headerRetryAfter = headerNumber(headers.get('retry-after'));
  const retryAfterMs = (...values: (number | null | undefined)[]) => {
    const known = values.filter((v): v is number => typeof v === 'number');
    // Clamped: an upstream's figure is never taken as is (backoff.ts holds the real limits).
    return known.length === 0 ? null : upstreamWaitMs(Math.max(...known));
  };

  if (status === 429 || status === 403) {
    // Not JSON: Cloudflare answered before Discord did (its HTML page for error 1015, 1020, ...).
    if (!error)
      return { kind: 'blocked', source: 'cloudflare', status, retryAfterMs: retryAfterMs(headerRetryAfter), rateLimit };
    // Discord's temporary IP ban: a static body with code 0 and no rate-limit headers (discord-api-docs#5810);
    // a 429 without the documented retry_after is one too (at most a Retry-After header, discordrb#120).
    const ipBan = error.code === 0 && /\bblocked\b/i.test(error.message ?? '') && rateLimit === null;
    if (ipBan || (status === 429 && error.retry_after === undefined))
      return { kind: 'blocked', source: 'ip_ban', status, retryAfterMs: retryAfterMs(headerRetryAfter), rateLimit };
    if (status === 429) {
      const scope = headers.get('x-ratelimit-scope');
      return {
        kind: 'rate_limited',
        retryAfterMs: retryAfterMs(error.retry_after, headerRetryAfter)!,
        global: error.global === true || headers.get('x-ratelimit-global')?.toLowerCase() === 'true',
        scope: scope === 'user' || scope === 'global' || scope === 'shared' ? scope : null,
        rateLimit,
      };
    }
  }

  if ((status === 401 || status === 403) && error)
    return { kind: 'auth_error', status, code: error.code ?? null, message: error.message ?? null, rateLimit };
  // Only Discord's own codes mean the invite is gone; any other 404 (a wrong base URL answers
  // `{"message": "404: Not Found", "code": 0}`) says nothing about the invite.
  if (status === 404 && (error?.code === 10006 || error?.code === 10004))
    return { kind: 'unknown_invite', code: error.code, rateLimit };
  if (status >= 500) return { kind: 'transient', reason: 'server_error', status, rateLimit };
  return { kind: 'transient', reason: 'unexpected_status', status, rateLimit };
}
