import { type BuildSettings, buildSettingsOf } from '../../functions/_app/build-settings';
import { processEnv } from '../../functions/_app/env';

/** Cloudflare's Turnstile script (allowed by the CSP's script-src and frame-src). */
export const TURNSTILE_SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js';

/**
 * The build's shared settings where the Cloudflare build inlined them (the Worker's pages rendered
 * on request have no process environment of the build's). Elsewhere (npm start, whose build and
 * server share one environment) the key counts only with the secret beside it, as the server's
 * check does (clients/turnstile.ts): never a widget with no check behind it.
 */
function settings(): Pick<BuildSettings, 'TURNSTILE_SITE_KEY'> {
  if (typeof __GUILDRANK_BUILD_SETTINGS__ !== 'undefined') return __GUILDRANK_BUILD_SETTINGS__;
  const env = processEnv();
  return { TURNSTILE_SITE_KEY: env.TURNSTILE_SECRET ? buildSettingsOf(env).TURNSTILE_SITE_KEY : null };
}

/**
 * The site key the public forms show Turnstile's widget with, read at build time (the key is
 * public by design: it is in every page). On Cloudflare the secret is a Worker secret the build
 * never sees; the Worker refuses to start with a site key and no secret (functions/_app/edge.ts).
 */
export function turnstileSiteKey(
  settingsOf: Pick<BuildSettings, 'TURNSTILE_SITE_KEY'> = settings(),
): string | undefined {
  return settingsOf.TURNSTILE_SITE_KEY ?? undefined;
}
