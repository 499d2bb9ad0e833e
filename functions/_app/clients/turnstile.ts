import type { Env } from '../env';

/** What Turnstile says of a token: passed, refused, or not reachable (a transient failure, never a refusal). */
export type TurnstileOutcome = 'passed' | 'refused' | 'unavailable';

/** Cloudflare Turnstile's server-side check (siteverify), at `TURNSTILE_SITEVERIFY_URL`. */
export interface TurnstileClient {
  verify(token: string, remoteIp?: string): Promise<TurnstileOutcome>;
}

/**
 * The Turnstile client when both `TURNSTILE_SITE_KEY` (the widget the pages render) and
 * `TURNSTILE_SECRET` (this check) are set; undefined otherwise, and then no form shows the widget
 * and no post is checked: one without the other would refuse every post or check nothing.
 */
export function turnstileClient(env: Env, fetchImpl: typeof fetch = fetch): TurnstileClient | undefined {
  const secret = env.TURNSTILE_SECRET;
  if (!secret || !env.TURNSTILE_SITE_KEY) return undefined;
  return {
    async verify(token, remoteIp) {
      const form = new FormData();
      form.set('secret', secret);
      form.set('response', token);
      if (remoteIp) form.set('remoteip', remoteIp);
      try {
        const res = await fetchImpl(env.TURNSTILE_SITEVERIFY_URL, {
          method: 'POST',
          body: form,
          signal: AbortSignal.timeout(5000),
        });
        if (!res.ok) return 'unavailable';
        const outcome = (await res.json()) as { success?: unknown };
        return outcome.success === true ? 'passed' : 'refused';
      } catch {
        return 'unavailable';
      }
    },
  };
}
