/**
 * The one way a signed-in screen (the console, the owner's page) calls the app: Hono's typed
 * client over the app's own routes (a type-only import: nothing server-side reaches the bundle),
 * with the same-origin cookie, the session's CSRF token on writes, and every failure (network or
 * an answer that is not ok) thrown as ApiCallError, so a screen only ever reads successful answers.
 */
import { hc } from 'hono/client';
import type { AppType } from '../../functions/_app/app';
import type { ErrorBody } from '../../functions/_app/lib/errors';

/** A failed call: HTTP status, the envelope's code and message, and field issues of a 400. */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: { path: string; message: string }[] = [],
  ) {
    super(message);
  }
}

/** The path a request goes to, whatever form the client hands it in. */
const pathOf = (input: RequestInfo | URL): string =>
  new URL(input instanceof Request ? input.url : input, window.location.href).pathname;

/** The query string of a call, leaving out empty filters ('' is "any"). */
function searchParams(query: Record<string, string | string[]>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const v of [value].flat()) if (v !== undefined && v !== '') params.append(key, v);
  }
  return params;
}

/**
 * A typed client for one kind of session. `signInPath` is the call whose 401 is a wrong password
 * rather than a lapsed session: every other 401 calls the unauthenticated handler.
 */
export function sessionClient(options: { signInPath?: string } = {}) {
  let csrfToken = '';
  let onUnauthenticated: () => void = () => {};

  async function sessionFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('Accept', 'application/json');
    if ((init.method ?? 'GET').toUpperCase() !== 'GET') headers.set('X-CSRF-Token', csrfToken);
    let res: Response;
    try {
      res = await fetch(input, { ...init, headers, credentials: 'same-origin' });
    } catch {
      throw new ApiCallError(0, 'network', 'The server could not be reached. Check your connection and retry.');
    }
    if (res.ok) return res;
    // app.onError answers every failure with the envelope; anything in front of the app may not.
    const body = (await res.json().catch(() => null)) as Partial<ErrorBody> | null;
    if (res.status === 401 && pathOf(input) !== options.signInPath) onUnauthenticated();
    throw new ApiCallError(
      res.status,
      body?.error?.code ?? 'http_error',
      body?.error?.message ?? `Request failed (${res.status})`,
      body?.error?.issues,
    );
  }

  return {
    /** The typed client of the app on this origin: `client.api.admin.submissions.$get({ query })`. */
    client: hc<AppType>('/', { fetch: sessionFetch, buildSearchParams: searchParams }),
    /** Remembers the session's CSRF token (from sign-in or /me); kept in memory only. */
    setCsrfToken: (token: string | null): void => {
      csrfToken = token ?? '';
    },
    /** What to do when the session ends mid-use (e.g. show the sign-in form). */
    setUnauthenticatedHandler: (fn: () => void): void => {
      onUnauthenticated = fn;
    },
  };
}

/**
 * The parsed body of a call, typed from its route's successful answers (failures have thrown
 * already): `const { submissions } = await parseResponse(client.api.admin.submissions.$get())`.
 */
export { parseResponse } from 'hono/client';

/** Message of any thrown value, for the error lines. */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));
