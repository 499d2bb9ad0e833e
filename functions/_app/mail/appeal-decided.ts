import type { RenderedMail } from '../../../db/queries/mail';
import type { AppealOutcome, DecisionKind } from '../../../src/lib/enums';
import { type MailSite, renderMail } from './layout';

/** What the appeal's outcome mail says. */
export interface AppealDecidedData {
  serverName: string;
  kind: DecisionKind;
  outcome: AppealOutcome;
  note: string | null;
  /**
   * Whether overturning undid the decision: false when a later decision about the same submission
   * or listing stands (an appeal lifts only its own decision), so the mail must not say it is shown.
   */
  lifted: boolean;
}

/** To the submitter or owner, written with the appeal's decision (#32): the outcome and what follows. */
export function appealDecidedMail(site: MailSite, data: AppealDecidedData): RenderedMail {
  const note = data.note?.trim();
  const what = data.kind === 'rejection' ? 'the rejection of' : 'hiding';
  const next =
    data.outcome === 'upheld'
      ? 'The decision stands. This was the one appeal of this decision.'
      : !data.lifted
        ? data.kind === 'rejection'
          ? 'The rejection is withdrawn, but your submission stays rejected: it was rejected again later by another decision, which stands and has its own appeal.'
          : 'The decision is withdrawn, but your listing stays hidden: it was hidden again later by another decision, which stands and has its own appeal.'
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
