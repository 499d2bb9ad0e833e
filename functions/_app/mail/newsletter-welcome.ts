import type { RenderedMail } from '../../../db/queries/mail';
import { type MailSite, renderMail } from './layout';

/** The link of the welcome mail. */
export interface NewsletterWelcomeData {
  unsubscribeUrl: string;
}

/** To a subscriber who just confirmed: what comes, and how to stop it. */
export function newsletterWelcomeMail(site: MailSite, data: NewsletterWelcomeData): RenderedMail {
  return renderMail(site, {
    subject: `You are subscribed to the ${site.name} weekly picks`,
    heading: 'Your subscription is confirmed.',
    blocks: [
      {
        kind: 'p',
        text: 'Once a week you will get our premium and sponsored picks and the fastest-growing servers of the week. Every issue has a one-click unsubscribe link.',
      },
      { kind: 'link', label: `Browse ${site.name}`, href: site.url },
    ],
    unsubscribeUrl: data.unsubscribeUrl,
  });
}
