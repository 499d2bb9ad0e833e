// The browser's client of the public API: Hono's `hc` over the app's own type, so each call's
// inputs and answers are the routes' (type-only imports: nothing server-side reaches a bundle).
// No framework, so plain scripts and islands share it.
import { type ApplyGlobalResponse, type ClientResponse, hc, type InferRequestType } from 'hono/client';
import type { ResponseFormat } from 'hono/types';
import type { AppType } from '../../functions/_app/app';
import type { ErrorBody } from '../../functions/_app/lib/errors';

/** The API's error envelope, which any call may answer (app.onError). */
export type ApiError = ErrorBody['error'];

/** The statuses app.onError answers with the envelope. */
type ErrorStatus = 400 | 403 | 404 | 405 | 409 | 413 | 415 | 429 | 500 | 503;

/** The app's routes plus the envelope every one of them may answer, so a refusal is typed too. */
type Api = ApplyGlobalResponse<AppType, { [S in ErrorStatus]: { json: ErrorBody } }>;

/** The public API on this site's own origin (`api.contact.$post({ json })`, `api.servers.$get({ query })`). */
export const api = hc<Api>('/').api;

/** The query of `GET /api/servers` (the listing's filters, sort and page). */
export type ServersQuery = InferRequestType<typeof api.servers.$get>['query'];

/** One page of the public listing; throws, naming the status, for any answer but 200. */
export async function fetchServers(query: ServersQuery) {
  const res = await api.servers.$get({ query });
  if (res.status !== 200) throw new Error(`The server answered ${res.status}`);
  return res.json();
}

/** What a public write answers: 201 once stored, 303 (a form post's, never a JSON call's) or the envelope. */
export type WriteAnswer =
  | ClientResponse<unknown, 201, ResponseFormat>
  | ClientResponse<unknown, 303, ResponseFormat>
  | ClientResponse<ErrorBody, ErrorStatus, 'json'>;

/** Null once a write is stored, else its refusal (the envelope's error). */
export async function refusalOf(answer: Promise<WriteAnswer>): Promise<ApiError | null> {
  const res = await answer;
  if (res.status === 201 || res.status === 303) return null;
  return (await res.json()).error;
}

/** Field messages of a refusal, keyed by field name (the first message of each). */
export function fieldErrors(error: ApiError | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of error?.issues ?? []) {
    const key = i.path.split('.')[0] ?? '';
    if (key && !out[key]) out[key] = i.message;
  }
  return out;
}

/**
 * Errors carried back by a no-JavaScript post (`?error=<code>&fields=a,b`): the code and
 * each named field marked. Null when the page was not reached that way.
 */
export function redirectErrors(search: string): { code: string; fields: Record<string, string> } | null {
  const params = new URLSearchParams(search);
  const code = params.get('error');
  if (!code) return null;
  const names = (params.get('fields') ?? '').split(',').filter(Boolean);
  return { code, fields: Object.fromEntries(names.map((f) => [f, 'Check this field'])) };
}
