/**
 * The owner page's one way to call /api/account: Hono's typed client over the app's own routes (a
 * type-only import: nothing server-side reaches the bundle), with the same-origin cookie, the
 * owner session's CSRF token on writes, and a failed answer thrown as AccountApiError.
 */
import { hc } from 'hono/client';
import type { AppType } from '../../../functions/_app/app';
import type { ErrorBody } from '../../../functions/_app/lib/errors';

/** A failed call: HTTP status, the envelope's code and message, and field issues of a 400. */
export class AccountApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: { path: string; message: string }[] = [],
  ) {
    super(message);
  }
}

let csrfToken = '';

/** Remembers the owner session's CSRF token (from /api/account/me); kept in memory only. */
export const setCsrfToken = (token: string | null): void => {
  csrfToken = token ?? '';
};

async function accountFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('Accept', 'application/json');
  if ((init.method ?? 'GET').toUpperCase() !== 'GET') headers.set('X-CSRF-Token', csrfToken);
  let res: Response;
  try {
    res = await fetch(input, { ...init, headers, credentials: 'same-origin' });
  } catch {
    throw new AccountApiError(0, 'network', 'The server could not be reached. Check your connection and retry.');
  }
  if (res.ok) return res;
  const body = (await res.json().catch(() => null)) as Partial<ErrorBody> | null;
  throw new AccountApiError(
    res.status,
    body?.error?.code ?? 'http_error',
    body?.error?.message ?? `Request failed (${res.status})`,
    body?.error?.issues,
  );
}

/** The typed client of the app on this origin: `client.api.account.listings.$get()`. */
export const client = hc<AppType>('/', { fetch: accountFetch });

export { parseResponse } from 'hono/client';

/** Message of any thrown value, for the error lines. */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));
