import { z } from 'zod';

const optional = z
  .string()
  .optional()
  .transform((v) => (v === '' ? undefined : v));

/** Every setting the app reads, checked once at start; nothing else reads process.env. */
export const envSchema = z.object({
  /** `file:db/local.db` (default), `libsql://...` or `https://...`. */
  DATABASE_URL: z.string().default('file:db/local.db'),
  DATABASE_AUTH_TOKEN: optional,
  PORT: z.coerce.number().int().min(0).max(65535).default(4321),
  HOST: z.string().default('0.0.0.0'),
  /** Public origin for canonical URLs, the sitemap and origin checks. */
  SITE_URL: z.url().default('http://localhost:4321'),
  /** Salt for hashing visitor IP addresses (rate limits, analytics). */
  IP_HASH_SECRET: z.string().default('dev-ip-hash-secret-change-me'),
  /** Signs newsletter unsubscribe tokens. */
  SESSION_SECRET: z.string().default('dev-session-secret-change-me'),
  TURNSTILE_SECRET: optional,
  TURNSTILE_SITE_KEY: optional,
  ADMIN_EMAIL: optional,
  ADMIN_PASSWORD: optional,
  /** Production: POSTed to rebuild the static site after publishing changes. */
  REBUILD_HOOK_URL: optional,
  CF_ACCESS_TEAM_DOMAIN: optional,
  CF_ACCESS_AUD: optional,
  /** Set to 'false' to switch rate limits off (benchmarks only). */
  RATE_LIMITS: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
});
export type Env = z.output<typeof envSchema>;

/** Parses the environment, failing with every bad variable named. */
export function loadEnv(source: Record<string, string | undefined>): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
