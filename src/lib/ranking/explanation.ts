/**
 * The rank score in plain words (#19): the figures "How ranking works" prints from the ranking
 * code's own constants, and the "Why this rank" lines a server page reads from the listing's
 * stored parts (rank_explain, src/lib/ranking/formula.ts). Pure: no I/O, no clock of its own.
 */
import type { InviteStatus } from '../enums';
import { formatPercent } from '../format';
import { compareServers, type ListedServer } from '../listing';
import { RANK, RANK_PARTS, type RankParts } from './formula';

/** How a published figure reads: a plain number, a share as a percentage, a duration in ms. */
export type FigureUnit = 'number' | 'percent' | 'factor' | 'hours' | 'minutes' | 'days';

const HOUR = 3_600_000;
const trim = (x: number, digits = 4) => String(Math.round(x * 10 ** digits) / 10 ** digits);
const plural = (n: number, unit: string) => `${trim(n, 2)} ${unit}${trim(n, 2) === '1' ? '' : 's'}`;
/** A constant as the ranking page prints it ("10 %" with a no-break space, "×1.2", "48 hours", "1,000"). */
export function formatFigure(value: number, unit: FigureUnit = 'number'): string {
  switch (unit) {
    case 'percent':
      return formatPercent(value, { digits: 2, trim: true });
    case 'factor':
      return `×${trim(value)}`;
    case 'hours':
      return plural(value / HOUR, 'hour');
    case 'minutes':
      return plural(value / 60_000, 'minute');
    case 'days':
      return plural(value / (24 * HOUR), 'day');
    default:
      return value.toLocaleString('en-US', { maximumFractionDigits: 4 });
  }
}

/** The parts of a stored explanation, or null when it is missing or not the ranking's shape. */
export function readParts(explain: unknown): RankParts | null {
  if (!explain || typeof explain !== 'object') return null;
  const parts = explain as Record<string, unknown>;
  return RANK_PARTS.every((k) => typeof parts[k] === 'number') ? (parts as unknown as RankParts) : null;
}

/** One "why this rank" line: which part of the score it explains, and the sentence. */
export interface RankLine {
  part: keyof RankParts | 'score';
  text: string;
}

const factor = (x: number) => `×${trim(x, 2)}`;
const signedPercent = (x: number) => formatPercent(x, { digits: 1, trim: true, signed: true });

/**
 * The parts of a listing's score, each as a sentence a visitor understands ("online share above
 * the niche median", "growth capped"), in the order the score multiplies them. `status` is the
 * listing's invite state, for saying why a zero status excludes it.
 */
export function explainRank(parts: RankParts, score: number, status: InviteStatus): RankLine[] {
  const lines: RankLine[] = [];
  if (parts.status === 0) {
    lines.push({
      part: 'status',
      text:
        status === 'unchecked'
          ? 'Not ranked yet: no check has found the invite working.'
          : 'Not ranked: the invite is not working (Discord does not know it, or it opens another server).',
    });
    return lines;
  }
  const online = Math.max(0, Math.round(10 ** parts.activity - 1));
  lines.push({
    part: 'activity',
    text: `About ${online.toLocaleString('en-US')} people online at the median check of the last ${RANK.onlineWindowDays} days (activity ${trim(parts.activity, 2)}, on a log scale).`,
  });
  const e = parts.engagement;
  lines.push({
    part: 'engagement',
    text:
      e >= RANK.engagementMax
        ? `Online share well above the niche median: capped at ${factor(RANK.engagementMax)}.`
        : e > 1
          ? `Online share above the niche median (${factor(e)}).`
          : e <= RANK.engagementMin
            ? `Online share far below the niche median: floored at ${factor(RANK.engagementMin)}.`
            : e < 1
              ? `Online share below the niche median (${factor(e)}).`
              : 'Online share at the niche median (×1).',
  });
  const g = parts.growth;
  lines.push({
    part: 'growth',
    text:
      g >= RANK.growthCap
        ? `Growth capped: members grew more than ${signedPercent(RANK.growthCap)} in ${RANK.growthWindowDays} days; it counts as ${signedPercent(RANK.growthCap)} (${factor(1 + g)}).`
        : g <= -RANK.growthCap
          ? `Decline capped at ${signedPercent(-RANK.growthCap)} over ${RANK.growthWindowDays} days (${factor(1 + g)}).`
          : g !== 0
            ? `Members ${g > 0 ? 'grew' : 'fell'} ${signedPercent(g)} over ${RANK.growthWindowDays} days (${factor(1 + g)}).`
            : `No growth credit: flat, no ${RANK.growthWindowDays}-day history yet, or a growth anomaly under review (×1).`,
  });
  lines.push({
    part: 'interest',
    text:
      parts.interest > 0
        ? `Join clicks per view over ${RANK.interestWindowDays} days (one per visitor and day): ${factor(1 + RANK.interestWeight * parts.interest)}.`
        : `No join-click credit yet: too few clicks or views in ${RANK.interestWindowDays} days (×1).`,
  });
  lines.push({
    part: 'freshness',
    text:
      parts.freshness >= 1
        ? `Invite found working within ${RANK.freshGraceHours} hours of the last recompute: full freshness (×1).`
        : parts.freshness > 0
          ? `Last working check more than ${RANK.freshGraceHours} hours before the recompute: freshness ${factor(parts.freshness)}.`
          : 'No check has found the invite working: no freshness.',
  });
  lines.push({
    part: 'trust',
    text:
      parts.trust < 1
        ? `Open visitor reports or an anomaly flag under review: ${factor(parts.trust)}.`
        : 'No open reports or anomaly flags (×1).',
  });
  if (parts.newness > 1.005) {
    lines.push({
      part: 'newness',
      text: `New listing boost: ${factor(parts.newness)}, fading over its first weeks.`,
    });
  }
  if (parts.status < 1) {
    lines.push({ part: 'status', text: `The server's admins paused its invite: ${factor(parts.status)}.` });
  }
  lines.push({ part: 'score', text: `Score ${trim(score, 4)}: the product of the parts above.` });
  return lines;
}

