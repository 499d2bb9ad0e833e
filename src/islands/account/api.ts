/** The owner page's calls to /api/account, through the one session client (src/lib/session-client.ts). */
import { sessionClient } from '../../lib/session-client';

export { ApiCallError, messageOf, parseResponse } from '../../lib/session-client';

/** The typed client (`client.api.account.listings.$get()`) and the owner session's CSRF token. */
export const { client, setCsrfToken } = sessionClient();
