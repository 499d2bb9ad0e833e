import { z } from 'zod';

const optional = z
  .string()
  .optional()
  .transform((v) => (v === '' ? undefined : v));

/** Every setting the app reads, checked once at start; process.env is read in this module only (processEnv). */
export const envSchema = z.object({
  /** `file:db/local.db` (default), `libsql://...` or `https://...`. */
  DATABASE_URL: z.string().default('file:db/local.db'),
  DATABASE_AUTH_TOKEN: optional,
  PORT: z.coerce.number().int().min(0).max(65535).default(4321),
  HOST: z.string().default('0.0.0.0'),
  /**
   * Public origin for canonical URLs, the sitemap, origin checks and every link a mail or the API
   * gives. Read without trailing slashes, so `${SITE_URL}/path` is right wherever it is built.
   */
  SITE_URL: z
    .url()
    .default('http://localhost:4321')
    .transform((v) => v.replace(/\/+$/, '')),
  /** Salt for hashing visitor IP addresses (rate limits, analytics); required on an https SITE_URL. */
  IP_HASH_SECRET: optional,
  /** Signs newsletter unsubscribe tokens and the owner sign-in's cookies (#17); required on an https SITE_URL. */
  SESSION_SECRET: optional,
  TURNSTILE_SECRET: optional,
  TURNSTILE_SITE_KEY: optional,
  /** Cloudflare's Turnstile check; tests point it at a loopback stand-in. */
  TURNSTILE_SITEVERIFY_URL: z.url().default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
  /** Discord's API root with its version, for invite lookups; tests point it at a loopback stand-in. */
  DISCORD_API_BASE: z.url().default('https://discord.com/api/v10'),
  /** A bot token, sent as `Authorization: Bot …` on invite lookups; without one they go unauthenticated. */
  DISCORD_BOT_TOKEN: optional,
  /** Owner sign-in (#17): the Discord application's OAuth2 client id and secret; unset, sign-in says it is not configured. */
  DISCORD_CLIENT_ID: optional,
  DISCORD_CLIENT_SECRET: optional,
  /**
   * Discord's origin for owner sign-in (#17): authorize at {base}/oauth2/authorize, token and
   * users/@me under {base}/api/v10 (as DISCORD_API_BASE); tests point it at the loopback stand-in.
   */
  DISCORD_OAUTH_BASE: z.url().default('https://discord.com'),
  /** The refresh job's Discord lookups per 10 minutes (of 200 in all; 40 stay for submission checks). */
  REFRESH_PER_10MIN: z.coerce.number().int().min(1).max(200).default(160),
  /**
   * At most this many lookups a refresh pass (half, rounded up, in a pass that recomputes the
   * ranks): where one invocation has a subrequest budget. wrangler.toml sets 8 for the Workers Free
   * plan's 50 a minute; unset, a pass takes what REFRESH_PER_10MIN leaves (npm start). The pages
   * state the daily figure it gives (a setting the build and the Worker share).
   */
  REFRESH_LOOKUPS_PER_PASS: z.coerce.number().int().min(1).max(200).optional(),
  /** Set to 'false' to keep `npm start` from running the refresh job on its timer. */
  REFRESH_ENABLED: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** The support address the site shows (footer, contact, help); default support@ the SITE_URL host. */
  SUPPORT_EMAIL: z
    // Any user@host: a local run's default is support@localhost, which z.email() would refuse.
    .union([z.literal(''), z.string().regex(/^[^\s@]+@[^\s@]+$/, 'must be an email address')])
    .optional()
    .transform((v) => v || undefined),
  /**
   * Mail (#16) on Node: the mail server, `smtp://user:pass@host:587` or `smtps://…:465` (nodemailer).
   * Unset (and no MAIL_API_URL): mails wait in the outbox, shown in the console's Outbox screen.
   */
  SMTP_URL: optional,
  /** The From of every mail, e.g. `GuildRank <hello@example.org>`; default no-reply@ the SITE_URL host. */
  MAIL_FROM: optional,
  /** Mail on Cloudflare (#16): the HTTP provider's API root, Resend's shape (`POST {MAIL_API_URL}/emails`). */
  MAIL_API_URL: z
    .union([z.literal(''), z.url()])
    .optional()
    .transform((v) => v || undefined),
  /** The HTTP provider's API key, sent as `Authorization: Bearer …`. */
  MAIL_API_TOKEN: optional,
  ADMIN_EMAIL: optional,
  ADMIN_PASSWORD: optional,
  /** Production: POSTed to rebuild the static site after publishing changes. */
  REBUILD_HOOK_URL: optional,
  /**
   * Sent with each deploy-hook call as `Authorization: Bearer …`: a GitHub token allowed to
   * dispatch the deploy workflow when REBUILD_HOOK_URL is GitHub's repository dispatch endpoint.
   */
  REBUILD_HOOK_TOKEN: optional,
  CF_ACCESS_TEAM_DOMAIN: optional,
  CF_ACCESS_AUD: optional,
  /**
   * Seconds a cached `GET /api/servers` answer may be served stale while one background refresh
   * runs (functions/_app/lib/listing-cache.ts); it is fresh for the first 2. Tests shorten it.
   */
  LISTING_STALE_SECONDS: z.coerce.number().int().min(2).max(3600).default(30),
  /**
   * Paid placement (#30): the Stripe account's secret key (sk_live_… / sk_test_…) and the webhook
   * endpoint's signing secret (whsec_…); both or neither. Unset: the pricing page shows the plans
   * and a contact link, no buy button.
   */
  STRIPE_SECRET_KEY: optional,
  STRIPE_WEBHOOK_SECRET: optional,
  /** Stripe's API origin; tests and `npm run stripe:stand-in` point it at a loopback stand-in. */
  STRIPE_API_BASE: z.url().default('https://api.stripe.com'),
  /** 'true' asks Stripe Tax to calculate tax at checkout (`automatic_tax`; switch Stripe Tax on in the dashboard first). */
  STRIPE_AUTOMATIC_TAX: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** Sponsored listings per category at once (#30): the one-in-five rule of every list holds with 3. */
  SPONSORED_SLOTS_PER_CATEGORY: z.coerce.number().int().min(1).max(10).default(3),
  /** Reviews (#31): how many days a reviewer must have been a member of the server (Discord's joined_at). */
  REVIEW_MIN_MEMBER_DAYS: z.coerce.number().int().min(0).max(365).default(7),
  /** Reviews (#31): new reviews of one listing in 24 hours past this many are held for a moderator. */
  REVIEW_BURST_LIMIT: z.coerce.number().int().min(1).max(1000).default(5),
  /**
   * Set to 'false' to publish every change with a full `astro build` on Node, as before the
   * incremental publish (functions/_app/site-publish.ts: a change to a few listings rewrites only
   * their pages); the test of a change surviving a restart mid-build uses it.
   */
  INCREMENTAL_PUBLISH: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /**
   * The listing requirement on size (#32, src/lib/requirements/): Discord's member count for the
   * invite must be at least this on submit and on an owner's replacement invite; /requirements
   * and the FAQ state it.
   */
  MIN_MEMBERS: z.coerce.number().int().min(1).max(1_000_000).default(50),
  /**
   * Where owners' Discord webhooks are delivered (#32): {base}/{id}/{token}. The owner's URL must be
   * one of Discord's own forms; only its id and token are sent here. Tests point it at a stand-in.
   */
  DISCORD_WEBHOOK_BASE: z.url().default('https://discord.com/api/webhooks'),
  /** Set to 'false' to switch rate limits off (benchmarks only). */
  RATE_LIMITS: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
});
/** The settings after loadEnv: the secrets are always there (given, or random for a local run). */
export type Env = Omit<z.output<typeof envSchema>, SecretName | 'SUPPORT_EMAIL'> &
  Record<SecretName, string> & {
    /** Always set: given, or support@ the SITE_URL host (supportEmailFor). */
    SUPPORT_EMAIL: string;
    /** The secrets loadEnv made up because the environment had none (refused on an https SITE_URL). */
    GENERATED_SECRETS: readonly SecretName[];
  };

/**
 * The default support address: support@ the public site's own host (www. dropped), so a deployment
 * never shows an address on a domain it does not own (a reserved example domain, someone else's).
 */
export function supportEmailFor(siteUrl: string): string {
  return `support@${new URL(siteUrl).hostname.replace(/^www\./, '')}`;
}

/** The secrets the app cannot run safely without. */
export const SECRET_NAMES = ['IP_HASH_SECRET', 'SESSION_SECRET'] as const;
type SecretName = (typeof SECRET_NAMES)[number];

/** Fewer characters than this is no secret (32 random bytes in base64 are 44). */
export const MIN_SECRET_LENGTH = 32;

/** A fresh random secret: 32 bytes from the platform's CSPRNG, base64url (Node and Workers alike). */
export function randomSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** Secrets that were once defaults of this project or its examples: public, so never accepted in production. */
const KNOWN_PUBLIC_SECRETS = new Set(['dev-ip-hash-secret-change-me', 'dev-session-secret-change-me']);

/** One line per bad variable: its name and what is wrong. */
const issueLines = (error: z.ZodError): string[] => error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);

