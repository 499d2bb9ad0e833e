import { and, asc, desc, eq, gt, gte, inArray, isNotNull, isNull, ne, notInArray, type SQL, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { AppealOutcome, DecisionKind } from '../../src/lib/enums';
import { type LogEvent, type MonthLog, monthLog } from '../../src/lib/moderation/log';
import { QUEUE_WINDOW_DAYS, type QueueFigures, queueFigures } from '../../src/lib/moderation/queue';
import type { Db } from '../client';
import {
  auditLog,
  type DecisionRow,
  discordServers,
  moderationDecisions,
  operators,
  type SubmissionRow,
  serverReports,
  serverSubmissions,
} from '../schema';
import { auditRowWhen } from './audit';
import { enqueueMailWhen, type RenderedMail } from './mail';

const DAY_MS = 86_400_000;

/**
 * The queue figures at `now` (#32): submissions waiting (pending or under review), and the time
 * from submission to decision of every submission decided in the last QUEUE_WINDOW_DAYS days.
 */
export async function readQueueFigures(db: Db, now = Date.now()): Promise<QueueFigures> {
  const since = new Date(now - QUEUE_WINDOW_DAYS * DAY_MS).toISOString();
  const [decided, [waiting]] = await Promise.all([
    db
      .select({ created_at: serverSubmissions.created_at, decided_at: serverSubmissions.decided_at })
      .from(serverSubmissions)
      .where(and(isNotNull(serverSubmissions.decided_at), gte(serverSubmissions.decided_at, since))),
    db
      .select({ n: sql<number>`count(*)` })
      .from(serverSubmissions)
      .where(inArray(serverSubmissions.status, ['pending', 'under_review'])),
  ]);
  return queueFigures(
    decided.map((d) => Date.parse(d.decided_at!) - Date.parse(d.created_at)),
    Number(waiting?.n ?? 0),
  );
}

/** Who decides, and why (#32): the reasons picked, the requirement a "requirement" reason names, the note. */
export interface DecisionInput {
  reasons: string[];
  requirement: string | null;
  note: string | null;
  operator: { id: number; email: string };
  /** The decision's random key, which its signed appeal link names (functions/_app/lib/appeal-link.ts). */
  appealKey: string;
}

const json = (v: unknown) => JSON.stringify(v);
const decisionIdOf = (key: string) => sql`(SELECT id FROM ${moderationDecisions} WHERE appeal_key = ${key})`;

/** The decision's row as one INSERT … SELECT … WHERE `when`, for a batch after the write it records. */
function insertDecision(
  db: Db,
  d: DecisionInput,
  row: {
    kind: DecisionKind;
    submissionId: number | null;
    serverId: number | null;
    serverName: string;
    contactEmail: string | null;
  },
  when: SQL,
) {
  return db.run(sql`INSERT INTO ${moderationDecisions}
  (kind, submission_id, server_id, server_name, reasons, requirement, note, contact_email, operator_id, appeal_key)
SELECT ${row.kind}, ${row.submissionId}, ${row.serverId}, ${row.serverName}, ${json(d.reasons)}, ${d.requirement},
  ${d.note}, ${row.contactEmail}, ${d.operator.id}, ${d.appealKey}
WHERE ${when}`);
}

/**
 * One decision's batch, all or nothing: `change` (what the decision does), the decision row only
 * when that change touched a row, then, only once the decision exists, its audit row (the reasons,
 * the requirement and the decision's id in its details, between `lead` and `more`) and what
 * `after` adds (the mail, the caller's statements). The decision, or null when nothing changed.
 */
async function decide(
  db: Db,
  d: DecisionInput,
  change: BatchItem<'sqlite'>,
  row: Parameters<typeof insertDecision>[2],
  audit: {
    action: string;
    entity: string;
    entityId: number;
    lead?: Record<string, unknown>;
    more?: Record<string, unknown>;
  },
  after: (made: SQL) => BatchItem<'sqlite'>[],
): Promise<DecisionRow | null> {
  const made = sql`EXISTS (SELECT 1 FROM ${moderationDecisions} WHERE appeal_key = ${d.appealKey})`;
  const details = {
    ...audit.lead,
    reasons: d.reasons,
    requirement: d.requirement,
    decision_id: decisionIdOf(d.appealKey),
    ...audit.more,
  };
  await db.batch([
    change,
    insertDecision(db, d, row, sql`changes() = 1`),
    auditRowWhen(
      db,
      { operatorId: d.operator.id, name: d.operator.email },
      { action: audit.action, entity: audit.entity, entityId: audit.entityId, details },
      made,
    ),
    ...after(made),
  ]);
  return getDecisionByKey(db, d.appealKey);
}

/**
 * Rejects a submission not yet decided (#32) with its reasons: the status, the decision (appealable
 * once), its audit row, the "rejected" mail and any further statements the caller adds (an owner's
 * webhook notice) in one batch, all or nothing, and only when this call rejected it. The decision
 * row, or null when the submission was not there to reject (gone, or decided meanwhile).
 */
export async function rejectWithReasons(
  db: Db,
  submission: SubmissionRow,
  d: DecisionInput,
  mail: RenderedMail,
  extra: (when: SQL) => BatchItem<'sqlite'>[] = () => [],
  now = Date.now(),
): Promise<DecisionRow | null> {
  const at = new Date(now).toISOString();
  return decide(
    db,
    d,
    db
      .update(serverSubmissions)
      .set({ status: 'rejected', admin_notes: d.note, updated_at: at, decided_at: at })
      .where(
        and(eq(serverSubmissions.id, submission.id), notInArray(serverSubmissions.status, ['rejected', 'approved'])),
      ),
    {
      kind: 'rejection',
      submissionId: submission.id,
      serverId: null,
      serverName: submission.server_name,
      contactEmail: submission.contact_email,
    },
    { action: 'reject', entity: 'submission', entityId: submission.id },
    (made) => [
      enqueueMailWhen(
        db,
        {
          kind: 'submission_rejected',
          to: submission.contact_email,
          dedupeKey: sql`${`submission-rejected:${submission.id}:${d.appealKey}`}`,
          mail,
        },
        made,
      ),
      ...extra(made),
    ],
  );
}

/**
 * Hides a live listing (#32) with its reasons: the listing off every list, the decision (appealable
 * once), its audit row, the "hidden" mail to its contact address (when it has one) and the caller's
 * further statements in one batch, only when this call hid it. The decision, or null when the
 * listing was not live.
 */
export async function hideListing(
  db: Db,
  server: { id: number; name: string; slug: string },
  d: DecisionInput,
  contact: { email: string; mail: RenderedMail } | null,
  details: Record<string, unknown> = {},
  extra: (when: SQL) => BatchItem<'sqlite'>[] = () => [],
  now = Date.now(),
): Promise<DecisionRow | null> {
  return decide(
    db,
    d,
    db
      .update(discordServers)
      .set({ is_active: false, updated_at: new Date(now).toISOString() })
      .where(and(eq(discordServers.id, server.id), eq(discordServers.is_active, true))),
    {
      kind: 'hide',
      submissionId: null,
      serverId: server.id,
      serverName: server.name,
      contactEmail: contact?.email ?? null,
    },
    { action: 'hide', entity: 'server', entityId: server.id, lead: { slug: server.slug }, more: details },
    (made) => [
      ...(contact
        ? [
            enqueueMailWhen(
              db,
              {
                kind: 'listing_hidden',
                to: contact.email,
                dedupeKey: sql`${`listing-hidden:${server.id}:${d.appealKey}`}`,
                mail: contact.mail,
              },
              made,
            ),
          ]
        : []),
      ...extra(made),
    ],
  );
}

/** One decision by its appeal key, or null. */
export async function getDecisionByKey(db: Db, key: string): Promise<DecisionRow | null> {
  const [row] = await db.select().from(moderationDecisions).where(eq(moderationDecisions.appeal_key, key)).limit(1);
  return row ?? null;
}

/** One decision by id, or null. */
export async function getDecisionById(db: Db, id: number): Promise<DecisionRow | null> {
  const [row] = await db.select().from(moderationDecisions).where(eq(moderationDecisions.id, id)).limit(1);
  return row ?? null;
}

/** What an appeal did: stored, or why not (no such decision; already appealed once). */
export type AppealResult = { ok: true; decision: DecisionRow } | { ok: false; reason: 'unknown' | 'already_appealed' };

/**
 * Stores the one appeal of a decision (#32): a conditional UPDATE, so of two appeals at once one is
 * stored; its audit row in the same batch, only when it was.
 */
export async function submitAppeal(db: Db, key: string, text: string, now = Date.now()): Promise<AppealResult> {
  const at = new Date(now).toISOString();
  await db.batch([
    db
      .update(moderationDecisions)
      .set({ appeal_text: text, appealed_at: at })
      .where(and(eq(moderationDecisions.appeal_key, key), isNull(moderationDecisions.appealed_at))),
    auditRowWhen(
      db,
      { operatorId: null, name: 'appellant (signed link)' },
      { action: 'appeal', entity: 'decision', entityId: decisionIdOf(key), details: { chars: text.length } },
      sql`changes() = 1`,
    ),
  ]);
  const decision = await getDecisionByKey(db, key);
  if (!decision) return { ok: false, reason: 'unknown' };
  if (decision.appealed_at !== at) return { ok: false, reason: 'already_appealed' };
  return { ok: true, decision };
}

/** An appeal waiting in the console's queue. */
export type PendingAppeal = DecisionRow;

/** The appeals waiting for a decision, oldest first. */
export async function listPendingAppeals(db: Db): Promise<PendingAppeal[]> {
  return db
    .select()
    .from(moderationDecisions)
    .where(and(isNotNull(moderationDecisions.appealed_at), isNull(moderationDecisions.appeal_outcome)))
    .orderBy(asc(moderationDecisions.appealed_at))
    .limit(200);
}

/** Whether any operator other than `operatorId` exists: then an appeal must go to another moderator. */
export async function anotherOperatorExists(db: Db, operatorId: number): Promise<boolean> {
  const [row] = await db.select({ id: operators.id }).from(operators).where(ne(operators.id, operatorId)).limit(1);
  return row !== undefined;
}

/**
 * The decisions of the same kind about the same submission or listing made after `decision` whose
 * appeal was not overturned: they stand, so overturning `decision` must not undo them. A listing is
 * hidden only while live and a submission rejected only while undecided, so a later decision of the
 * kind means the earlier one had been lifted by hand meanwhile, and any hide or rejection in force
 * now is the later one's.
 */
function laterStanding(decision: DecisionRow) {
  const target =
    decision.kind === 'rejection'
      ? eq(moderationDecisions.submission_id, decision.submission_id ?? -1)
      : eq(moderationDecisions.server_id, decision.server_id ?? -1);
  return and(
    eq(moderationDecisions.kind, decision.kind),
    gt(moderationDecisions.id, decision.id),
    target,
    sql`coalesce(${moderationDecisions.appeal_outcome}, '') <> 'overturned'`,
  )!;
}

/** What deciding an appeal did: the decision as stored, and whether its effect was undone. */
export interface AppealDecided {
  decision: DecisionRow;
  /**
   * Overturned and undone (the submission back in the queue, the listing shown), or null: upheld,
   * or overturned while a later decision about the same submission or listing stands (its id).
   */
  lifted: boolean;
  standingDecisionId: number | null;
}

/**
 * Decides an appeal (#32): the outcome on the decision, and when overturned the rejection is undone
 * (the submission back in the queue) or the listing shown again, unless a later decision of the kind
 * about it stands (laterStanding: an appeal lifts only its own decision); the audit row, the outcome
 * mail (`mail(lifted)`, so it says which) and the caller's statements, in one batch, only when this
 * call decided it. What it did, or null when it was not waiting for a decision.
 */
export async function decideAppeal(
  db: Db,
  decision: DecisionRow,
  outcome: AppealOutcome,
  note: string | null,
  operator: { id: number; email: string },
  mail: ((lifted: boolean) => RenderedMail) | null,
  now = Date.now(),
  /** The caller's statements for the batch (the shown listing's record for the rebuild), written only while `lifts` holds. */
  alsoWrite?: (lifts: SQL) => BatchItem<'sqlite'>[],
): Promise<AppealDecided | null> {
  const at = new Date(now).toISOString();
  const decided = sql`EXISTS (SELECT 1 FROM ${moderationDecisions} WHERE id = ${decision.id} AND appeal_decided_at = ${at} AND appeal_decided_by = ${operator.id})`;
  const standing = db
    .select({ id: moderationDecisions.id })
    .from(moderationDecisions)
    .where(laterStanding(decision))
    .orderBy(desc(moderationDecisions.id))
    .limit(1);
  const free = sql`NOT EXISTS (SELECT 1 FROM ${moderationDecisions} WHERE ${laterStanding(decision)})`;
  const lifts = outcome === 'overturned' ? sql`${decided} AND ${free}` : sql`0`;
  const undo: BatchItem<'sqlite'>[] =
    outcome !== 'overturned'
      ? []
      : decision.kind === 'rejection' && decision.submission_id !== null
        ? [
            db.run(sql`UPDATE ${serverSubmissions} SET status = 'pending', decided_at = NULL, updated_at = ${at}
WHERE id = ${decision.submission_id} AND status = 'rejected' AND ${lifts}`),
          ]
        : decision.kind === 'hide' && decision.server_id !== null
          ? [
              db.run(sql`UPDATE ${discordServers} SET is_active = 1, updated_at = ${at}
WHERE id = ${decision.server_id} AND ${lifts}`),
            ]
          : [];
  const [later] = await db.batch([
    standing,
    db
      .update(moderationDecisions)
      .set({ appeal_outcome: outcome, appeal_note: note, appeal_decided_by: operator.id, appeal_decided_at: at })
      .where(
        and(
          eq(moderationDecisions.id, decision.id),
          isNotNull(moderationDecisions.appealed_at),
          isNull(moderationDecisions.appeal_outcome),
        ),
      ),
    ...undo,
    auditRowWhen(
      db,
      { operatorId: operator.id, name: operator.email },
      {
        action: outcome === 'upheld' ? 'appeal_upheld' : 'appeal_overturned',
        entity: 'decision',
        entityId: decision.id,
        details: {
          kind: decision.kind,
          submission_id: decision.submission_id,
          server_id: decision.server_id,
          lifted: sql`json(CASE WHEN ${lifts} THEN 'true' ELSE 'false' END)`,
        },
      },
      decided,
    ),
    ...(mail && decision.contact_email
      ? (outcome === 'overturned' ? [true, false] : [false]).map((lifted) =>
          enqueueMailWhen(
            db,
            {
              kind: 'appeal_decided',
              to: decision.contact_email!,
              dedupeKey: sql`${`appeal-decided:${decision.id}`}`,
              mail: mail(lifted),
            },
            outcome === 'overturned' ? sql`${decided} AND ${lifted ? free : sql`NOT ${free}`}` : decided,
          ),
        )
      : []),
    ...(alsoWrite?.(lifts) ?? []),
  ]);
  const after = await getDecisionById(db, decision.id);
  if (after?.appeal_decided_at !== at) return null;
  const standingDecisionId = outcome === 'overturned' ? (later[0]?.id ?? null) : null;
  return { decision: after, lifted: outcome === 'overturned' && standingDecisionId === null, standingDecisionId };
}

/** How many months the public log shows. */
export const LOG_MONTHS = 12;

/**
 * The public moderation log (#32) of the last LOG_MONTHS months, counted from the audit log (approvals,
 * rejections and hides with their reasons, appeals and their outcomes), the submissions (received,
 * decision times) and the reports (received, and acted on: closed as resolved). Counts only.
 */
export async function readModerationLog(db: Db, now = Date.now()): Promise<MonthLog[]> {
  const start = new Date(now);
  start.setUTCDate(1);
  start.setUTCHours(0, 0, 0, 0);
  start.setUTCMonth(start.getUTCMonth() - (LOG_MONTHS - 1));
  const since = start.toISOString();
  const month = (col: SQL) => sql<string>`substr(${col}, 1, 7)`;
  const [audits, received, decided, reports, acted] = await Promise.all([
    db
      .select({
        month: month(sql`${auditLog.created_at}`),
        action: auditLog.action,
        entity: auditLog.entity,
        reasons: sql<string | null>`json_extract(${auditLog.details}, '$.reasons')`,
      })
      .from(auditLog)
      .where(
        and(
          gte(auditLog.created_at, since),
          sql`((${auditLog.entity} = 'submission' AND ${auditLog.action} IN ('approve', 'reject'))
            OR (${auditLog.entity} = 'server' AND ${auditLog.action} = 'hide')
            OR (${auditLog.entity} = 'decision' AND ${auditLog.action} IN ('appeal', 'appeal_upheld', 'appeal_overturned')))`,
        ),
      ),
    db
      .select({ month: month(sql`${serverSubmissions.created_at}`) })
      .from(serverSubmissions)
      .where(gte(serverSubmissions.created_at, since)),
    db
      .select({ created: serverSubmissions.created_at, decided: serverSubmissions.decided_at })
      .from(serverSubmissions)
      .where(and(isNotNull(serverSubmissions.decided_at), gte(serverSubmissions.decided_at, since))),
    db
      .select({ month: month(sql`${serverReports.created_at}`) })
      .from(serverReports)
      .where(gte(serverReports.created_at, since)),
    // Acted on: each report closed as resolved (by hand, or by the hide that answers every open
    // report of the listing), once, in the month it was closed. The audit log has one row per
    // click, and none for the reports a hide answers alongside the one acted on.
    db
      .select({ month: month(sql`${serverReports.resolved_at}`) })
      .from(serverReports)
      .where(and(eq(serverReports.status, 'resolved'), gte(serverReports.resolved_at, since))),
  ]);
  const parse = (v: string | null): string[] => {
    try {
      const list = v ? JSON.parse(v) : [];
      return Array.isArray(list) ? list.map(String) : [];
    } catch {
      return [];
    }
  };
  const events: LogEvent[] = [
    ...received.map((r) => ({ month: r.month, kind: 'received' as const })),
    ...reports.map((r) => ({ month: r.month, kind: 'report' as const })),
    ...acted.map((r) => ({ month: r.month, kind: 'acted' as const })),
    ...decided.map((d) => ({
      month: d.decided!.slice(0, 7),
      kind: 'decision' as const,
      ms: Date.parse(d.decided!) - Date.parse(d.created),
    })),
    ...audits.map((a): LogEvent => {
      if (a.action === 'approve') return { month: a.month, kind: 'approved' };
      if (a.action === 'reject') return { month: a.month, kind: 'rejected', reasons: parse(a.reasons) };
      if (a.action === 'hide') return { month: a.month, kind: 'hidden', reasons: parse(a.reasons) };
      if (a.action === 'appeal') return { month: a.month, kind: 'appeal' };
      return { month: a.month, kind: a.action === 'appeal_upheld' ? 'upheld' : 'overturned' };
    }),
  ];
  return monthLog(events);
}
