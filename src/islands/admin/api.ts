/**
 * The console's one way to call /api/admin: Hono's typed client over the app's own routes
 * (a type-only import, so nothing server-side reaches the bundle), with the same-origin cookie,
 * the CSRF header on writes and the error envelope thrown as ApiCallError (src/lib/session-client.ts).
 */

import { sessionClient } from '../../lib/session-client';

/**
 * The typed client (`client.api.admin.submissions.$get({ query })`), the session's CSRF token,
 * and what to do when the session ends mid-use (shows the sign-in form); a wrong password at
 * sign-in is a 401 of its own.
 */
export const { client, setCsrfToken, setUnauthenticatedHandler } = sessionClient({ signInPath: '/api/admin/login' });

/** The `:id` path parameter of a record (`param: idParam(row)`): path parameters travel as text. */
export const idParam = (row: { id: number }) => ({ id: String(row.id) });

export { ApiCallError, messageOf, parseResponse } from '../../lib/session-client';