/**
 * Parses the environment, failing with every bad variable named. A missing secret is made up at
 * random for this process (scripts such as the build and migrations never use them; `npm start`
 * keeps its own in a git-ignored file, local-secrets.ts), and recorded, so that the app refuses
 * to start on a public site without real ones (`assertRealSecrets`). A secret that is set on an
 * https SITE_URL must be long and not a published example.
 */
export function loadEnv(source: Record<string, string | undefined>): Env {
  const parsed = envSchema.safeParse(source);
  const issues = parsed.success ? [] : issueLines(parsed.error);
  if (parsed.success && parsed.data.SITE_URL.startsWith('https:')) {
    for (const name of SECRET_NAMES) {
      const value = parsed.data[name];
      if (value && (value.length < MIN_SECRET_LENGTH || KNOWN_PUBLIC_SECRETS.has(value)))
        issues.push(`  ${name}: too short or a published example; set a random value of 32+ bytes`);
    }
  }
  // Owner sign-in needs both halves of the Discord application's credentials, or neither.
  if (parsed.success && !parsed.data.DISCORD_CLIENT_ID !== !parsed.data.DISCORD_CLIENT_SECRET)
    issues.push('  DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET: set both (owner sign-in) or neither');
  // Payments need both the API key and the webhook's signing secret, or neither.
  if (parsed.success && !parsed.data.STRIPE_SECRET_KEY !== !parsed.data.STRIPE_WEBHOOK_SECRET)
    issues.push('  STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: set both (payments) or neither');
  if (!parsed.success || issues.length > 0) throw new Error(`Invalid environment:\n${issues.join('\n')}`);
  const data = parsed.data;
  const generated = SECRET_NAMES.filter((name) => !data[name]);
  return {
    ...data,
    IP_HASH_SECRET: data.IP_HASH_SECRET ?? randomSecret(),
    SESSION_SECRET: data.SESSION_SECRET ?? randomSecret(),
    SUPPORT_EMAIL: data.SUPPORT_EMAIL ?? supportEmailFor(data.SITE_URL),
    GENERATED_SECRETS: generated,
  };
}

