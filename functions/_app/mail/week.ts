/**
 * The ISO 8601 week of a time, in UTC, as '2026-W48': weeks start on Monday and belong to the year
 * of their Thursday (so 2026-12-31 can be in 2027-W53 or 2026-W53 as the calendar says).
 */
export function isoWeek(ms: number): string {
  const d = new Date(ms);
  const day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  // Monday 1 … Sunday 7; the week's Thursday decides its year.
  const weekday = day.getUTCDay() || 7;
  day.setUTCDate(day.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((day.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${day.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}
