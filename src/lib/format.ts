/**
 * Abbreviates a member count: K from 1,000, M from 1,000,000, always one decimal, as every card and page prints counts:
 * 950 -> '950', 1000 -> '1.0K', 1500 -> '1.5K', 2000000 -> '2.0M'. The decimal is cut, not
 * rounded, so 999,999 is '999.9K', never '1000.0K'.
 */
export function formatMembers(count: number): string {
  const n = Number.isFinite(count) ? Math.max(0, Math.trunc(count)) : 0;
  // Integer arithmetic: tenths of the unit, cut (999,999 -> 9999 tenths of K), no float rounding.
  const short = (unit: number, suffix: string) => {
    const tenths = Math.floor(n / (unit / 10));
    return `${Math.floor(tenths / 10)}.${tenths % 10}${suffix}`;
  };
  if (n >= 1_000_000) return short(1_000_000, 'M');
  if (n >= 1_000) return short(1_000, 'K');
  return String(n);
}

// One formatter for the process: constructing an Intl.NumberFormat costs ~80 µs, a build calls this per page.
const thousands = new Intl.NumberFormat('en-US');

/** Full count with thousands separators, for statistics boxes. */
export const formatNumber = (n: number): string => thousands.format(n);

/** A count with its noun, singular for exactly one: '1 server', '2 saved servers', '1,234 servers'. */
export const countOf = (n: number, singular: string, plural = `${singular}s`): string =>
  `${formatNumber(n)} ${n === 1 ? singular : plural}`;

/**
 * A count GET /api/servers gave: countOf, or '1,000+ servers' when a search's count stopped at its
 * cap (total_exact false). A lower bound of none (a short search whose window held no match) says
 * 'No servers' rather than '0+ servers'; the note under it says where it looked.
 */
export const countFound = (n: number, exact: boolean, singular: string, plural = `${singular}s`): string =>
  exact ? countOf(n, singular, plural) : n === 0 ? `No ${plural}` : `${formatNumber(n)}+ ${plural}`;

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

/**
 * The space between a percentage's number and its sign: a no-break space, so "12.5 %" never ends
 * a line with "12.5" and starts the next with "%" (at 320 px the ranking page's figures, the
 * owner's conversion and the console's anomaly sentences did).
 */
const PERCENT_SPACE = '\u00a0';

// One formatter per number of decimals and trimming, made on first use (see `thousands`).
const percentFormats = new Map<string, Intl.NumberFormat>();
const percentFormat = (digits: number, trim: boolean): Intl.NumberFormat => {
  const key = `${digits}:${trim}`;
  let format = percentFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat('en-US', {
      maximumFractionDigits: digits,
      minimumFractionDigits: trim ? 0 : digits,
    });
    percentFormats.set(key, format);
  }
  return format;
};

/**
 * A ratio as a percentage, the one way the site and the console write one: `digits` decimals
 * (kept, or cut when they are zeros with `trim`), thousands separated, a minus sign below zero and
 * a plus too with `signed` ("+150 %", "−10 %"), and a no-break space before "%": 0.219 -> '21.9 %' with `{ digits: 1 }`.
 */
export function formatPercent(
  ratio: number,
  { digits = 0, trim = false, signed = false }: { digits?: number; trim?: boolean; signed?: boolean } = {},
): string {
  const figure = percentFormat(digits, trim).format(Math.abs(ratio * 100));
  const minus = ratio < 0 && /[1-9]/.test(figure);
  const sign = minus ? '\u2212' : signed ? '+' : '';
  return `${sign}${figure}${PERCENT_SPACE}%`;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * A duration in words, the one way the site and the console state how long something took, takes
 * or has waited: minutes under an hour, hours under two days, then days ("12 minutes", "3 hours",
 * "2 days"), a whole number of one unit with a no-break space before it, so "3 hours" never ends a
 * line with "3". `nearest` (how long something took: a median) and `down` (how long something has
 * waited: never more than `ms`) say "under a minute" below one; `up` (an upper bound: "within 6
 * hours") never states less than `ms`, so at least "1 minute". The moderation log once printed
 * decisions taken in minutes as "0 hours".
 */
export function formatDuration(ms: number, { round = 'nearest' }: { round?: 'nearest' | 'up' | 'down' } = {}): string {
  const t = Number.isFinite(ms) ? Math.max(0, ms) : 0;
  const whole = round === 'up' ? Math.ceil : round === 'down' ? Math.floor : Math.round;
  const say = (n: number, unit: string) => `${formatNumber(n)}\u00a0${unit}${n === 1 ? '' : 's'}`;
  if (round !== 'up' && t < MINUTE_MS) return 'under a minute';
  const minutes = Math.max(1, whole(t / MINUTE_MS));
  if (minutes < 60) return say(minutes, 'minute');
  const hours = Math.max(1, whole(t / HOUR_MS));
  if (hours < 48) return say(hours, 'hour');
  return say(whole(t / DAY_MS), 'day');
}

/**
 * How long ago `iso` was at `now`, for the console (a submission's or an appeal's wait, an
 * ownership proof's age): formatDuration rounded down, so an item 59 minutes old never reads
 * "1 hour"; a time in the future reads "under a minute", an unreadable one "unknown".
 */
export function formatAge(iso: string, now: number): string {
  const at = Date.parse(iso);
  return Number.isFinite(at) ? formatDuration(now - at, { round: 'down' }) : 'unknown';
}
