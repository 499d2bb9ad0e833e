import type { RenderedMail } from '../../../db/queries/mail';
import { type MailSite, renderMail } from './layout';

/** What the acknowledgement says: nothing the visitor typed, only the subject they picked. */
export interface ContactAckData {
  /** The label of the subject chosen from the form's list (never free text). */
  subject: string;
}

/**
 * To the visitor who wrote: their message arrived and a person answers. It quotes nothing of the
 * message: the address is whatever the visitor typed, unproven, so the mail must carry no text a
 * stranger chose (their message, their name) to someone else's inbox.
 */
export function contactAckMail(site: MailSite, data: ContactAckData): RenderedMail {
  return renderMail(site, {
    subject: `We received your message: ${data.subject}`,
    heading: `Thanks for writing to ${site.name}.`,
    blocks: [
      { kind: 'p', text: `A person reads every message and answers by email from ${site.supportEmail}.` },
      {
        kind: 'p',
        text: `If you did not write to ${site.name}, someone typed your address in our contact form: you can ignore this mail.`,
      },
    ],
  });
}
