import { type Env, processEnv } from '../../functions/_app/env';

/** Cloudflare's Turnstile script (allowed by the CSP's script-src and frame-src). */
export const TURNSTILE_SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js';

/**
 * The site key the public forms show Turnstile's widget with, read at build time: only when both
 * keys are set. A widget without the secret would check nothing, and a secret without the widget
 * would refuse every form; so with either missing there is no widget (and no script). The key is
 * public by design (it is in every page); the secret never leaves the server.
 */
export function turnstileSiteKey(
  env: Pick<Env, 'TURNSTILE_SITE_KEY' | 'TURNSTILE_SECRET'> = processEnv(),
): string | undefined {
  return env.TURNSTILE_SITE_KEY && env.TURNSTILE_SECRET ? env.TURNSTILE_SITE_KEY : undefined;
}
