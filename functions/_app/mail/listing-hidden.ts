import type { RenderedMail } from '../../../db/queries/mail';
import { decisionBlocks, type MailSite, renderMail } from './layout';

/** What the "listing hidden" mail says. */
export interface ListingHiddenData {
  serverName: string;
  /** The reasons picked (#32), as reasonLines writes them. */
  reasons: string[];
  note: string | null;
  /** The signed link to appeal this decision once. */
  appealUrl: string;
}

/** To the listing's contact address, written with the hide (#32): why, the note, and the appeal link. */
export function listingHiddenMail(site: MailSite, data: ListingHiddenData): RenderedMail {
  return renderMail(site, {
    subject: `${data.serverName} was hidden from GuildRank`,
    heading: `A moderator hid your listing ${data.serverName}: it is off every list and its page until this is resolved.`,
    blocks: [
      ...decisionBlocks(data.reasons, data.note),
      {
        kind: 'p',
        text: 'If you think this is wrong, you can appeal once through the link below, without an account (up to 1,000 characters). Another moderator reviews it where there is one, and we email you the outcome.',
      },
      { kind: 'link', label: 'Appeal this decision', href: data.appealUrl },
    ],
  });
}
