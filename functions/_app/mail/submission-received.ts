import type { RenderedMail } from '../../../db/queries/mail';
import { CLAIMS } from '../../../src/lib/claims';
import { type MailSite, renderMail } from './layout';

/** What the "submission received" mail says. */
export interface SubmissionReceivedData {
  serverName: string;
  submitterName: string;
  /** The queue as it stands when the submission arrives (#32: queueSentence). */
  queue: string;
}

/** To the submitter, written with the submission: what happens next and the queue as it stands (#32). */
export function submissionReceivedMail(site: MailSite, data: SubmissionReceivedData): RenderedMail {
  return renderMail(site, {
    subject: `We received ${data.serverName}`,
    heading: `Hi ${data.submitterName}, we received your server ${data.serverName}.`,
    blocks: [
      { kind: 'p', text: CLAIMS.reviewedByHand },
      { kind: 'p', text: data.queue },
      {
        kind: 'p',
        text: `We will email you the outcome at this address: the address of its page when it is approved, or the reasons, any note and a link to appeal when it is not.`,
      },
    ],
  });
}
