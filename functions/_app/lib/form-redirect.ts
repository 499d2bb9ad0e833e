import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type FieldLabels, invalidFieldsSummary } from '../../../src/lib/schemas/labels';
import type { AppEnv } from '../context';
import type { ApiError } from './errors';
import { fillFormPage } from './form-page';
import { readBody } from './validate';

/** A public form that works without JavaScript: where it lives and what its fields are called. */
export interface PublicForm {
  /** The page the form is on, e.g. '/submit-server'. */
  path: string;
  /** The form's `action`, which picks the form out of its page. */
  action: string;
  labels: FieldLabels;
  /**
   * 'fields' (default): the summary names the refused fields and each field shows its own
   * message. 'message': a one-field form (the newsletter box) shows the field's message itself.
   */
  summary?: 'fields' | 'message';
  /** Where the plain redirect goes (by error code) when the page cannot be filled in; default `path?error=&fields=`. */
  fallback?: (code: string) => string;
  /**
   * Reads the page to fill in, when it is not always a built file (a server page rendered on
   * request, #31); default: the live build's file of `path` (`sitePage`).
   */
  page?: (c: Context<AppEnv>) => Promise<string | null>;
}

/** Names the public form a route serves, so that `app.onError` answers its refused posts with its page. */
export const publicForm =
  (form: PublicForm): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    c.set('form', form);
    await next();
  };

/** Whether the request is a form post (what a browser without JavaScript sends). */
const isFormPost = (c: Context): boolean =>
  /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(c.req.header('content-type') ?? '');

/** The first message of each refused field. */
function messagesByField(err: ApiError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of err.issues ?? []) {
    const field = issue.path.split('.')[0] ?? '';
    if (field && !out[field]) out[field] = issue.message;
  }
  return out;
}

/**
 * The no-JavaScript answer to a refused form post (called by `app.onError`): the form's own page,
 * filled in with what was typed, each field's message and the summary (status of the error: 400,
 * 403, 429...). Undefined for JSON callers, routes without a form and server faults (5xx keep the
 * envelope and its Retry-After). Where the built page cannot be read (a test app without a site)
 * it is a 303 back to the form with the error code and the field names, which the island shows.
 */
export async function formFailure(c: Context<AppEnv>, err: ApiError): Promise<Response | undefined> {
  const form = c.get('form');
  if (!form || err.status >= 500) return undefined;
  const body = c.get('body');
  // Refused before its body was read: only the rate limit is answered with the page (a post from
  // another site keeps its plain 403, and an unreadable body its envelope).
  if (body ? body.kind !== 'form' : err.code !== 'rate_limited' || !isFormPost(c)) return undefined;
  // Refused before its body was read: read it now to give it back.
  const data = (body ?? (await readBody(c, true).catch(() => undefined)))?.data;
  const values = data && typeof data === 'object' ? (data as Record<string, unknown>) : {};
  const errors = messagesByField(err);
  const fields = Object.keys(errors);
  const summary =
    err.code !== 'validation_failed'
      ? err.message
      : form.summary === 'message'
        ? (Object.values(errors)[0] ?? err.message)
        : invalidFieldsSummary(fields, form.labels);
  const page = await (form.page ? form.page(c) : c.get('deps').sitePage?.(form.path))?.catch(() => null);
  const html = page ? fillFormPage(page, form.action, { values, errors, summary }) : null;
  if (html !== null) {
    return c.html(html, err.status as ContentfulStatusCode, { 'Cache-Control': 'no-store', ...err.headers });
  }
  if (form.fallback) return c.redirect(form.fallback(err.code), 303);
  const query = new URLSearchParams({ error: err.code });
  if (fields.length) query.set('fields', fields.join(','));
  return c.redirect(`${form.path}?${query.toString().replace(/%2C/g, ',')}`, 303);
}
