import { zValidator } from '@hono/zod-validator';
import type { Context } from 'hono';
import { z } from 'zod';
import { isUniqueViolation } from '../../../../db/errors';
import { AUDITED, type AuditWrite, recordAudit } from '../../../../db/queries/audit';
import { ApiError } from '../../lib/errors';
import { type PendingPublish, preparePublish, requestPublish, serverPaths } from '../../lib/site-changes';
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
 * The signed-in operator's audit row for a query to write in the batch of its change
 * (auditStatements in db/queries/audit.ts), with `change`, the record of the public change it makes
 * (prepareRebuild), after it: a failure of any leaves none.
 */
export function auditOf(
  c: AdminContext,
  action: string,
  entity: string,
  entityId: AuditWrite['entityId'],
  details: AuditWrite['details'] = {},
  change?: PendingPublish,
): AuditWrite {
  const op = c.get('operator');
  return {
    author: { operatorId: op.id, name: op.email },
    action,
    entity,
    entityId,
    details,
    ...(change ? { publish: change.statements } : {}),
  };
}

/**
 * A console change's record (preparePublish, lib/site-changes.ts) for the listings `slugs` names,
 * to ride in its write's batch right after the audit row (auditOf's `change`; written only when that
 * row is, AUDITED); the route awaits `requested()` once the write is stored.
 */
export function prepareRebuild(
  c: AdminContext,
  reason: string,
  slugs: readonly (string | undefined)[] = [],
): PendingPublish {
  const { rebuild, db } = c.get('deps');
  return preparePublish(rebuild, db, reason, serverPaths(slugs), AUDITED);
}

/**
 * requestPublish (lib/site-changes.ts) for the listings `slugs` names, from a console route, after
 * its write is stored: only where the pages are known once the write is done (prepareRebuild else).
 */
export async function requestRebuild(
  c: AdminContext,
  reason: string,
  slugs: readonly (string | undefined)[] = [],
): Promise<void> {
  await requestPublish(c.get('deps').rebuild, reason, serverPaths(slugs));
}

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
