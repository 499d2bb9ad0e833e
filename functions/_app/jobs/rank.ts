import type { Db } from '../../../db/client';
import { closeQuietFlags, openFlags, recordJobRun } from '../../../db/queries/flags';
import { getJobState } from '../../../db/queries/freshness';
import {
  listCheckedSince,
  nicheShareMedians,
  type RankScope,
  type RankUpdate,
  readHistories,
  readRankInputs,
  writeRankScores,
} from '../../../db/queries/rank';
import { ANOMALY, detectAnomalies } from '../../../src/lib/ranking/anomalies';
import { ANOMALY_JOB, RANK_EVERY_MS, RANK_JOB } from '../../../src/lib/ranking/constants';
import { shownExplanation } from '../../../src/lib/ranking/explanation';
import { growthFraction, RANK, rankScore } from '../../../src/lib/ranking/formula';
import { nicheShares, shownChanges, storedPlaces } from '../../../src/lib/ranking/signals';
import type { AppDeps } from '../context';

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** Listing ids per history read of the anomaly pass. */
const IDS_PER_READ = 500;

const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY).toISOString();

/** What one recompute did. */
export interface RankRun {
  listings: number;
  /** Listings whose score, growth or printed explanation changed (the only ones written). */
  updated: number;
  /**
   * The slugs of the listed servers whose page shows something else now: their score, its parts
   * or growth changed, or their place in their category moved (another listing passed them).
   */
  changedSlugs: string[];
  ms: number;
}

/**
 * Recomputes rank_score, rank_explain, growth_30d and category_place of every listing (or one
 * category's) from checked signals (src/lib/ranking/formula.ts): reads the inputs set-based
 * (readRankInputs), scores each listing, places the scored listed ones in their category by the
 * new scores (categoryPlaces), then writes only the rows whose score, growth, place or printed
 * explanation changed (writeRankScores).
 */
export async function recomputeRanks(db: Db, now: Date, scope: RankScope = {}): Promise<RankRun> {
  const started = performance.now();
  const inputs = await readRankInputs(
    db,
    {
      onlineSince: daysBefore(now, RANK.onlineWindowDays),
      growthSince: daysBefore(now, RANK.growthWindowDays),
      interestSince: daysBefore(now, RANK.interestWindowDays),
    },
    scope,
  );
  const listings = inputs.listings.map((l) => ({
    ...l,
    // The online-window median of checks; without history, the last check's count (if a check ever answered).
    online: inputs.medianOnline.get(l.id) ?? (l.lastOk ? l.active_users : 0),
  }));
  const shares = nicheShares(listings);
  const after = new Map<number, { score: number; growth: number; explain: string }>();
  const nowMs = now.getTime();
  for (const l of listings) {
    const flag = inputs.flags.get(l.id);
    const before = inputs.firstMembers.get(l.id) ?? null;
    const interest = inputs.interest.get(l.id);
    const { score, parts } = rankScore({
      status: l.status,
      members: l.members,
      online: l.online,
      membersBefore: before,
      nicheShare: shares.get(l.category) ?? RANK.defaultNicheShare,
      joins: interest?.joins ?? 0,
      views: interest?.views ?? 0,
      hoursSinceOk: l.lastOk ? Math.max(0, (nowMs - Date.parse(l.lastOk)) / HOUR) : null,
      openReports: inputs.reports.get(l.id) ?? 0,
      flagOpen: flag !== undefined,
      growthFlagOpen: flag === 1,
      ageDays: Math.max(0, (nowMs - Date.parse(l.createdAt)) / DAY),
    });
    after.set(l.id, { score, growth: growthFraction(before, l.members), explain: JSON.stringify(parts) });
  }
  // Places by the new scores: a page and the rank badge read them (category_place) instead of counting.
  const places = storedPlaces(listings, after);
  const changed: RankUpdate[] = [];
  for (const l of listings) {
    const { score, growth, explain } = after.get(l.id)!;
    const place = places.get(l.id) ?? null;
    // Written when the score, the growth, the place or the explanation as it is printed changed: a
    // part that drifts with the clock (newness, four decimals) moves at almost every recompute, but
    // an unscored listing prints none of its parts and a scored one prints them rounded, and nothing
    // reads the stored parts but that print (shownExplanation). At a million listings this keeps a
    // category's recompute at an approval from rewriting 200,000 rows that show the same.
    if (
      score !== l.score ||
      growth !== l.growth ||
      place !== l.place ||
      (explain !== l.explain &&
        shownExplanation(explain, score, l.status) !== shownExplanation(l.explain, l.score, l.status))
    )
      changed.push({ id: l.id, score, explain, growth, place });
  }
  await writeRankScores(db, changed);
  return {
    listings: listings.length,
    updated: changed.length,
    changedSlugs: shownChanges(listings, new Set(changed.map((c) => c.id))),
    ms: Math.round(performance.now() - started),
  };
}

