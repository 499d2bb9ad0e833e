import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { type ContactRow, contactMessages } from '../schema';

/** A stored contact message. */
export type ContactMessage = ContactRow;
/** What the contact form sends. */
export type ContactWrite = Pick<
  typeof contactMessages.$inferInsert,
  'name' | 'email' | 'subject' | 'message' | 'priority'
>;
/** Where a message is in the team's inbox. */
export type ContactStatus = ContactMessage['status'];

/** Filter and page of listContactMessages. */
export interface ContactListOptions {
  status?: ContactStatus | undefined;
  page?: number | undefined;
  perPage?: number | undefined;
}

/** Stores a contact message with status 'new'; returns the row. */
export async function createContactMessage(db: Db, input: ContactWrite): Promise<ContactMessage> {
  const [row] = await db
    .insert(contactMessages)
    .values({ ...input, status: 'new' })
    .returning();
  return row!;
}

/** Messages newest first, optionally of one status, one page with the total. */
export async function listContactMessages(
  db: Db,
  options: ContactListOptions = {},
): Promise<{ messages: ContactMessage[]; total: number }> {
  const where = options.status ? eq(contactMessages.status, options.status) : undefined;
  const perPage = options.perPage ?? 50;
  const page = options.page ?? 1;
  const [messages, totals] = await Promise.all([
    db
      .select()
      .from(contactMessages)
      .where(where)
      .orderBy(desc(contactMessages.created_at), desc(contactMessages.id))
      .limit(perPage)
      .offset((page - 1) * perPage),
    db.select({ n: sql<number>`count(*)` }).from(contactMessages).where(where),
  ]);
  return { messages, total: Number(totals[0]?.n ?? 0) };
}

/** Sets a message's status (read, replied, archived...); returns the row or null. */
export async function setContactStatus(db: Db, id: number, status: ContactStatus): Promise<ContactMessage | null> {
  const [row] = await db.update(contactMessages).set({ status }).where(eq(contactMessages.id, id)).returning();
  return row ?? null;
}
