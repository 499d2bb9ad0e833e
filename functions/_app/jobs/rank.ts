import { recordJobRun } from '../../../db/queries/flags';
import { getJobState } from '../../../db/queries/freshness';
import { type AnomalyRun, evaluateAnomalies, type RankRun, recomputeRanks } from '../../../db/queries/rank';
import { RANK_EVERY_MS, RANK_JOB } from '../../../src/lib/ranking/constants';
import type { AppDeps } from '../context';

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
