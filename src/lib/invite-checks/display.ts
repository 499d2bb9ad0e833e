/** What a server page shows of a listing's checks: relative times and the member-history chart. */

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'always' });

/**
 * How long ago `iso` was, in the largest whole unit: '3 hours ago', '2 days ago'; under a minute
 * (or a clock a little behind the check) 'just now'. The build writes it and a page script may
 * write it again on load with the visitor's clock, so both say the same with the same `now`.
 */
export function timeAgo(iso: string, now: Date): string {
  const ms = now.getTime() - Date.parse(iso);
  if (!Number.isFinite(ms) || ms < 60_000) return 'just now';
  for (const [unit, size] of UNITS) {
    if (ms >= size) return relative.format(-Math.floor(ms / size), unit);
  }
  return 'just now';
}

/** One point of the chart: when, and how many members. */
export interface ChartPoint {
  checked_at: string;
  members: number;
}

/** The chart's drawing: a path in a `width` × `height` box, its range and its points' positions. */
export interface Sparkline {
  /** SVG path data: one `M` per run of points, a gap of more than `gapDays` breaks the line. */
  path: string;
  /** The circles drawn where a run has a single point (a line needs two). */
  dots: { x: number; y: number }[];
  min: number;
  max: number;
}

const round = (n: number): number => Math.round(n * 10) / 10;

/**
 * Lays out a member history over the `days` days up to `now`: time on x (so gaps show as gaps),
 * members on y between the history's own minimum and maximum (a flat history is a line across
 * the middle), inside a `pad` margin. Points must be oldest first. Null for no points.
 */
export function sparkline(
  points: readonly ChartPoint[],
  opts: { width: number; height: number; days: number; now: Date; pad?: number; gapDays?: number },
): Sparkline | null {
  if (points.length === 0) return null;
  const { width, height, days, now, pad = 4, gapDays = 3 } = opts;
  const end = now.getTime();
  const start = end - days * 86_400_000;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const p of points) {
    min = Math.min(min, p.members);
    max = Math.max(max, p.members);
  }
  const x = (t: number) =>
    round(pad + ((Math.min(Math.max(t, start), end) - start) / (end - start)) * (width - 2 * pad));
  const y = (m: number) => round(max === min ? height / 2 : pad + ((max - m) / (max - min)) * (height - 2 * pad));
  const runs: { x: number; y: number }[][] = [];
  let last = Number.NEGATIVE_INFINITY;
  for (const p of points) {
    const t = Date.parse(p.checked_at);
    const at = { x: x(t), y: y(p.members) };
    if (t - last > gapDays * 86_400_000 || runs.length === 0) runs.push([at]);
    else runs[runs.length - 1]!.push(at);
    last = t;
  }
  const path = runs
    .filter((r) => r.length > 1)
    .map((r) => r.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x} ${p.y}`).join(' '))
    .join(' ');
  const dots = runs.filter((r) => r.length === 1).map((r) => r[0]!);
  return { path, dots, min, max };
}
