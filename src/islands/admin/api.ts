/**
 * The console's one way to call /api/admin: Hono's typed client over the app's own routes
 * (a type-only import, so nothing server-side reaches the bundle), with the same-origin cookie,
 * the CSRF header on writes and the error envelope thrown as AdminApiError.
 */

import { hc } from 'hono/client';
import type { AppType } from '../../../functions/_app/app';
import type { ErrorBody } from '../../../functions/_app/lib/errors';

/** A failed call: HTTP status, the envelope's code and message, and field issues of a 400. */
export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: { path: string; message: string }[] = [],
  ) {
    super(message);
  }
}

const SIGN_IN_PATH = '/api/admin/login';

let csrfToken = '';
let onUnauthenticated: () => void = () => {};

/** Remembers the session's CSRF token (from sign-in or /me); never stored anywhere else. */
export const setCsrfToken = (token: string): void => {
  csrfToken = token;
};

/** What to do when the session ends mid-use (shows the sign-in form). */
export const setUnauthenticatedHandler = (fn: () => void): void => {
  onUnauthenticated = fn;
};

/** The path a request goes to, whatever form the client hands it in. */
const pathOf = (input: RequestInfo | URL): string =>
  new URL(input instanceof Request ? input.url : input, window.location.href).pathname;

/**
 * The fetch under every console call: sends the session cookie and, on writes, the CSRF
 * token; a network failure or an answer that is not ok throws AdminApiError, so a screen
 * only ever reads successful answers (and a lapsed session brings back the sign-in form).
 */
async function adminFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('Accept', 'application/json');
  if ((init.method ?? 'GET').toUpperCase() !== 'GET') headers.set('X-CSRF-Token', csrfToken);
  let res: Response;
  try {
    res = await fetch(input, { ...init, headers, credentials: 'same-origin' });
  } catch {
    throw new AdminApiError(0, 'network', 'The server could not be reached. Check your connection and retry.');
  }
  if (res.ok) return res;
  // app.onError answers every failure with the envelope; anything in front of the app may not.
  const body = (await res.json().catch(() => null)) as Partial<ErrorBody> | null;
  if (res.status === 401 && pathOf(input) !== SIGN_IN_PATH) onUnauthenticated();
  throw new AdminApiError(
    res.status,
    body?.error?.code ?? 'http_error',
    body?.error?.message ?? `Request failed (${res.status})`,
    body?.error?.issues,
  );
}

/** The query string of a call, leaving out empty filters ('' is "any"). */
function searchParams(query: Record<string, string | string[]>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const v of [value].flat()) if (v !== undefined && v !== '') params.append(key, v);
  }
  return params;
}

/** The typed client of the app, on this origin: `client.api.admin.submissions.$get({ query })`. */
export const client = hc<AppType>('/', { fetch: adminFetch, buildSearchParams: searchParams });

/** The `:id` path parameter of a record (`param: idParam(row)`): path parameters travel as text. */
export const idParam = (row: { id: number }) => ({ id: String(row.id) });

/**
 * The parsed body of a call, typed from its route's successful answers (failures have thrown
 * in adminFetch already): `const { submissions } = await parseResponse(client.api.admin.submissions.$get())`.
 */
export { parseResponse } from 'hono/client';

/** Message of any thrown value, for the error banners. */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));
