import type { Db } from '../client';
import { type AuditRow, auditLog } from '../schema';
import { type PageOptions, pageNewestFirst } from './paginate';

/** One audit_log row. */
export type AuditEntry = AuditRow;

/** Who wrote: the signed-in operator. */
export interface AuditActor {
  id: number;
  email: string;
}

/** Records one operator write: who, what action, on which record, with what details. */
export async function recordAudit(
  db: Db,
  actor: AuditActor,
  entry: { action: string; entity: string; entityId?: string | number | null; details?: Record<string, unknown> },
): Promise<void> {
  await db.insert(auditLog).values({
    operator_id: actor.id,
    operator_email: actor.email,
    action: entry.action,
    entity: entry.entity,
    entity_id: entry.entityId == null ? null : String(entry.entityId),
    details: entry.details ?? null,
  });
}

/** One page of the audit log, newest first, with the total. */
export async function listAudit(db: Db, options: PageOptions = {}): Promise<{ entries: AuditEntry[]; total: number }> {
  const { rows, total } = await pageNewestFirst(db, auditLog, undefined, options);
  return { entries: rows, total };
}
