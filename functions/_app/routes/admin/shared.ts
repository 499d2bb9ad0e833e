import type { Context } from 'hono';
import type { z } from 'zod';
import { recordAudit } from '../../../../db/queries/audit';
import { ApiError } from '../../lib/errors';
import { parseWith, readBody } from '../../lib/validate';
import type { AdminEnv } from '../../middleware/auth';

/** Context of an admin handler. */
export type AdminContext = Context<AdminEnv>;

/** The positive integer `:id` path parameter, or 404. */
export function idParam(c: AdminContext, name = 'id'): number {
  const raw = c.req.param(name) ?? '';
  const id = Number(raw);
  if (!/^\d{1,12}$/.test(raw) || !Number.isSafeInteger(id) || id < 1) {
    throw new ApiError(404, 'not_found', `No record ${raw}`);
  }
  return id;
}

/** Parses the query string with a schema (400 naming each bad field). */
export const parseQuery = <S extends z.ZodType>(c: AdminContext, schema: S): z.output<S> =>
  parseWith(schema, c.req.query());

/** Reads and parses the JSON or form body with a schema. */
export async function parseBody<S extends z.ZodType>(c: AdminContext, schema: S): Promise<z.output<S>> {
  const { data } = await readBody(c);
  return parseWith(schema, data);
}

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

/** Marks the public site dirty after a change visitors see (coalesced by the trigger). */
export function requestRebuild(c: AdminContext, reason: string): void {
  c.get('deps').rebuild?.request(reason);
}

/** 404 with the entity named. */
export const notFound = (entity: string, id: number | string): ApiError =>
  new ApiError(404, 'not_found', `No ${entity} ${id}`);
