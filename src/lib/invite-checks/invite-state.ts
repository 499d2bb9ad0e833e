import type { InviteStatus } from '../enums';

/** What a listing's invite status means for its Join button, its notice and its indexing. */
export interface InviteView {
  /** Whether the Join button shows. */
  join: boolean;
  /** The notice shown in place of (or under) the Join button, if any. */
  notice: string | null;
  /** Whether the page asks search engines not to index it. */
  noindex: boolean;
}

/** The notice of an invite Discord stopped knowing: said the same on cards and server pages. */
export const STOPPED_NOTICE = 'This invite stopped working; we are checking again.';
/** The notice of an invite the server's admins paused. */
export const PAUSED_NOTICE = "The server's admins have paused invites.";

/**
 * The page's answer to an invite status: suspect and dead replace Join with the notice (a dead
 * listing's page is also noindex: it is off every listing until the invite answers again); paused
 * replaces it with the paused notice; expiring keeps Join and says the invite is temporary (Discord
 * gives no date for it here); unchecked and ok keep Join as it is. `wrong_guild` pages are not built.
 */
export function inviteView(status: InviteStatus | null | undefined): InviteView {
  switch (status) {
    case 'suspect':
      return { join: false, notice: STOPPED_NOTICE, noindex: false };
    case 'dead':
    case 'wrong_guild':
      return { join: false, notice: STOPPED_NOTICE, noindex: true };
    case 'paused':
      return { join: false, notice: PAUSED_NOTICE, noindex: false };
    case 'expiring':
      return { join: true, notice: 'This invite is temporary and expires soon.', noindex: false };
    default:
      return { join: true, notice: null, noindex: false };
  }
}
