import type { RenderedMail } from '../../../db/queries/mail';
import { decisionBlocks, type MailSite, renderMail } from './layout';

/** What the "not approved" mail says. */
export interface SubmissionRejectedData {
  serverName: string;
  /** The reasons picked (#32), as reasonLines writes them (a requirement with its link). */
  reasons: string[];
  /** The moderator's note; null when they left none. */
  note: string | null;
  /** The signed link to appeal this decision once (lib/appeal-link.ts). */
  appealUrl: string;
}

/** To the submitter, written with the rejection: the reasons, the note, the appeal link, and how to try again. */
export function submissionRejectedMail(site: MailSite, data: SubmissionRejectedData): RenderedMail {
  return renderMail(site, {
    subject: `${data.serverName} was not approved`,
    heading: `We reviewed ${data.serverName} and did not approve it.`,
    blocks: [
      ...decisionBlocks(data.reasons, data.note, 'The moderator left no note.'),
      {
        kind: 'p',
        text: 'If you think this is wrong, you can appeal once through the link below, without an account (up to 1,000 characters). Another moderator reviews it where there is one, and we email you the outcome.',
      },
      { kind: 'link', label: 'Appeal this decision', href: data.appealUrl },
      {
        kind: 'p',
        text: `You can also submit it again once the points above are addressed, or write to ${site.supportEmail} with any question.`,
      },
      { kind: 'link', label: 'Submit a server', href: `${site.url}/submit-server` },
    ],
  });
}
