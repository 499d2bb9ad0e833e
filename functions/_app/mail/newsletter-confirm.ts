import type { RenderedMail } from '../../../db/queries/mail';
import { type MailSite, renderMail } from './layout';

/** The links of the confirmation mail. */
export interface NewsletterConfirmData {
  confirmUrl: string;
  unsubscribeUrl: string;
}

/** To a new (pending) subscriber: the one link that confirms the address; nothing else is sent before it. */
export function newsletterConfirmMail(site: MailSite, data: NewsletterConfirmData): RenderedMail {
  return renderMail(site, {
    subject: `Confirm your ${site.name} newsletter subscription`,
    heading: `Please confirm that you want the ${site.name} weekly picks.`,
    blocks: [
      {
        kind: 'p',
        text: 'Someone, hopefully you, signed this address up for our weekly email of premium and sponsored servers. Nothing is sent until you confirm.',
      },
      { kind: 'link', label: 'Confirm my subscription', href: data.confirmUrl },
      { kind: 'p', text: 'If it was not you, ignore this mail: without the confirmation you get nothing else.' },
    ],
    unsubscribeUrl: data.unsubscribeUrl,
  });
}
