import type { Context, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import type { FieldLabels } from '../../../src/lib/schemas/labels';
import type { AppEnv } from '../context';
import { ApiError, validationError } from './errors';
import { nodeBody, readNodeBody } from './node-body';

/** Largest request body any endpoint reads (middleware/body-limit.ts enforces it in app.ts). */
export const BODY_LIMIT_BYTES = 32 * 1024;

/** How a body came: JSON (fetch, sendBeacon's text/plain) or a form post (a browser without JavaScript). */
export type BodyKind = 'json' | 'form';

/** A request body as it was read, before validation (kept on the context for Turnstile and the form page). */
export interface ReadBody {
  kind: BodyKind;
  data: unknown;
}

/** The 413 of a body over BODY_LIMIT_BYTES. */
export const payloadTooLarge = () =>
  new ApiError(413, 'payload_too_large', `The body is larger than ${BODY_LIMIT_BYTES / 1024} KB`);

const mediaType = (c: Context): string => (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();

const utf8 = new TextDecoder();

/**
 * The body as text: on Node straight from the request stream (lib/node-body.ts), about a tenth
 * less server CPU per small post than @hono/node-server's c.req.text(), which reads the same
 * stream through a promise, four listeners, a microtask and a copy (docs/SCALING.md section 6);
 * elsewhere (the Worker, app.request()) and once the web body was opened, through the web Request.
 */
async function readText(c: Context): Promise<string> {
  const incoming = nodeBody(c);
  return incoming ? utf8.decode(await readNodeBody(incoming)) : c.req.text();
}

/**
 * Reads a JSON body (also as text/plain, what navigator.sendBeacon sends for a string), or with
 * `forms` a urlencoded/multipart form into a plain object (repeated fields become arrays); 415
 * for anything else, 400 when malformed.
 */
export async function readBody(c: Context, forms: boolean): Promise<ReadBody> {
  const type = mediaType(c);
  if (type === 'application/json' || type === 'text/plain') {
    const text = await readText(c);
    try {
      return { kind: 'json', data: JSON.parse(text) };
    } catch {
      throw new ApiError(400, 'invalid_json', 'The body is not valid JSON');
    }
  }
  if (forms && (type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data')) {
    let form: Record<string, string | File | (string | File)[]>;
    try {
      form = await c.req.parseBody({ all: true });
    } catch {
      throw new ApiError(400, 'invalid_form', 'The form body could not be read');
    }
    const data: Record<string, string | string[]> = {};
    for (const [key, value] of Object.entries(form)) {
      const strings = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
      if (strings.length) data[key] = strings.length === 1 ? strings[0]! : strings;
    }
    return { kind: 'form', data };
  }
  throw new ApiError(415, 'unsupported_media_type', `Send application/json${forms ? ' or a form body' : ''}`);
}

/**
 * Parses `data` with `schema`, throwing the 400 envelope with every bad field named (by its label
 * when the form's `labels` are given).
 */
export function parseWith<S extends z.ZodType>(schema: S, data: unknown, labels?: FieldLabels): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) throw validationError(result.error, labels);
  return result.data;
}

/**
 * The hook every `zValidator(target, schema, validationHook)` passes: a failed parse throws the
 * 400 envelope naming each bad field, which `app.onError` answers (one error envelope).
 */
export function validationHook(result: { success: true } | { success: false; error: z.core.$ZodError }): void {
  if (!result.success) throw validationError(result.error as z.ZodError);
}

/**
 * The validator of a public write's body over a shared zod schema, typed as Hono's own validators
 * are (input: the schema's input, for `hc`; `c.req.valid('json')`: its output). JSON for the
 * islands and `hc` callers (text/plain too: sendBeacon), and with `forms` the same fields as a form
 * post from a browser without JavaScript, which Hono's `validator('json')` would not read. The body
 * as read is kept on the context (`body`) for the checks after validation (Turnstile) and the form
 * page of a refused post; `labels` name the fields in the 400's message as the form shows them.
 */
export function body<S extends z.ZodType>(
  schema: S,
  options: { labels?: FieldLabels; forms?: boolean } = {},
): MiddlewareHandler<AppEnv, string, { in: { json: z.input<S> }; out: { json: z.output<S> } }> {
  return async (c, next) => {
    const read = await readBody(c, options.forms ?? false);
    c.set('body', read);
    c.req.addValidatedData('json', parseWith(schema, read.data, options.labels) as object);
    await next();
  };
}
