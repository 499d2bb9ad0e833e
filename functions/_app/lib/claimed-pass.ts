import { CLAIM_LEASE_MS } from '../../../db/queries/mail';

/** Options of one pass over claimed outbox rows (the mail and the webhook senders). */
export interface ClaimedPassOptions {
  limit?: number;
  log?: (line: string) => void;
  /** The real time, for how long the pass has run (`now` is the trigger's); tests move their own. */
  clock?: () => number;
}

/**
 * A claim holds its rows for CLAIM_LEASE_MS; past it another sender may claim the same rows and send
 * them again. Started when the pass claims, the answer says whether the pass has used half of that
 * lease: a slow pass (a server taking seconds a message) then starts no send and gives the rest back.
 */
export function leaseWatch(clock: () => number = Date.now): () => boolean {
  const started = clock();
  return () => clock() - started > CLAIM_LEASE_MS / 2;
}
