import type { RenderedMail } from '../../../db/queries/mail';
import type { AppealOutcome, DecisionKind } from '../../../src/lib/enums';
import { type MailSite, renderMail } from './layout';

/** What the appeal's outcome mail says. */
export interface AppealDecidedData {
  serverName: string;
  kind: DecisionKind;
  outcome: AppealOutcome;
  note: string | null;
}

/** To the submitter or owner, written with the appeal's decision (#32): the outcome and what follows. */
export function appealDecidedMail(site: MailSite, data: AppealDecidedData): RenderedMail {
  const note = data.note?.trim();
  const what = data.kind === 'rejection' ? 'the rejection of' : 'hiding';
  const next =
    data.outcome === 'upheld'
      ? 'The decision stands. This was the one appeal of this decision.'
      : data.kind === 'rejection'
        ? 'The rejection is withdrawn: your submission is back in the review queue, and we will email you the outcome.'
        : 'Your listing is visible again.';
  return renderMail(site, {
    subject: `Your appeal about ${data.serverName}: ${data.outcome === 'upheld' ? 'decision upheld' : 'decision overturned'}`,
    heading: `We reviewed your appeal against ${what} ${data.serverName}.`,
    blocks: [
      { kind: 'p', text: next },
      ...(note
        ? ([
            { kind: 'p', text: 'The moderator wrote:' },
            { kind: 'quote', text: note },
          ] as const)
        : []),
      { kind: 'p', text: `Write to ${site.supportEmail} with any question.` },
    ],
  });
}