/**
 * What "Why this rank" prints of a listing's stored score and parts (apart from its place), as
 * one string: two explanations that print the same lines leave the page as it was. A part that
 * drifts with the clock (newness, freshness) moves the stored parts at every recompute, but an
 * unranked listing prints none of them, and a ranked one prints them rounded.
 */
export function shownExplanation(explain: unknown, score: number, status: InviteStatus): string {
  const parts = readParts(typeof explain === 'string' ? parseJson(explain) : explain);
  return parts ? JSON.stringify(explainRank(parts, score, status)) : '';
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** A listing's place in its category by score: 1-based rank among `of` listed servers. */
export interface CategoryRank {
  rank: number;
  of: number;
}

/** The fields the category rank reads. */
export type Ranked = Pick<
  ListedServer,
  'id' | 'category' | 'rank_score' | 'members' | 'sort_order' | 'created_at' | 'growth_30d'
>;

/**
 * Every listed server's rank in its category by score (the Most Active order: rank score, then
 * members, then id), by server id. Paid flags play no part: the score never reads them.
 */
export function categoryRanks(servers: readonly Ranked[]): Map<number, CategoryRank> {
  const groups = new Map<string, Ranked[]>();
  for (const s of servers) {
    const list = groups.get(s.category);
    if (list) list.push(s);
    else groups.set(s.category, [s]);
  }
  const ranks = new Map<number, CategoryRank>();
  for (const list of groups.values()) {
    const sorted = list.toSorted(compareServers('active'));
    for (const [i, s] of sorted.entries()) ranks.set(s.id, { rank: i + 1, of: sorted.length });
  }
  return ranks;
}

/**
 * What a page, the public API and the rank badge show of a listing's place in its category: the
 * place the rank recompute stored beside the score it explains (category_place, counted then over
 * the category by categoryRanks), among the `of` servers the category lists now; none without a
 * stored place. Never past `of` (listings that left the category since the recompute).
 */
export function shownPlace(server: { category_place: number | null }, of: number): CategoryRank | undefined {
  if (server.category_place == null || of <= 0) return undefined;
  return { rank: Math.min(server.category_place, of), of };
}

/**
 * What a server page's "Why this rank" shows of one listing, as a cache-key part: its stored place
 * in its category and its stored score and parts. A recompute changes them without touching the
 * listing's updated_at, and another listing's score can move this one's place.
 */
export function rankKey(
  server: Pick<ListedServer, 'rank_score'> & { rank_explain: unknown; category_place: number | null },
): string {
  // Only a scored listing shows its place; the category's size is not shown, so an approval
  // elsewhere in the category does not re-render every page of it.
  const place = server.rank_score > 0 ? server.category_place : null;
  return `${place ?? '-'}:${server.rank_score}:${JSON.stringify(server.rank_explain ?? null)}`;
}
