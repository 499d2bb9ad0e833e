import type { RenderedMail } from '../../../db/queries/mail';
import { type MailSite, renderMail } from './layout';

/** What the "invite stopped working" mail says. */
export interface InviteDeadData {
  serverName: string;
  serverUrl: string;
  /** ISO time of the first failed check. */
  failingSince: string;
}

/** To the submitter, from the refresh job: the listing's invite is dead, and how to fix it. */
export function inviteDeadMail(site: MailSite, data: InviteDeadData): RenderedMail {
  return renderMail(site, {
    subject: `The invite of ${data.serverName} stopped working`,
    heading: `The invite link of ${data.serverName} no longer works.`,
    blocks: [
      {
        kind: 'p',
        text: `Discord has answered "unknown invite" for it since ${data.failingSince.slice(0, 10)}, so the listing now shows as not joinable and is left out of the lists.`,
      },
      { kind: 'link', label: 'The listing', href: data.serverUrl },
      {
        kind: 'p',
        text: 'To fix it: in Discord, open Server Settings, then Invites (or right-click a channel and pick Invite People), create an invite set to never expire and with no limit on uses, and send us the new link by replying to this mail or through the contact form.',
      },
      { kind: 'link', label: 'Contact form', href: `${site.url}/contact` },
      { kind: 'p', text: 'As soon as the new invite is on the listing, the next check brings it back.' },
    ],
  });
}
