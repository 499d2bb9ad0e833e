/**
 * Abbreviates a member count: K from 1,000, M from 1,000,000, one decimal
 * (a trailing .0 is dropped): 950 -> '950', 1500 -> '1.5K', 2000000 -> '2M'.
 */
export function formatMembers(count: number): string {
  const n = Number.isFinite(count) ? Math.max(0, Math.trunc(count)) : 0;
  const short = (value: number, unit: string) =>
    `${(Math.floor(value * 10) / 10).toFixed(1).replace(/\.0$/, '')}${unit}`;
  if (n >= 1_000_000) return short(n / 1_000_000, 'M');
  if (n >= 1_000) {
    // 999,999 would round to "1000K"; say 999.9K instead.
    return short(n / 1_000, 'K');
  }
  return String(n);
}

// One formatter for the process: constructing an Intl.NumberFormat costs ~80 µs, a build calls this per page.
const thousands = new Intl.NumberFormat('en-US');

/** Full count with thousands separators, for statistics boxes. */
export const formatNumber = (n: number): string => thousands.format(n);

/** The icon sizes global.css has a class for (`.icon-48`...): no inline style, which the CSP refuses. */
export type IconSize = 48 | 56 | 112;

/** Initials used as the generated fallback icon when a server has no image. */
export function initials(name: string): string {
  const letters = name
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w[0]!)
    .join('');
  return (letters.slice(0, 2) || '?').toUpperCase();
}
