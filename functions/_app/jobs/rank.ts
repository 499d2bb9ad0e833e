import type { Db } from '../../../db/client';
import { closeQuietFlags, flagOpenedSince, openFlags, recordJobRun } from '../../../db/queries/flags';
import { getJobState } from '../../../db/queries/freshness';
import {
  listCheckedSince,
  nicheShareMedians,
  placedListings,
  type RankInputs,
  type RankListing,
  type RankScope,
  type RankUpdate,
  type RankWindows,
  readHistories,
  readNicheListings,
  readRankInputs,
  writeApprovalRank,
  writeRankScores,
} from '../../../db/queries/rank';
import { compareServers, hasPage, isListed, type ListedServer } from '../../../src/lib/listing';
import { ANOMALY, detectAnomalies } from '../../../src/lib/ranking/anomalies';
import { ANOMALY_JOB, RANK_EVERY_MS, RANK_JOB } from '../../../src/lib/ranking/constants';
import { shownExplanation } from '../../../src/lib/ranking/explanation';
import { growthFraction, RANK, rankScore } from '../../../src/lib/ranking/formula';
import { nicheShares, nicheSharesInSteps, shownChanges, storedPlacesInSteps } from '../../../src/lib/ranking/signals';
import { inSteps, nextTurn } from '../../../src/lib/steps';
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
/** Where each signal's window starts at `now`. */
const windowsAt = (now: Date): RankWindows => ({
  onlineSince: daysBefore(now, RANK.onlineWindowDays),
  growthSince: daysBefore(now, RANK.growthWindowDays),
  interestSince: daysBefore(now, RANK.interestWindowDays),
});

/** The online count a listing is scored on: the online-window median of checks; without history, the last check's count (if a check ever answered). */
const onlineOf = (l: { id: number; active_users: number; lastOk: string | null }, medianOnline: number | undefined) =>
  medianOnline ?? (l.lastOk ? l.active_users : 0);

type Scored = { score: number; growth: number; explain: string };
type Ordered = Pick<ListedServer, 'id' | 'rank_score' | 'members'>;

/** A listing's new score, growth and parts (rankScore) from its inputs and its category's niche median. */
function scoreListing(
  l: RankListing & { online: number },
  inputs: RankInputs,
  shares: ReadonlyMap<string, number>,
  now: Date,
): Scored {
  const nowMs = now.getTime();
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
  return { score, growth: growthFraction(before, l.members), explain: JSON.stringify(parts) };
}

/**
 * Whether a recompute writes a listing's row: its score, growth or place changed, or its
 * explanation as it is printed. A part that drifts with the clock (newness, four decimals) moves
 * at almost every recompute, but an unscored listing prints none of its parts and a scored one
 * prints them rounded, and nothing reads the stored parts but that print (shownExplanation). At a
 * million listings this keeps a category's recompute from rewriting 200,000 rows that show the same.
 */
const rewrites = (l: RankListing, { score, growth, explain }: Scored, place: number | null): boolean =>
  score !== l.score ||
  growth !== l.growth ||
  place !== l.place ||
  (explain !== l.explain &&
    shownExplanation(explain, score, l.status) !== shownExplanation(l.explain, l.score, l.status));

