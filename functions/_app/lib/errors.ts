import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import { type FieldLabels, invalidFieldsSummary } from '../../../src/lib/schemas/labels';

/** One field problem in the error envelope. */
export interface FieldIssue {
  path: string;
  message: string;
}

/** The one error envelope every /api answer uses. */
export interface ErrorBody {
  error: { code: string; message: string; issues?: FieldIssue[] };
}

/** An HTTPException that carries the envelope's code, message and field issues. */
export class ApiError extends HTTPException {
  constructor(
    status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly issues?: FieldIssue[],
    readonly headers?: Record<string, string>,
  ) {
    super(status, { message });
  }
}

/** Turns zod issues into `{ path, message }` pairs (path joined with dots, '' for the root). */
export const toFieldIssues = (error: z.ZodError): FieldIssue[] =>
  error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));

/**
 * 400 naming every bad field. With the form's labels (a public form's, src/lib/schemas/labels.ts)
 * the message is the sentence the form shows ("Please check these 2 fields: Description and
 * Invite link."); without, the field names as sent.
 */
export const validationError = (error: z.ZodError, labels?: FieldLabels): ApiError => {
  const issues = toFieldIssues(error);
  const fields = issues.map((i) => i.path.split('.')[0] || 'body');
  return new ApiError(
    400,
    'validation_failed',
    labels ? invalidFieldsSummary(fields, labels) : `Invalid ${[...new Set(fields)].join(', ')}`,
    issues,
  );
};

/** True for errors that mean the database cannot be reached (as opposed to a bad query). */
export function isDbUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  let e: unknown = err;
  while (e && typeof e === 'object' && !seen.has(e)) {
    seen.add(e);
    const { code, message } = e as { code?: unknown; message?: unknown };
    const text = `${String(code ?? '')} ${String(message ?? '')}`;
    if (
      /SQLITE_(CANTOPEN|BUSY|LOCKED|IOERR|NOTADB|READONLY)|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|fetch failed|SERVER_ERROR|HRANA_WEBSOCKET|database is locked|unable to open database|CLIENT_CLOSED|Network connection lost/i.test(
        text,
      )
    ) {
      return true;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
