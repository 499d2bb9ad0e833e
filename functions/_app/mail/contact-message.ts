import type { RenderedMail } from '../../../db/queries/mail';
import { type MailSite, renderMail } from './layout';

/** A contact form message, as stored. */
export interface ContactMessageData {
  name: string;
  email: string;
  /** The subject's label (CONTACT_SUBJECTS). */
  subject: string;
  priority: string;
  message: string;
}

/** To SUPPORT_EMAIL (Reply-To the visitor): the message itself, and where it is in the console. */
export function contactMessageMail(site: MailSite, data: ContactMessageData): RenderedMail {
  return renderMail(site, {
    subject: `[Contact] ${data.subject}: ${data.name}`,
    heading: `${data.name} <${data.email}> wrote through the contact form.`,
    blocks: [
      { kind: 'p', text: `Subject: ${data.subject}. Priority: ${data.priority}.` },
      { kind: 'quote', text: data.message },
      { kind: 'p', text: 'Reply to this mail to answer them; the message is also in the console inbox.' },
      { kind: 'link', label: 'Console inbox', href: `${site.url}/admin#contact` },
    ],
  });
}
