import { resolve } from 'node:path';

/** The repository's wrangler.toml. */
const WRANGLER_TOML = resolve(import.meta.dirname, '../../wrangler.toml');

/** Where Node's fetch finds its dispatcher (undici's global-dispatcher symbol). */
const DISPATCHER = Symbol.for('undici.globalDispatcher.1');
type WithDispatcher = typeof globalThis & { [DISPATCHER]?: unknown };

/**
 * A wrangler config as wrangler itself reads it (`experimental_readRawConfig`), defaulting to the
 * repository's. Importing wrangler installs its own bundled undici as the process's global
 * dispatcher, which Node's fetch then uses: the test files that ran later in the same vitest
 * worker (`isolate: false`) sent every request through another undici, which refused the Stripe
 * library's requests ("invalid content-length header"). The import is made here only, and Node's
 * own dispatcher put back after it.
 */
export async function readWranglerConfig(config: string = WRANGLER_TOML): Promise<Record<string, unknown>> {
  const g = globalThis as WithDispatcher;
  // Node makes its dispatcher at its fetch's first call: make it now, to keep it.
  if (!g[DISPATCHER]) await fetch('data:,');
  const own = g[DISPATCHER];
  const { experimental_readRawConfig } = await import('wrangler');
  g[DISPATCHER] = own;
  return experimental_readRawConfig({ config }).rawConfig as Record<string, unknown>;
}

/** One `[[ratelimits]]` entry of a wrangler config. */
export interface DeclaredRateLimit {
  name: string;
  namespace_id: string;
  simple: { limit: number; period: number };
}

/** The repository's wrangler.toml `[[ratelimits]]`, parsed by wrangler itself. */
export async function declaredRateLimits(): Promise<DeclaredRateLimit[]> {
  const rawConfig = await readWranglerConfig();
  const entries = (rawConfig as { ratelimits?: DeclaredRateLimit[] }).ratelimits ?? [];
  return entries.map((r) => ({
    name: r.name,
    namespace_id: String(r.namespace_id),
    simple: { limit: r.simple.limit, period: r.simple.period },
  }));
}

/** Entries as TOML, to paste into wrangler.toml or append to a test Worker's config. */
export function rateLimitsToml(entries: DeclaredRateLimit[]): string {
  return entries
    .map(
      (e) =>
        `[[ratelimits]]\nname = "${e.name}"\nnamespace_id = "${e.namespace_id}"\nsimple = { limit = ${e.simple.limit}, period = ${e.simple.period} }`,
    )
    .join('\n\n');
}
