import { zValidator } from '@hono/zod-validator';
import type { Context } from 'hono';
import { z } from 'zod';
import { isUniqueViolation } from '../../../../db/errors';
import { recordAudit } from '../../../../db/queries/audit';
import { ApiError } from '../../lib/errors';
import { validationHook } from '../../lib/validate';
import type { AdminEnv } from '../../middleware/auth';

/** Context of an admin handler. */
export type AdminContext = Context<AdminEnv>;

/** The `:id` of a console path: a record's positive integer id. */
export const idParamSchema = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,11}$/, 'Must be a record id')
    .transform(Number),
});

/** Validates the `:id` path parameter (400 naming id); handlers read it with `c.req.valid('param')`. */
export const idParam = zValidator('param', idParamSchema, validationHook);

/** Records the signed-in operator's write in the audit log. */
export function audit(
  c: AdminContext,
  action: string,
  entity: string,
  entityId: string | number | null,
  details?: Record<string, unknown>,
): Promise<void> {
  const op = c.get('operator');
  return recordAudit(c.get('deps').db, op, {
    action,
    entity,
    entityId,
    ...(details ? { details } : {}),
  });
}

/**
 * Marks the public site dirty after a change visitors see (coalesced by the trigger); `slugs`: the
 * listings whose pages it changes: with them, the change touches only those listings (their pages,
 * the listings they are in, the home), which Node publishes without a full build. Resolves once the
 * change is recorded (it survives a restart).
 */
export async function requestRebuild(
  c: AdminContext,
  reason: string,
  slugs: readonly (string | undefined)[] = [],
): Promise<void> {
  const pages = serverPaths(slugs);
  await c.get('deps').rebuild?.request(reason, pages, pages.length > 0 ? 'listings' : 'site');
}

/** The server pages of some listings (a missing slug is skipped). */
export const serverPaths = (slugs: readonly (string | undefined)[]): string[] =>
  slugs.filter((s): s is string => Boolean(s)).map((s) => `/server/${s}`);

/** 404 with the entity named. */
export const notFound = (entity: string, id: number | string): ApiError =>
  new ApiError(404, 'not_found', `No ${entity} ${id}`);

/** The row a lookup or write found, or the 404 naming the entity when there is none. */
export function found<T>(row: T | null | undefined, entity: string, id: number): T {
  if (row == null) throw notFound(entity, id);
  return row;
}

/** A `.catch()` for a write: a UNIQUE violation becomes the 409 `code`, anything else is rethrown. */
export const conflictOnDuplicate =
  (code: string, message: string) =>
  (err: unknown): never => {
    throw isUniqueViolation(err) ? new ApiError(409, code, message) : err;
  };
