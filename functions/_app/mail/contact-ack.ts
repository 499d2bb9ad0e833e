import type { RenderedMail } from '../../../db/queries/mail';
import { type MailSite, renderMail } from './layout';

/** What the acknowledgement says. */
export interface ContactAckData {
  name: string;
  subject: string;
  message: string;
}

/** To the visitor who wrote: their message arrived, a person answers, and a copy of what they sent. */
export function contactAckMail(site: MailSite, data: ContactAckData): RenderedMail {
  return renderMail(site, {
    subject: `We received your message: ${data.subject}`,
    heading: `Hi ${data.name}, thanks for writing to ${site.name}.`,
    blocks: [
      { kind: 'p', text: `A person reads every message and answers by email from ${site.supportEmail}.` },
      { kind: 'p', text: 'What you sent:' },
      { kind: 'quote', text: data.message },
    ],
  });
}