/**
 * Refuses to run the app on a public (https) SITE_URL without real secrets: with a made-up
 * IP_HASH_SECRET every stored IP hash could be reversed by whoever guesses it, with a made-up
 * SESSION_SECRET unsubscribe links would break at every start. Named, so the log says what to set.
 */
export function assertRealSecrets(env: Env): void {
  if (!env.SITE_URL.startsWith('https:') || env.GENERATED_SECRETS.length === 0) return;
  throw new Error(
    `Invalid environment:\n${env.GENERATED_SECRETS.map((n) => `  ${n}: required when SITE_URL is https (set a random value of 32+ bytes)`).join('\n')}`,
  );
}

/** What `npm start` refuses to start with (errors) or starts with but says (warnings). */
export interface StartProblems {
  errors: string[];
  warnings: string[];
}

/**
 * The start checks of `npm start`, on the environment as given (before local-secrets.ts fills
 * anything in): on an https SITE_URL (a public site) IP_HASH_SECRET, SESSION_SECRET and
 * SUPPORT_EMAIL must be set (replicas must share the secrets; support@ the site's host may be
 * nobody's inbox); on a bare IP or localhost without SUPPORT_EMAIL the pages and mails would
 * publish support@127.0.0.1, which is said at start.
 */
export function startProblems(source: Record<string, string | undefined>): StartProblems {
  const errors: string[] = [];
  const warnings: string[] = [];
  let site: URL;
  try {
    site = new URL(source.SITE_URL || envSchema.shape.SITE_URL.parse(undefined));
  } catch {
    return { errors, warnings };
  }
  const supportEmail = source.SUPPORT_EMAIL?.trim();
  if (site.protocol === 'https:') {
    for (const name of SECRET_NAMES)
      if (!source[name]?.trim())
        errors.push(`  ${name}: required when SITE_URL is https (set a random value of 32+ bytes)`);
    if (!supportEmail)
      errors.push('  SUPPORT_EMAIL: required when SITE_URL is https (the address the site and its mails show)');
  } else if (!supportEmail) {
    const host = site.hostname.replace(/^\[|\]$/g, '');
    if (host === 'localhost' || host.endsWith('.localhost') || /^[\d.]+$/.test(host) || host.includes(':'))
      warnings.push(
        `SUPPORT_EMAIL is not set: the footer, the contact page and the mails show ${supportEmailFor(site.href)}, which nobody reads. Set SUPPORT_EMAIL to a real address.`,
      );
  }
  return { errors, warnings };
}

