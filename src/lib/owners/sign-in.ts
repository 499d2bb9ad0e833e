// What a failed or unavailable owner sign-in (#17) tells the owner, in their words: one table for
// the account page (its `?error=` codes) and the app's own answer when sign-in is not configured.

import { formatDuration } from '../format';

/** Said when the site has no Discord application (DISCORD_CLIENT_ID/SECRET unset). */
export const SIGN_IN_NOT_CONFIGURED = 'Sign-in with Discord is not configured on this site yet.';

/** What a failed sign-in's `?error=` means. */
export const SIGN_IN_ERRORS: Readonly<Record<string, string>> = {
  state:
    'The sign-in could not be checked (it took too long, or started in another browser or tab). Please sign in again.',
  denied: 'You cancelled the sign-in at Discord. Nothing was shared.',
  discord: 'Discord could not be reached to finish the sign-in. Please try again in a minute.',
  not_configured: SIGN_IN_NOT_CONFIGURED,
  review_target:
    'That server cannot be reviewed here: it is not listed, or we do not know its Discord server yet. Open its page and try again.',
};

/**
 * What a review's sign-in says when Discord asked us to slow down (#31: its 429 or block page
 * tripped the breaker every Discord call shares, or the breaker was open already): plainly that
 * Discord is busy, and from when to try again (`until`, in UTC, and how long that is from `now`).
 */
export function discordBusyMessage(until: number, now: number): string {
  const at = new Date(until).toISOString().slice(11, 16);
  // "About": to the nearest unit, but never under a minute.
  const wait = formatDuration(Math.max(60_000, until - now));
  const day = until - now >= 20 * 60 * 60 * 1000 ? ` on ${new Date(until).toISOString().slice(0, 10)}` : '';
  return `Discord is busy: it asked us to slow down, so we cannot check your membership right now. Please try again after ${at} UTC${day} (in about ${wait}).`;
}
