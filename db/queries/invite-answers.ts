// Discord's recent answers per invite code (invite_answers): the submit form's live check, the
// check on submit and an owner's replacement invite read them first, so a code asked again within
// its time (an unknown one included) costs no lookup of the site's budget.
import { and, eq, gt, lte } from 'drizzle-orm';
import type { InviteAnswer } from '../../src/lib/invite-checks/classify';
import type { Db } from '../client';
import { inviteAnswers } from '../schema';

const iso = (ms: number) => new Date(ms).toISOString();

/** Discord's answer for `code` while it is fresh at `now`, or null. */
export async function getCachedInviteAnswer(db: Db, code: string, now: number): Promise<InviteAnswer | null> {
  const [row] = await db
    .select({ answer: inviteAnswers.answer })
    .from(inviteAnswers)
    .where(and(eq(inviteAnswers.code, code), gt(inviteAnswers.expires_at, iso(now))))
    .limit(1);
  return row ? ({ ...row.answer, rateLimit: null } as unknown as InviteAnswer) : null;
}

/** Keeps Discord's answer for `code` until `now + ttlMs`, sweeping expired answers in the same batch. */
export async function cacheInviteAnswer(
  db: Db,
  code: string,
  answer: InviteAnswer,
  now: number,
  ttlMs: number,
): Promise<void> {
  // The rate-limit headers are the moment's, not the invite's.
  const { rateLimit: _rateLimit, ...kept } = answer as InviteAnswer & { rateLimit?: unknown };
  const stored = kept as unknown as Record<string, unknown>;
  await db.batch([
    db.delete(inviteAnswers).where(lte(inviteAnswers.expires_at, iso(now))),
    db
      .insert(inviteAnswers)
      .values({ code, answer: stored, expires_at: iso(now + ttlMs) })
      .onConflictDoUpdate({ target: inviteAnswers.code, set: { answer: stored, expires_at: iso(now + ttlMs) } }),
  ]);
}
