import type { Db } from '../../db/client';
import type { Env } from './env';

/** What the site rebuild looks like from the app: request one, read its state. */
export interface RebuildTrigger {
  /**
   * Marks the site dirty; builds are coalesced, so a burst of calls gives one build. `pages`: the
   * public paths this change alters (a listing's /server/{slug}); where the runtime can, it renders
   * them on request until a build with the change is live, instead of serving stale files (#18).
   * Resolves once the change is recorded where a restart (or a retry of a failed deploy hook)
   * finds it: callers await it before answering. `scope` 'listings': the change alters only the
   * listings of `pages` (their own pages, the listings they are in, the home), so Node publishes
   * just those pages (functions/_app/site-publish.ts); 'site' (the default): anything, a full build.
   */
  request(reason: string, pages?: readonly string[], scope?: ChangeScope): void | Promise<void>;
  /**
   * `request` in two halves, for a change written in one batch with its record (a placement's
   * flags and the pages they make stale): `statements` (site_changes rows built with `db`; none
   * when this trigger keeps no record) go in the caller's batch, and `requested()` is called once
   * that batch is stored. With `when` (SQL read in the batch: the write applied), the rows are
   * written only while it holds. Absent: the caller stores its write, then awaits `request`
   * (lib/site-changes.ts preparePublish gives callers one form for both).
   */
  prepare?(
    db: Db,
    reason: string,
    pages: readonly string[],
    scope?: ChangeScope,
    when?: import('drizzle-orm').SQL,
  ): PreparedChange;
  status(): RebuildStatus;
}

/** A change's record for the caller's batch, and what to do once it is stored (RebuildTrigger.prepare). */
export interface PreparedChange {
  statements: import('drizzle-orm/batch').BatchItem<'sqlite'>[];
  /** Called once the caller's batch is stored; awaited (a trigger that records on its own resolves once it has). */
  requested(): void | Promise<void>;
}

/** What a change may alter: only the listings its pages name, or anything on the site (RebuildTrigger.request). */
export type ChangeScope = 'listings' | 'site';

export interface RebuildStatus {
  state: 'idle' | 'queued' | 'building' | 'failed';
  /** ISO time the current site went live. */
  liveSince: string | null;
  lastDurationMs: number | null;
  lastError: string | null;
  lastReason: string | null;
}

/** Everything the app needs from its runtime; tests build their own. */
export interface AppDeps {
  db: Db;
  env: Env;
  rebuild?: RebuildTrigger | undefined;
  /** The client's IP as the runtime sees it (socket on Node, CF-Connecting-IP at the edge). */
  clientIp?: ((req: Request, raw: unknown) => string) | undefined;
  /** The live build's Content-Security-Policy (Astro's, written at build); the base policy when absent. */
  contentSecurityPolicy?: (() => string) | undefined;
  /** Serves the built site for paths no route matched (Node); undefined means a plain 404. */
  staticSite?: ((c: import('hono').Context) => Promise<Response | undefined>) | undefined;
  /**
   * The live build's HTML of a page ('/submit-server'), or null: a refused form post from a browser
   * without JavaScript is answered with its page, filled in (lib/form-page.ts). Undefined in tests
   * without a site: the answer is then a redirect back to the form.
   */
  sitePage?: ((path: string) => Promise<string | null>) | undefined;
  /** Cloudflare Access signing keys; defaults to the team's remote JWKS (tests inject a local set). */
  accessKeys?: import('jose').JWTVerifyGetKey | undefined;
  /** Discord's API (invite lookups); built from DISCORD_API_BASE and DISCORD_BOT_TOKEN when absent (discordFor). */
  discord?: import('./clients/discord').DiscordClient | undefined;
  /** The mail transport (#16): SMTP on Node (clients/mail-smtp.ts), else the HTTP provider from MAIL_API_URL (mailFor). */
  mail?: import('./clients/mail').MailClient | undefined;
  /** Replaces global fetch for outbound calls (Turnstile, deploy hook) in tests. */
  fetch?: typeof fetch | undefined;
  /** Counters behind the public rate limits; an in-memory store per app when absent. */
  rateLimitStore?: import('./lib/rate-limits').RateLimitStore | undefined;
  /**
   * Where the app runs: a Worker's request has the Free plan's 50 subrequests, so work that grows
   * with the data (the console's newsletter send) does a part per request there. Node when absent.
   */
  runtime?: 'node' | 'worker' | undefined;
  /** The console's clock (ms since epoch): sign-in throttle, session expiry and sweep; tests step it. */
  now?: (() => number) | undefined;
}

/** Hono's environment: variables set by middleware for handlers. */
export interface AppEnv {
  Variables: {
    deps: AppDeps;
    /** hono/request-id's id (also the X-Request-Id answer header), logged with unexpected errors. */
    requestId: string;
    /** Salted hash of the client IP (middleware/client.ts). */
    ipHash: string;
    /** The body as read by the `body` validator (lib/validate.ts), before parsing. */
    body?: import('./lib/validate').ReadBody;
    /** The public form a route serves, whose page answers a refused post without JavaScript. */
    form?: import('./lib/form-redirect').PublicForm;
  };
}
