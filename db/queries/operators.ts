import { count, eq } from 'drizzle-orm';
import { hashPassword } from '../../src/lib/password';
import type { Db } from '../client';
import { type OperatorRow, operators } from '../schema';

/** An operator row, hash included (server-side only). */
export type Operator = OperatorRow;
/** admin or moderator. */
export type OperatorRole = OperatorRow['role'];
/** What the console and handlers see of an operator (never the hash). */
export type PublicOperator = Pick<OperatorRow, 'id' | 'email' | 'role'>;

/** The public fields of an operator row. */
export const toPublicOperator = (o: OperatorRow): PublicOperator => ({ id: o.id, email: o.email, role: o.role });

/** Creates an operator with a hashed password; the email is stored lowercased. */
export async function createOperator(
  db: Db,
  input: { email: string; password: string; role?: OperatorRole },
): Promise<Operator> {
  return insertOperator(db, { ...input, passwordHash: await hashPassword(input.password) });
}

/** Stores an operator whose password is already hashed (createOperator hashes; tests share one hash). */
export async function insertOperator(
  db: Db,
  input: { email: string; passwordHash: string; role?: OperatorRole },
): Promise<Operator> {
  const [row] = await db
    .insert(operators)
    .values({
      email: input.email.trim().toLowerCase(),
      password_hash: input.passwordHash,
      role: input.role ?? 'moderator',
    })
    .returning();
  return row!;
}

/** One operator by email (case-insensitive), or null. */
export async function getOperatorByEmail(db: Db, email: string): Promise<Operator | null> {
  const [row] = await db.select().from(operators).where(eq(operators.email, email.trim().toLowerCase())).limit(1);
  return row ?? null;
}

/** How many operators exist. */
export async function countOperators(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(operators);
  return Number(row?.n ?? 0);
}

/** Stamps the time of a good sign-in (the throttle's failures are cleared by the caller). */
export async function recordSuccessfulLogin(db: Db, id: number, now = Date.now()): Promise<void> {
  await db
    .update(operators)
    .set({ last_login_at: new Date(now).toISOString() })
    .where(eq(operators.id, id));
}

/** Replaces an operator's password hash (rehash on sign-in, password change). */
export async function setOperatorPasswordHash(db: Db, id: number, passwordHash: string): Promise<void> {
  await db.update(operators).set({ password_hash: passwordHash }).where(eq(operators.id, id));
}

/** Creates the first admin from ADMIN_EMAIL/ADMIN_PASSWORD when no operator exists yet; true when created. */
export async function ensureFirstOperator(
  db: Db,
  env: { ADMIN_EMAIL?: string | undefined; ADMIN_PASSWORD?: string | undefined },
): Promise<boolean> {
  if (!env.ADMIN_EMAIL || !env.ADMIN_PASSWORD) return false;
  if ((await countOperators(db)) > 0) return false;
  await createOperator(db, { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD, role: 'admin' });
  return true;
}