export async function recomputeRanks(db: Db, now: Date, scope: RankScope = {}): Promise<RankRun> {
  const started = performance.now();
  // In steps with a turn of the event loop between them (reads, scores, each category's places,
  // the comparison): at a million listings the recompute is seconds of work, which in one piece
  // held every request of the server for its whole length (docs/SCALING.md).
  const inputs = await readRankInputs(db, windowsAt(now), scope);
  const listings: (RankListing & { online: number })[] = [];
  await inSteps(inputs.listings, (l) => {
    listings.push({ ...l, online: onlineOf(l, inputs.medianOnline.get(l.id)) });
  });
  const shares = await nicheSharesInSteps(listings);
  const after = new Map<number, Scored>();
  await inSteps(listings, (l) => {
    after.set(l.id, scoreListing(l, inputs, shares, now));
  });
  // Places by the new scores: a page and the rank badge read them (category_place) instead of counting.
  const places = await storedPlacesInSteps(listings, after);
  const changed: RankUpdate[] = [];
  await inSteps(listings, (l) => {
    const scored = after.get(l.id)!;
    const place = places.get(l.id) ?? null;
    if (rewrites(l, scored, place)) changed.push({ id: l.id, ...scored, place });
  });
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
    // A turn of the event loop between reads (src/lib/steps.ts): on the first pass every listing is judged.
    if (start > 0) await nextTurn();
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
 * Whether the ranks are due for a recompute at `now`: never computed, RANK_EVERY_MS since the last,
 * or an anomaly flag opened since the last that no recompute has weighed yet.
 */
export async function rankDue(db: Db, now: number): Promise<boolean> {
  const last = (await getJobState(db, RANK_JOB))?.last_run_at;
  return !last || now - Date.parse(last) >= RANK_EVERY_MS || (await flagOpenedSince(db, last));
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
  {
    force = false,
    due: known,
  }: {
    force?: boolean;
    /**
     * rankDue as the caller read it before its lookups (a paced pass: false leaves a flag opened now
     * to the next pass, whose subrequests are kept for it); absent: read here, and a flag opened
     * now recomputes at once.
     */
    due?: boolean | undefined;
  } = {},
): Promise<RankPass> {
  const at = new Date(now);
  const anomalies = await evaluateAnomalies(deps.db, at);
  const due = force || (known ?? (anomalies.opened > 0 || (await rankDue(deps.db, now))));
  if (!due) return { anomalies, ranks: null, pages: [] };
  const ranks = await recomputeRanks(deps.db, at);
  const { changedSlugs, ...summary } = ranks;
  await recordJobRun(deps.db, RANK_JOB, at, { ...summary, changed: changedSlugs.length });
  return { anomalies, ranks, pages: serverPages(changedSlugs) };
}

/** What scoring an approved listing did: the pages it changed, and whether it re-scored the category. */
export interface ApprovalRank {
  changedSlugs: string[];
  /** The new listing moved its category's niche median, so every score of the category moved: recomputeRanks of it. */
  category: boolean;
}

/**
 * Scores a newly approved listing now (its check at submission is fresh, so its page shows its
 * rank from the first build) and moves the places it changed, without reading its category: its
 * inputs (readRankInputs of that one id), the category's niche listings (readNicheListings: the
 * median its engagement is measured against), and the category's stored places (placedListings).
 * Every other listing keeps its score: the niche median is the only input one listing shares
 * with the others, so when the new listing leaves it where it was this writes and names exactly
 * what recomputeRanks of the category would (given scores the last recompute left current; the
 * rank job keeps them so); when it moves it, every score of the category may move, and the
 * category is recomputed (tests/db/rank.test.ts compares both on random directories).
 *
 * A scored listed listing placed `p` moves every listing after it in the category one place down:
 * their category_place is rewritten and their pages named, in the same batch as its own score.
 */
export async function rankApproved(deps: Pick<AppDeps, 'db'>, id: number, now: number): Promise<ApprovalRank> {
  const at = new Date(now);
  const windows = windowsAt(at);
  const inputs = await readRankInputs(deps.db, windows, { ids: [id] });
  const listing = inputs.listings[0];
  if (!listing) return { changedSlugs: [], category: false };
  const niche = (await readNicheListings(deps.db, listing.category, windows.onlineSince)).map((l) => ({
    ...l,
    online: onlineOf(l, l.medianOnline),
  }));
  const share = nicheShares(niche).get(listing.category);
  if (share !== nicheShares(niche.filter((l) => l.id !== id)).get(listing.category)) {
    const ranks = await recomputeRanks(deps.db, at, { category: listing.category });
    return { changedSlugs: ranks.changedSlugs, category: true };
  }
  const scoredListing = { ...listing, online: onlineOf(listing, inputs.medianOnline.get(id)) };
  const scored = scoreListing(
    scoredListing,
    inputs,
    new Map(share === undefined ? [] : [[listing.category, share]]),
    at,
  );
  const page = { is_active: listing.is_active, category: listing.category, invite_status: listing.status };
  // Its place among the category's stored ones (a listing without a score stores none, and moves none).
  let place: number | null = null;
  const moved: { id: number; slug: string; place: number }[] = [];
  if (isListed(page) && scored.score > 0) {
    // The Most Active order (categoryRanks), which reads only the score and the members.
    const ahead = compareServers('active') as (a: Ordered, b: Ordered) => number;
    const placed = (await placedListings(deps.db, listing.category)).sort(ahead);
    const self = { id, rank_score: scored.score, members: listing.members };
    const before = placed.filter((p) => ahead(p, self) < 0).length;
    place = before + 1;
    let next = place;
    for (const p of placed) {
      if (ahead(p, self) < 0) continue;
      next++;
      if (p.place !== next) moved.push({ id: p.id, slug: p.slug, place: next });
    }
  }
  const own = rewrites(listing, scored, place);
  if (own || moved.length > 0) {
    await writeApprovalRank(deps.db, { id, ...scored, place }, moved);
  }
  return {
    changedSlugs: [...(own && hasPage(page) ? [listing.slug] : []), ...moved.map((m) => m.slug)],
    category: false,
  };
}
