import { eq } from 'drizzle-orm';
import type { Db } from '../client';
import { type ContactRow, contactMessages } from '../schema';
import { type AuditWrite, withAudit } from './audit';
import { enqueueMail, type MailInput } from './mail';
import { type PageOptions, pageNewestFirst } from './paginate';

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
export interface ContactListOptions extends PageOptions {
  status?: ContactStatus | undefined;
}

/**
 * Stores a contact message with status 'new'; returns the row. `mails` (#16: the message to
 * SUPPORT_EMAIL, the visitor's acknowledgement) are written to the outbox in the same batch.
 */
export async function createContactMessage(
  db: Db,
  input: ContactWrite,
  mails: MailInput[] = [],
): Promise<ContactMessage> {
  const [rows] = await db.batch([
    db
      .insert(contactMessages)
      .values({ ...input, status: 'new' })
      .returning(),
    ...mails.map((m) => enqueueMail(db, m)),
  ]);
  return rows[0]!;
}

/** Messages newest first, optionally of one status, one page with the total. */
export async function listContactMessages(
  db: Db,
  options: ContactListOptions = {},
): Promise<{ messages: ContactMessage[]; total: number }> {
  const where = options.status ? eq(contactMessages.status, options.status) : undefined;
  const { rows, total } = await pageNewestFirst(db, contactMessages, where, options);
  return { messages: rows, total };
}

/** Sets a message's status (read, replied, archived...), with `audit`'s row in the same batch; the row or null. */
export async function setContactStatus(
  db: Db,
  id: number,
  status: ContactStatus,
  audit?: AuditWrite,
): Promise<ContactMessage | null> {
  const [row] = await withAudit(
    db,
    db.update(contactMessages).set({ status }).where(eq(contactMessages.id, id)).returning(),
    audit,
  );
  return row ?? null;
}
