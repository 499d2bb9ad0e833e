import type { Context } from 'hono';
import { type AppEnv, requestIdOf } from '../context';
import { ApiError } from '../lib/errors';

/** Cloudflare's server-side check of a Turnstile token. */
export const SITEVERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';

/** The form field Turnstile's widget fills in. */
export const TURNSTILE_FIELD = 'cf-turnstile-response';

/**
 * Verifies the Turnstile token of a parsed body when TURNSTILE_SECRET is set (a no-op otherwise):
 * 403 `turnstile_failed` when missing or refused, 503 when Cloudflare cannot be asked.
 */
export async function verifyTurnstile(c: Context<AppEnv>, body: unknown): Promise<void> {
  const deps = c.get('deps');
  const secret = deps.env.TURNSTILE_SECRET;
  if (!secret) return;
  const token = body && typeof body === 'object' ? (body as Record<string, unknown>)[TURNSTILE_FIELD] : undefined;
  const failed = new ApiError(403, 'turnstile_failed', 'Please complete the verification challenge and try again.', [
    { path: TURNSTILE_FIELD, message: 'Verification failed' },
  ]);
  if (typeof token !== 'string' || token.length === 0 || token.length > 4096) throw failed;
  const form = new FormData();
  form.set('secret', secret);
  form.set('response', token);
  const ip = c.req.header('cf-connecting-ip');
  if (ip) form.set('remoteip', ip);
  let outcome: { success?: unknown };
  try {
    const res = await (deps.fetch ?? fetch)(SITEVERIFY_URL, {
      method: 'POST',
      body: form,
      signal: AbortSignal.timeout(5000),
    });
    outcome = (await res.json()) as { success?: unknown };
  } catch (err) {
    console.warn(`[${requestIdOf(c)}] turnstile siteverify unreachable:`, err);
    throw new ApiError(
      503,
      'turnstile_unavailable',
      'Verification is unavailable. Please try again shortly.',
      undefined,
      {
        'Retry-After': '5',
      },
    );
  }
  if (outcome.success !== true) throw failed;
}
