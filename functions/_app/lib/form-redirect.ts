import type { Context } from 'hono';
import { ApiError } from './errors';

/**
 * The no-JavaScript answer to a refused form post: 303 back to the form with the error code
 * and the bad field names, so the page can show them. Server faults (5xx) are rethrown and get
 * the envelope (a 503 with Retry-After keeps its meaning for every client).
 */
export function formFailure(c: Context, path: string, err: unknown, hash = ''): Response {
  if (!(err instanceof ApiError) || err.status >= 500) throw err;
  const fields = [...new Set((err.issues ?? []).map((i) => i.path.split('.')[0] ?? '').filter(Boolean))];
  const query = new URLSearchParams({ error: err.code });
  if (fields.length) query.set('fields', fields.join(','));
  return c.redirect(`${path}?${query.toString().replace(/%2C/g, ',')}${hash}`, 303);
}

/** Escapes text for HTML element content and attribute values. */
export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);
