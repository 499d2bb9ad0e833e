import type { RenderedMail } from '../../../db/queries/mail';
import { type MailSite, renderMail } from './layout';

/** What the "not approved" mail says. */
export interface SubmissionRejectedData {
  serverName: string;
  /** The operator's note; null when they left none. */
  note: string | null;
}

/** To the submitter, written with the rejection: the operator's note, and how to try again. */
export function submissionRejectedMail(site: MailSite, data: SubmissionRejectedData): RenderedMail {
  const note = data.note?.trim();
  return renderMail(site, {
    subject: `${data.serverName} was not approved`,
    heading: `We reviewed ${data.serverName} and did not approve it.`,
    blocks: [
      ...(note
        ? ([
            { kind: 'p', text: 'The moderator wrote:' },
            { kind: 'quote', text: note },
          ] as const)
        : ([{ kind: 'p', text: 'The moderator left no note.' }] as const)),
      {
        kind: 'p',
        text: `You can submit it again once the points above are addressed, or write to ${site.supportEmail} with any question.`,
      },
      { kind: 'link', label: 'Submit a server', href: `${site.url}/submit-server` },
    ],
  });
}