let fromProcess: Env | undefined;

/**
 * The settings of this Node process (`loadEnv(process.env)`), read once: the one place that reads
 * process.env. Scripts, the build and astro.config.mjs call it; the Worker gets its bindings instead.
 */
export function processEnv(): Env {
  fromProcess ??= loadEnv(process.env);
  return fromProcess;
}

/** A count from the environment: blank means the default, anything else must be a positive whole number. */
const count = (fallback: number) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().positive().default(fallback));

/**
 * Variables of the tools around the app (the build, npm test, benchmarks, deploy), not settings
 * of the app itself: read here like the settings, so process.env still has one reader.
 */
export const toolEnvSchema = z.object({
  /** Astro's cache folder: each builder (npm start, a test worker, a bench run) keeps its own. */
  ASTRO_CACHE_DIR: z
    .string()
    .optional()
    .transform((v) => v || './node_modules/.astro'),
  /** '1' turns Astro's incremental build on (the server `npm start` runs sets it). */
  ASTRO_INCREMENTAL: z
    .string()
    .optional()
    .transform((v) => v === '1'),
  /**
   * Pages Astro renders at once: while one renders, the others' files are written. 8, measured on
   * 2 cores at 100,000 servers (three builds each): 11.8-14.0 s, against 12.5-16.9 s with 4 and
   * 11.3-15.7 s with 16.
   */
  ASTRO_BUILD_CONCURRENCY: count(8),
  /**
   * Server pages the build prerenders (#18): the top listings by rank. Every other server page is
   * rendered on request by the same page code and cached. 10,000 keeps a deployment (with the
   * listing pages, assets and images) under Cloudflare's 20,000-file limit of the free plan.
   */
  PRERENDER_SERVERS: z.coerce.number().int().min(0).default(10_000),
  /** Numbered pages (2..N) the build prerenders per listing (all servers, each category); later pages render on request. */
  PRERENDER_LISTING_PAGES: z.coerce.number().int().min(1).default(20),
  /** Which adapter `astro build` uses: 'node' (npm start's server) or 'cloudflare' (npm run deploy, the Worker). */
  ASTRO_ADAPTER: z.enum(['node', 'cloudflare']).default('node'),
  /** Static files per Cloudflare deployment: 20,000 on the free plan, 100,000 on paid. */
  CF_ASSET_FILE_LIMIT: count(20_000),
  CLOUDFLARE_API_TOKEN: optional,
  CLOUDFLARE_ACCOUNT_ID: optional,
  /**
   * The wrangler config `npm run deploy` builds and deploys from: its `[vars]` are the one source
   * of the settings the build reads too (functions/_app/build-settings.ts). Default ./wrangler.toml.
   */
  WRANGLER_CONFIG: z
    .string()
    .optional()
    .transform((v) => v || 'wrangler.toml'),
});
export type ToolEnv = z.output<typeof toolEnvSchema>;

/** The tools' variables of this process, checked (every bad one named). */
export function toolEnv(env: NodeJS.ProcessEnv = process.env): ToolEnv {
  const parsed = toolEnvSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  throw new Error(`Invalid environment:\n${issueLines(parsed.error).join('\n')}`);
}

/**
 * A copy of this process's environment as given, for a child process (with `extra` on top), or
 * for a script that must tell a variable given from one defaulted (deploy).
 */
export function rawProcessEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...extra };
}

/** Sets variables in this process's environment, for the tools it runs in-process or spawns (Astro, wrangler). */
export function setProcessEnv(vars: Record<string, string>): void {
  Object.assign(process.env, vars);
}
