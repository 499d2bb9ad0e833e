import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { ReportStatus } from '../../src/lib/enums';
import type { Db } from '../client';
import { discordServers, type ReportRow, serverReports, userInteractions } from '../schema';
import { type AuditWrite, auditStatements } from './audit';
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

/** One listing's open reports (the Reports screen), newest first. */
export interface ReportGroup extends ReportCount {
  reports: Report[];
}

/**
 * One page of the Reports screen: the listings with open reports (most open first, as
 * countReportsByServer), each with every open report about it; `total` counts the listings and
 * `open` the open reports of all of them.
 */
export async function pageOpenReportGroups(
  db: Db,
  options: { page?: number | undefined; perPage?: number | undefined } = {},
): Promise<{ groups: ReportGroup[]; total: number; open: number }> {
  const perPage = options.perPage ?? 25;
  const all = await countReportsByServer(db, 'open');
  const shown = all.slice(((options.page ?? 1) - 1) * perPage, (options.page ?? 1) * perPage);
  const reports = shown.length
    ? await db
        .select()
        .from(serverReports)
        .where(
          and(
            eq(serverReports.status, 'open'),
            inArray(
              serverReports.server_id,
              shown.map((g) => g.server_id),
            ),
          ),
        )
        .orderBy(desc(serverReports.created_at), asc(serverReports.id))
    : [];
  return {
    groups: shown.map((g) => ({ ...g, reports: reports.filter((r) => r.server_id === g.server_id) })),
    total: all.length,
    open: all.reduce((n, g) => n + g.open, 0),
  };
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

/** One report by id, or null. */
export async function getReportById(db: Db, id: number): Promise<Report | null> {
  const [row] = await db.select().from(serverReports).where(eq(serverReports.id, id)).limit(1);
  return row ?? null;
}

/**
 * The statements that close a report, for the batch of the action that closes it: its status with
 * the time, its audit row (only when the report is there) and, when `serverWide` (its listing was
 * hidden), every other open report about the same listing resolved with it.
 */
export function closeReportStatements(
  db: Db,
  report: Pick<Report, 'id' | 'server_id'>,
  status: Exclude<ReportStatus, 'open'>,
  audit: AuditWrite,
  options: { serverWide: boolean; at: string },
): [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]] {
  // Only an open report is closed: one decided already is left as it stands, and its audit row (which
  // follows, written only when this changed a row) is not written again.
  const close = db
    .update(serverReports)
    .set({ status, resolved_at: options.at })
    .where(and(eq(serverReports.id, report.id), eq(serverReports.status, 'open')));
  const others = db
    .update(serverReports)
    .set({ status: 'resolved', resolved_at: options.at })
    .where(
      and(
        eq(serverReports.server_id, report.server_id),
        eq(serverReports.status, 'open'),
        ne(serverReports.id, report.id),
      ),
    );
  return [close, ...auditStatements(db, audit), ...(options.serverWide ? [others] : [])];
}
