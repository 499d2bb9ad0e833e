/**
 * The dashboard's window of days: the last `days` calendar days in UTC, today included (so "7
 * days" is today and the 6 before it, from 00:00 UTC of the first). Its tiles, its chart and its
 * revenue figure all count over these days, so a tile is the sum of the chart's bars.
 */

const DAY = 86_400_000;

/** The last `days` UTC calendar days at `now`, oldest first, as 'YYYY-MM-DD'. */
export function lastUtcDays(days: number, now: number): string[] {
  return Array.from({ length: days }, (_, i) => new Date(now - (days - 1 - i) * DAY).toISOString().slice(0, 10));
}

/**
 * The first of those days, 'YYYY-MM-DD': an ISO time (`created_at`) at or after it, compared as
 * text, falls within the window.
 */
export function utcDaysSince(days: number, now: number): string {
  return new Date(now - (days - 1) * DAY).toISOString().slice(0, 10);
}
