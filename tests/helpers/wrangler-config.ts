import { resolve } from 'node:path';
import { experimental_readRawConfig } from 'wrangler';

/** One `[[ratelimits]]` entry of a wrangler config. */
export interface DeclaredRateLimit {
  name: string;
  namespace_id: string;
  simple: { limit: number; period: number };
}

/** The repository's wrangler.toml `[[ratelimits]]`, parsed by wrangler itself. */
export function declaredRateLimits(): DeclaredRateLimit[] {
  const { rawConfig } = experimental_readRawConfig({ config: resolve(import.meta.dirname, '../../wrangler.toml') });
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
