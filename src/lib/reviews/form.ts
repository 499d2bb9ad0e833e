// The review form's addresses and the sentences that tell its author where their review stands
// (#31), said once for the page's script (server-reviews.ts) and the page the review route renders
// for a browser without JavaScript (functions/_app/lib/review-page.ts).

/** Where a listing's review form posts (JSON from the script, a plain form without it). */
export const reviewFormAction = (serverId: number): string => `/api/reviews/servers/${serverId}`;

/**
 * Where a review sent without JavaScript lands: the server's page as its author sees it (their
 * review shown at once, whatever its status, and the form filled in for editing).
 */
export const ownReviewPath = (serverId: number): string => `/api/reviews/servers/${serverId}/yours`;

/** What a review's author reads about it. */
export function ownReviewNote(status: 'shown' | 'held' | 'hidden', hiddenReason: string | null): string {
  if (status === 'held') return 'Your review is held for review: a moderator reads it before it shows.';
  if (status === 'hidden') return `Your review is hidden by moderators: ${hiddenReason ?? ''}`;
  return 'Your review is published. You can edit or delete it.';
}

/** What the author of a held review is told as it is saved, by why it is held (reviews.held_reason). */
export function heldMessage(heldReason: string | null): string {
  if (heldReason === 'burst')
    return 'Held for review: this server got many new reviews today, so a moderator reads yours before it shows.';
  if (heldReason === 'after_hide')
    return 'Held for review: moderators hid your earlier review of this server, so a moderator reads this one before it shows.';
  return 'Held for review: a moderator reads it before it shows.';
}

/**
 * The questions a delete asks before it runs (the server page's script and the account page): a
 * deleted review or reply is gone for good, so one click on Delete no longer removes it.
 */
export const DELETE_QUESTIONS = {
  review: 'Delete this review? It goes for good: you can write a new one afterwards.',
  reply: 'Delete this reply? It goes for good: you can write a new one afterwards.',
} as const;

/** What the listing's owner reads where others write a review. */
export const OWNER_REVIEW_NOTE = 'You own this listing: you can reply to each review once, but not review it.';

/**
 * What the author's view says when a refused post comes back to it by its code (`?error=`: only
 * when the form refused is not on that view, e.g. a reply posted by someone who does not own the
 * listing); any other code gets the general sentence.
 */
export function refusedPostNote(code: string): string {
  if (code === 'not_owner') return 'Only the owner of this listing can reply to its reviews.';
  return 'What you sent was not saved. Please try again.';
}

/** The author's own review as their view of the page shows it (the no-JS page and the page's script). */
export interface OwnReviewFields {
  id: number;
  rating: number;
  body: string;
  display_name: string;
  status: 'shown' | 'held' | 'hidden';
  hidden_reason: string | null;
}
