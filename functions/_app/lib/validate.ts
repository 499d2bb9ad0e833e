import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError, validationError } from './errors';

/** Largest request body any public endpoint reads. */
export const BODY_LIMIT_BYTES = 32 * 1024;

export type BodyKind = 'json' | 'form';

/**
 * Reads a JSON or urlencoded/multipart form body (415 for anything else, 400 when malformed)
 * into a plain object. Repeated form fields become arrays.
 */
export async function readBody(c: Context): Promise<{ kind: BodyKind; data: unknown }> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json' || type === 'text/plain') {
    // text/plain is what navigator.sendBeacon sends for a string body.
    const raw = await c.req.text();
    try {
      return { kind: 'json', data: JSON.parse(raw) };
    } catch {
      throw new ApiError(400, 'invalid_json', 'The body is not valid JSON');
    }
  }
  if (type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data') {
    let form: FormData;
    try {
      form = await c.req.formData();
    } catch {
      throw new ApiError(400, 'invalid_form', 'The form body could not be read');
    }
    const data: Record<string, string | string[]> = {};
    for (const [key, value] of form.entries()) {
      if (typeof value !== 'string') continue;
      const prev = data[key];
      data[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
    }
    return { kind: 'form', data };
  }
  throw new ApiError(415, 'unsupported_media_type', 'Send application/json or a form body');
}

/** Parses `data` with `schema`, throwing the 400 envelope with every bad field named. */
export function parseWith<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) throw validationError(result.error);
  return result.data;
}
