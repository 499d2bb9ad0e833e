import { is, SQL, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
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

/** Who an audit row names: an operator (id and e-mail), or an owner (no id, their Discord name). */
export interface AuditAuthor {
  operatorId: number | null;
  name: string;
}

/**
 * The INSERT of one audit row, written only while `when` holds, for a batch with the write it
 * records: a failure of either leaves neither. `details` may hold SQL (an id the batch creates).
 */
export function auditRowWhen(
  db: Db,
  author: AuditAuthor,
  entry: { action: string; entity: string; entityId: string | number | SQL; details: Record<string, unknown | SQL> },
  when: SQL,
) {
  const details = sql.join(
    Object.entries(entry.details).map(([key, value]) =>
      is(value, SQL) ? sql`${key}, ${value}` : sql`${key}, json(${JSON.stringify(value ?? null)})`,
    ),
    sql`, `,
  );
  const entityId = is(entry.entityId, SQL) ? entry.entityId : sql`${String(entry.entityId)}`;
  return db.run(sql`INSERT INTO ${auditLog} (operator_id, operator_email, action, entity, entity_id, details)
SELECT ${author.operatorId}, ${author.name}, ${entry.action}, ${entry.entity}, CAST(${entityId} AS TEXT), json_object(${details})
WHERE ${when}`);
}

/**
 * The id of the row the statement before it in a batch inserted: the entity id of an audit row that
 * records a creation (auditStatement runs right after it).
 */
export const INSERTED_ID = sql`last_insert_rowid()`;

/** One operator's audit row, for the batch of the write it records (see auditStatement). */
export interface AuditWrite {
  author: AuditAuthor;
  action: string;
  entity: string;
  entityId: string | number | SQL;
  details?: Record<string, unknown | SQL>;
  /**
   * The record of the public change the write makes (site_changes rows: RebuildTrigger.prepare),
   * to follow the audit row in the same batch (auditStatements); built with `when` AUDITED, they are
   * written only when the audit row was.
   */
  publish?: BatchItem<'sqlite'>[];
}

/** Holds right after an audit row from auditStatement: it was written (its write changed a row). */
export const AUDITED = sql`changes() > 0`;

/**
 * The INSERT of `write`'s audit row, to sit in a batch right after the statement that makes the
 * change it records: written only when that statement changed a row (or while `when` holds), so a
 * failure of either leaves neither and a write that touched nothing is not audited.
 */
export function auditStatement(db: Db, write: AuditWrite, when: SQL = sql`changes() > 0`) {
  return auditRowWhen(
    db,
    write.author,
    { action: write.action, entity: write.entity, entityId: write.entityId, details: write.details ?? {} },
    when,
  );
}

/**
 * auditStatement, then the record of the public change the write makes (`write.publish`): the
 * statements to put in a batch right after the write, one way for every console write.
 */
export function auditStatements(db: Db, write: AuditWrite, when?: SQL): BatchItem<'sqlite'>[] {
  return [auditStatement(db, write, when), ...(write.publish ?? [])];
}

/**
 * Runs `change` and, when `audit` is given, its audit row right after it in one batch (written only
 * when the change touched a row) with the record of its public change (`audit.publish`): all or
 * none. The change's own result, as awaiting it gives.
 */
export async function withAudit<T>(
  db: Db,
  change: BatchItem<'sqlite'> & PromiseLike<T>,
  audit?: AuditWrite,
): Promise<T> {
  if (!audit) return await change;
  const [result] = await db.batch([change, ...auditStatements(db, audit)]);
  return result as T;
}

/** One page of the audit log, newest first, with the total. */
export async function listAudit(db: Db, options: PageOptions = {}): Promise<{ entries: AuditEntry[]; total: number }> {
  const { rows, total } = await pageNewestFirst(db, auditLog, undefined, options);
  return { entries: rows, total };
}
