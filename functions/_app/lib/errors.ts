import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import { isDbUnavailable } from '../../../db/errors';
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

/** Seconds a client should wait before retrying while the database is away. */
const DB_RETRY_AFTER_S = 5;

/** The envelope of an error code, message and field issues. */
export const envelope = (code: string, message: string, issues?: FieldIssue[]): ErrorBody => ({
  error: { code, message, ...(issues ? { issues } : {}) },
});

/** An error's answer: status, envelope and headers (Retry-After...). */
export interface ErrorAnswer {
  status: ContentfulStatusCode;
  body: ErrorBody;
  headers?: Record<string, string> | undefined;
}

/**
 * The one mapping from a thrown error to its answer (app.onError, and the events path that runs
 * outside the chain): an ApiError as it says, another HTTPException as `http_error`, a database
 * that cannot be reached as 503 with Retry-After, anything else logged with the request id and
 * answered 500 without internals.
 */
export function errorAnswer(err: unknown, requestId: string): ErrorAnswer {
  if (err instanceof ApiError) {
    return {
      status: err.status as ContentfulStatusCode,
      body: envelope(err.code, err.message, err.issues),
      headers: err.headers,
    };
  }
  if (err instanceof HTTPException) {
    // Hono's json validator (zValidator) refuses a body it cannot parse with this message.
    if (err.status === 400 && /^Malformed JSON/.test(err.message)) {
      return { status: 400, body: envelope('invalid_json', 'The body is not valid JSON') };
    }
    return {
      status: err.status as ContentfulStatusCode,
      body: envelope('http_error', err.message || 'Request failed'),
    };
  }
  if (isDbUnavailable(err)) {
    console.error(`[${requestId}] database unavailable:`, err);
    return {
      status: 503,
      body: envelope('db_unavailable', 'The service is temporarily unavailable. Please try again shortly.'),
      headers: { 'Retry-After': String(DB_RETRY_AFTER_S) },
    };
  }
  console.error(`[${requestId}] unexpected error:`, err);
  return { status: 500, body: envelope('internal_error', `Something went wrong (request ${requestId})`) };
}
