import { count, desc } from 'drizzle-orm';
import type { Db } from '../client';
import { type AuditRow, auditLog } from '../schema';

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
export async function listAudit(
  db: Db,
  { page = 1, perPage = 50 }: { page?: number; perPage?: number } = {},
): Promise<{ entries: AuditEntry[]; total: number }> {
  const [entries, totals] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .orderBy(desc(auditLog.created_at), desc(auditLog.id))
      .limit(perPage)
      .offset((page - 1) * perPage),
    db.select({ n: count() }).from(auditLog),
  ]);
  return { entries, total: Number(totals[0]?.n ?? 0) };
}
