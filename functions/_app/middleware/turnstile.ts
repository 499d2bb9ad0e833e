import type { MiddlewareHandler } from 'hono';
import { TURNSTILE_FIELD } from '../../../src/lib/turnstile';
import { turnstileClient } from '../clients/turnstile';
import type { AppDeps, AppEnv } from '../context';
import { ApiError } from '../lib/errors';

/**
 * After the body validator: checks the post's Turnstile token (403 `turnstile_failed` when missing
 * or refused, 503 when Cloudflare cannot be asked). A no-op unless both Turnstile keys are set.
 */
export function turnstile(deps: AppDeps): MiddlewareHandler<AppEnv> {
  const client = turnstileClient(deps.env, deps.fetch);
  return async (c, next) => {
    if (client) {
      const data = c.get('body')?.data;
      const token = data && typeof data === 'object' ? (data as Record<string, unknown>)[TURNSTILE_FIELD] : undefined;
      const outcome =
        typeof token === 'string' && token.length > 0 && token.length <= 4096
          ? await client.verify(token, c.req.header('cf-connecting-ip'))
          : 'refused';
      if (outcome === 'unavailable') {
        console.warn(`[${c.get('requestId')}] turnstile siteverify unreachable`);
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
      if (outcome === 'refused') {
        throw new ApiError(403, 'turnstile_failed', 'Please complete the verification challenge and try again.', [
          { path: TURNSTILE_FIELD, message: 'Verification failed' },
        ]);
      }
    }
    await next();
  };
}
