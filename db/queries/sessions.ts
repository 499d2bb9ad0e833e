import { eq, lte, or } from 'drizzle-orm';
import { base64url, sha256Hex } from '../../src/lib/hash';
import type { Db } from '../client';
import { type OperatorRow, operators, sessions } from '../schema';

/** A session ends after this long without a request (sliding). */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
/** A session ends this long after sign-in, however active. */
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
/** Touching last_seen_at more often than this is pointless write traffic. */
const TOUCH_EVERY_MS = 60 * 1000;

const randomToken = () => base64url(crypto.getRandomValues(new Uint8Array(32)));

/** A live session with its operator. */
export interface ActiveSession {
  id: string;
  csrfToken: string;
  operator: Pick<OperatorRow, 'id' | 'email' | 'role'>;
}

/**
 * Starts a session: a fresh random token for the cookie (only its SHA-256 is stored, so a
 * database leak yields no usable cookie) and a CSRF token for the console's headers.
 */
export async function createSession(
  db: Db,
  operatorId: number,
  now = Date.now(),
): Promise<{ token: string; csrfToken: string; expiresAt: string }> {
  const token = randomToken();
  const csrfToken = randomToken();
  const expiresAt = new Date(now + SESSION_ABSOLUTE_MS).toISOString();
  await db.insert(sessions).values({
    id: await sha256Hex(token),
    operator_id: operatorId,
    csrf_token: csrfToken,
    created_at: new Date(now).toISOString(),
    last_seen_at: new Date(now).toISOString(),
    expires_at: expiresAt,
  });
  return { token, csrfToken, expiresAt };
}

/**
 * The live session for a cookie token, sliding its idle window; null when unknown, idle
 * too long or past its absolute expiry (such rows are deleted on sight).
 */
export async function getActiveSession(db: Db, token: string, now = Date.now()): Promise<ActiveSession | null> {
  if (!token || token.length > 200) return null;
  const id = await sha256Hex(token);
  const [row] = await db
    .select({
      id: sessions.id,
      csrf: sessions.csrf_token,
      lastSeen: sessions.last_seen_at,
      expiresAt: sessions.expires_at,
      opId: operators.id,
      email: operators.email,
      role: operators.role,
    })
    .from(sessions)
    .innerJoin(operators, eq(operators.id, sessions.operator_id))
    .where(eq(sessions.id, id))
    .limit(1);
  if (!row) return null;
  if (Date.parse(row.expiresAt) <= now || Date.parse(row.lastSeen) + SESSION_IDLE_MS <= now) {
    await deleteSession(db, token);
    return null;
  }
  if (now - Date.parse(row.lastSeen) > TOUCH_EVERY_MS) await touchSession(db, id, now);
  return { id: row.id, csrfToken: row.csrf, operator: { id: row.opId, email: row.email, role: row.role } };
}

/** Moves a session's idle window forward. */
export async function touchSession(db: Db, sessionId: string, now = Date.now()): Promise<void> {
  await db
    .update(sessions)
    .set({ last_seen_at: new Date(now).toISOString() })
    .where(eq(sessions.id, sessionId));
}

/** Ends one session by its cookie token. */
export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, await sha256Hex(token)));
}

/**
 * Deletes every session getActiveSession would refuse at `now`: idle for SESSION_IDLE_MS or past
 * its absolute expiry (the session sweep, jobs/session-sweep.ts). Returns how many went.
 */
export async function deleteExpiredSessions(db: Db, now = Date.now()): Promise<number> {
  const result = await db
    .delete(sessions)
    .where(
      or(
        lte(sessions.expires_at, new Date(now).toISOString()),
        lte(sessions.last_seen_at, new Date(now - SESSION_IDLE_MS).toISOString()),
      ),
    );
  return result.rowsAffected;
}
