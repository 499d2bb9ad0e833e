/** The console's one way to call /api/admin: same-origin cookie, CSRF header on writes, error envelope. */

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

/** Calls an /api/admin path and returns the parsed JSON; throws AdminApiError on failure. */
export async function api<T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (method !== 'GET') headers['X-CSRF-Token'] = csrfToken;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`/api/admin${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch {
    throw new AdminApiError(0, 'network', 'The server could not be reached. Check your connection and retry.');
  }
  const data = (await res.json().catch(() => null)) as
    | (T & { error?: { code: string; message: string; issues?: { path: string; message: string }[] } })
    | null;
  if (!res.ok) {
    if (res.status === 401 && path !== '/login') onUnauthenticated();
    throw new AdminApiError(
      res.status,
      data?.error?.code ?? 'http_error',
      data?.error?.message ?? `Request failed (${res.status})`,
      data?.error?.issues,
    );
  }
  return data as T;
}

/** A query string from the defined, non-empty values. */
export function qs(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') search.set(k, String(v));
  const s = search.toString();
  return s ? `?${s}` : '';
}

/** Message of any thrown value, for the error banners. */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));