/** What one anomaly pass did. */
export interface AnomalyRun {
  evaluated: number;
  opened: number;
  closed: number;
}

/**
 * Runs the anomaly rules (src/lib/ranking/anomalies.ts) over the history of every listing checked
 * since the previous pass (all listings with history on the first), opens a flag per new finding
 * and closes quiet ones; the pass's time is the next pass's watermark (job_state row 'anomalies').
 * Histories are read by chunks of ids.
 */
export async function evaluateAnomalies(db: Db, now: Date): Promise<AnomalyRun> {
  const previous = await getJobState(db, ANOMALY_JOB);
  const historySince = daysBefore(now, ANOMALY.unknownWindowDays);
  const checked = await listCheckedSince(db, previous?.last_run_at ?? '', historySince);
  // The niche medians, only when there is something to judge.
  const shares = checked.length === 0 ? new Map<string, number>() : await nicheShareMedians(db);
  const found: Parameters<typeof openFlags>[1][number][] = [];
  const firing = new Map<number, Set<(typeof found)[number]['anomaly']['rule']>>();
  for (let start = 0; start < checked.length; start += IDS_PER_READ) {
    const chunk = checked.slice(start, start + IDS_PER_READ);
    const histories = await readHistories(
      db,
      chunk.map((l) => l.id),
      historySince,
    );
    for (const l of chunk) {
      const anomalies = detectAnomalies(histories.get(l.id) ?? [], {
        nicheShare: shares.get(l.category) ?? RANK.defaultNicheShare,
        niche: l.category,
        now,
      });
      firing.set(l.id, new Set(anomalies.map((a) => a.rule)));
      for (const anomaly of anomalies) found.push({ serverId: l.id, anomaly });
    }
  }
  const opened = await openFlags(db, found, now);
  const closed = await closeQuietFlags(
    db,
    firing,
    checked.map((l) => l.id),
    now,
  );
  const run = { evaluated: checked.length, opened, closed };
  await recordJobRun(db, ANOMALY_JOB, now, { ...run });
  return run;
}

/** The public pages of some listings. */
export const serverPages = (slugs: readonly string[]): string[] => slugs.map((slug) => `/server/${slug}`);

/** What a rank pass did, and the server pages it changed (score, parts, growth or place). */
export interface RankPass {
  anomalies: AnomalyRun;
  ranks: RankRun | null;
  pages: string[];
}

/**
 * The rank job, run after every refresh pass: the anomaly rules over what was just checked, then
 * the ranks (so a flag opened now already weighs on the score). The recompute reads every listing,
 * so it runs at most every RANK_EVERY_MS (`force`: now, e.g. after `npm run refresh -- --all`).
 * Answers the pages it changed; the caller asks for their rebuild with its own.
 */
export async function run(
  deps: Pick<AppDeps, 'db'>,
  now: number,
  { force = false }: { force?: boolean } = {},
): Promise<RankPass> {
  const at = new Date(now);
  const anomalies = await evaluateAnomalies(deps.db, at);
  const last = (await getJobState(deps.db, RANK_JOB))?.last_run_at;
  const due = force || !last || now - Date.parse(last) >= RANK_EVERY_MS || anomalies.opened > 0;
  if (!due) return { anomalies, ranks: null, pages: [] };
  const ranks = await recomputeRanks(deps.db, at);
  const { changedSlugs, ...summary } = ranks;
  await recordJobRun(deps.db, RANK_JOB, at, { ...summary, changed: changedSlugs.length });
  return { anomalies, ranks, pages: serverPages(changedSlugs) };
}

/**
 * Scores one category now (an approval: the new listing's check at submission is fresh; the niche
 * median is the category's own, so this equals the full recompute for it). Answers the slugs of
 * the listings whose page it changed.
 */
export async function rankCategory(deps: Pick<AppDeps, 'db'>, category: string, now: number): Promise<string[]> {
  return (await recomputeRanks(deps.db, new Date(now), { category })).changedSlugs;
}
