import { and, desc, eq, sql } from 'drizzle-orm';
import type { ReportStatus } from '../../src/lib/enums';
import type { Db } from '../client';
import { discordServers, type ReportRow, serverReports, userInteractions } from '../schema';
import { type AuditAuthor, auditRowWhen } from './audit';
import type { InteractionWrite } from './interactions';
import { type PageOptions, pageNewestFirst } from './paginate';

/** A stored report. */
export type Report = ReportRow;
/** What a visitor sends with a report. */
export type ReportWrite = Pick<typeof serverReports.$inferInsert, 'server_id' | 'reason' | 'details' | 'session_id'>;

/** Filter and page of listReports. */
export interface ReportListOptions extends PageOptions {
  status?: ReportStatus | undefined;
  serverId?: number | undefined;
}

/** Per server: how many reports it has, how many open, and when the latest came. */
export interface ReportCount {
  server_id: number;
  name: string | null;
  slug: string | null;
  total: number;
  open: number;
  latest_at: string;
}

/**
 * Stores a report (status open) and, in the same batch, its tracking interaction when given,
 * so a report is never stored without its event or the other way round.
 */
export async function createReport(db: Db, input: ReportWrite, interaction?: InteractionWrite): Promise<Report> {
  const insert = db
    .insert(serverReports)
    .values({
      server_id: input.server_id,
      reason: input.reason,
      details: input.details ?? null,
      session_id: input.session_id ?? null,
      status: 'open',
    })
    .returning();
  if (!interaction) {
    const [row] = await insert;
    return row!;
  }
  const [rows] = await db.batch([insert, db.insert(userInteractions).values(interaction)]);
  return rows[0]!;
}

/** Reports newest first, optionally of one status and one server, one page with the total. */
export async function listReports(
  db: Db,
  options: ReportListOptions = {},
): Promise<{ reports: Report[]; total: number }> {
  const where = and(
    options.status ? eq(serverReports.status, options.status) : undefined,
    options.serverId !== undefined ? eq(serverReports.server_id, options.serverId) : undefined,
  );
  const { rows, total } = await pageNewestFirst(db, serverReports, where, options);
  return { reports: rows, total };
}

/** Reports grouped by server, most open reports first (the moderation queue). */
export async function countReportsByServer(db: Db, status?: ReportStatus): Promise<ReportCount[]> {
  const rows = await db
    .select({
      server_id: serverReports.server_id,
      name: discordServers.name,
      slug: discordServers.slug,
      total: sql<number>`count(*)`,
      open: sql<number>`coalesce(sum(${serverReports.status} = 'open'), 0)`.as('open'),
      latest_at: sql<string>`max(${serverReports.created_at})`.as('latest_at'),
    })
    .from(serverReports)
    .leftJoin(discordServers, eq(discordServers.id, serverReports.server_id))
    .where(status ? eq(serverReports.status, status) : undefined)
    .groupBy(serverReports.server_id)
    .orderBy(desc(sql`open`), desc(sql`latest_at`));
  return rows.map((r) => ({ ...r, total: Number(r.total), open: Number(r.open) }));
}

/** One report by id, or null. */
export async function getReportById(db: Db, id: number): Promise<Report | null> {
  const [row] = await db.select().from(serverReports).where(eq(serverReports.id, id)).limit(1);
  return row ?? null;
}

/** What closeReport did: closed it now, or why not (no such report; closed already, as it stands). */
export type CloseReportResult =
  | { ok: true; report: Report }
  | { ok: false; reason: 'missing' }
  | { ok: false; reason: 'closed'; report: Report };

/**
 * Closes an open report as resolved or dismissed, with the operator's audit row in the same batch
 * (written only when this call closed it): a report already closed is left as it is, so deciding
 * it again writes nothing (it once took a second decision and a second audit row).
 */
export async function closeReport(
  db: Db,
  id: number,
  status: Exclude<ReportStatus, 'open'>,
  audit: { author: AuditAuthor; action: string; details: (report: Report) => Record<string, unknown> },
  now = Date.now(),
): Promise<CloseReportResult> {
  const current = await getReportById(db, id);
  if (!current) return { ok: false, reason: 'missing' };
  if (current.status !== 'open') return { ok: false, reason: 'closed', report: current };
  const [closed] = await db.batch([
    db
      .update(serverReports)
      .set({ status, resolved_at: new Date(now).toISOString() })
      .where(and(eq(serverReports.id, id), eq(serverReports.status, 'open')))
      .returning(),
    auditRowWhen(
      db,
      audit.author,
      { action: audit.action, entity: 'report', entityId: id, details: audit.details(current) },
      sql`changes() = 1`,
    ),
  ]);
  if (closed[0]) return { ok: true, report: closed[0] };
  const after = await getReportById(db, id);
  return after ? { ok: false, reason: 'closed', report: after } : { ok: false, reason: 'missing' };
}

/** Resolves every open report of a listing (a hide answers them all); the ids resolved. */
export async function resolveOpenReports(db: Db, serverId: number, now = Date.now()): Promise<number[]> {
  const rows = await db
    .update(serverReports)
    .set({ status: 'resolved', resolved_at: new Date(now).toISOString() })
    .where(and(eq(serverReports.server_id, serverId), eq(serverReports.status, 'open')))
    .returning({ id: serverReports.id });
  return rows.map((r) => r.id);
}

/** Sets a report's status; resolving or dismissing records the time. Returns the row or null. */
export async function setReportStatus(db: Db, id: number, status: ReportStatus): Promise<Report | null> {
  const [row] = await db
    .update(serverReports)
    .set({ status, resolved_at: status === 'open' ? null : new Date().toISOString() })
    .where(eq(serverReports.id, id))
    .returning();
  return row ?? null;
}
