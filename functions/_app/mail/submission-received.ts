import type { RenderedMail } from '../../../db/queries/mail';
import { CLAIMS } from '../../../src/lib/claims';
import { type MailSite, renderMail } from './layout';

/** What the "submission received" mail says. */
export interface SubmissionReceivedData {
  serverName: string;
  submitterName: string;
}

/** To the submitter, written with the submission: what happens next and the honest review time. */
export function submissionReceivedMail(site: MailSite, data: SubmissionReceivedData): RenderedMail {
  return renderMail(site, {
    subject: `We received ${data.serverName}`,
    heading: `Hi ${data.submitterName}, we received your server ${data.serverName}.`,
    blocks: [
      { kind: 'p', text: CLAIMS.reviewedByHand },
      { kind: 'p', text: CLAIMS.reviewTime },
      {
        kind: 'p',
        text: `We will email you the outcome at this address: the address of its page when it is approved, or the moderator's note when it is not.`,
      },
    ],
  });
}
