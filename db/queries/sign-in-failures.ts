import { and, count, eq, gt, lt, max, sql } from 'drizzle-orm';
import type { SignInHistory } from '../../src/lib/sign-in-throttle';
import type { Db } from '../client';
import { signInFailures } from '../schema';

/** Who is trying to sign in: hashed client address and hashed lowercased email. */
export interface SignInKey {
  ipHash: string;
  emailHash: string;
}

const t = signInFailures;

/**
 * Records an attempt before its password is checked and returns it with the failures from the
 * same address that came before it (since `since`), per address and per (email, address).
 * One batch, so the sweep, the insert and the count run as one transaction: parallel guesses
 * each see the ones written before them, and no two app instances can both slip past a limit.
 */
export async function beginSignInAttempt(
  db: Db,
  key: SignInKey,
  at: string,
  since: string,
): Promise<{ id: number; history: SignInHistory }> {
  const [, inserted, tallies] = await db.batch([
    db.delete(t).where(lt(t.created_at, since)),
    db.insert(t).values({ ip_hash: key.ipHash, email_hash: key.emailHash, created_at: at }).returning({ id: t.id }),
    db
      .select({
        addressFailures: count(),
        addressLast: max(t.created_at),
        pairFailures: sql<number>`coalesce(sum(${t.email_hash} = ${key.emailHash}), 0)`,
        pairLast: sql<string | null>`max(case when ${t.email_hash} = ${key.emailHash} then ${t.created_at} end)`,
      })
      .from(t)
      // Inside the batch's transaction the newest id is this attempt's own row.
      .where(and(eq(t.ip_hash, key.ipHash), gt(t.created_at, since), lt(t.id, sql`(select max(id) from ${t})`))),
  ]);
  const row = tallies[0];
  return {
    id: inserted[0]!.id,
    history: {
      address: { failures: Number(row?.addressFailures ?? 0), lastAt: row?.addressLast ?? null },
      pair: { failures: Number(row?.pairFailures ?? 0), lastAt: row?.pairLast ?? null },
    },
  };
}

/** Removes one attempt's row (one the throttle refused before checking, so it was no failure). */
export async function forgetSignInAttempt(db: Db, id: number): Promise<void> {
  await db.delete(t).where(eq(t.id, id));
}

/** Clears the failures of one email from one address, after a good password. */
export async function clearSignInFailures(db: Db, key: SignInKey): Promise<void> {
  await db.delete(t).where(and(eq(t.ip_hash, key.ipHash), eq(t.email_hash, key.emailHash)));
}

/** Deletes failures older than `before` (ISO); returns how many went. */
export async function sweepSignInFailures(db: Db, before: string): Promise<number> {
  const result = await db.delete(t).where(lt(t.created_at, before));
  return result.rowsAffected;
}
