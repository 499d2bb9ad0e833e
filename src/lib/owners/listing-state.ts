import type { InviteStatus } from '../enums';

/** What an owner's page says of each of their listings (#17). */
export const OWNER_LISTING_STATES = ['pending', 'live', 'invite_problem', 'hidden'] as const;
export type OwnerListingState = (typeof OWNER_LISTING_STATES)[number];

/** The words the account page shows for each state. */
export const OWNER_LISTING_STATE_LABELS: Record<OwnerListingState, string> = {
  pending: 'Pending review',
  live: 'Live',
  invite_problem: 'Invite problem',
  hidden: 'Hidden',
};

/** Invite states that need the owner: the Join button does not work, or will stop working. */
const PROBLEMS: readonly InviteStatus[] = ['paused', 'expiring', 'suspect', 'dead', 'wrong_guild'];

/** A claimed listing's state: hidden by an operator, an invite that needs fixing, or live. */
export function listingState(listing: { is_active: boolean; invite_status: InviteStatus }): OwnerListingState {
  if (!listing.is_active) return 'hidden';
  return PROBLEMS.includes(listing.invite_status) ? 'invite_problem' : 'live';
}
