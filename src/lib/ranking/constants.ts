import type { InviteStatus } from '../enums';

/** Statuses whose counts come from a working check: the niche medians read only these. */
export const CHECKED_WORKING: readonly InviteStatus[] = ['ok', 'expiring', 'paused'];

/** Listings smaller than this say little about their niche's online share. */
export const NICHE_MIN_MEMBERS = 50;

/** The refresh job runs every minute; the full recompute runs at most this often unless forced. */
export const RANK_EVERY_MS = 10 * 60_000;

/** job_state row of the rank recompute (its last run and what it did). */
export const RANK_JOB = 'rank';

/** job_state row of the anomaly pass: its last run is the watermark of the next. */
export const ANOMALY_JOB = 'anomalies';
