import type { RenderedMail } from '../../../db/queries/mail';
import { type MailSite, renderMail } from './layout';

/** What the "approved" mail says. */
export interface SubmissionApprovedData {
  serverName: string;
  /** The live page, `{site}/server/{slug}`. */
  serverUrl: string;
}

/** To the submitter, written with the approval: the listing's live address. */
export function submissionApprovedMail(site: MailSite, data: SubmissionApprovedData): RenderedMail {
  return renderMail(site, {
    subject: `${data.serverName} is approved`,
    heading: `Good news: ${data.serverName} is approved.`,
    blocks: [
      {
        kind: 'p',
        text: `Approving it started a rebuild of ${site.name}; your server's page is live as soon as that rebuild is.`,
      },
      { kind: 'link', label: 'Your server page', href: data.serverUrl },
      {
        kind: 'p',
        text: `Keep its invite working: a refresh job checks it with Discord, and an invite that stops working takes the listing out of the lists until it is fixed.`,
      },
    ],
  });
}
