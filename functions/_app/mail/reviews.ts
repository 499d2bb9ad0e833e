// The review mails (#31): to a listing's owner when a new review shows, to a reviewer when the
// owner replies and when moderators hide their review. Every value a person wrote (names, texts)
// goes through renderMail's escaping; a link in a review stays text.
import type { RenderedMail } from '../../../db/queries/mail';
import { type MailSite, renderMail } from './layout';

const stars = (n: number) => `${n} of 5 stars`;

/** To the listing's owner: a new review shows on its page. */
export function reviewNewMail(
  site: MailSite,
  data: { serverName: string; serverUrl: string; reviewer: string; rating: number; body: string },
): RenderedMail {
  return renderMail(site, {
    subject: `New review of ${data.serverName}`,
    heading: `${data.reviewer} reviewed ${data.serverName}: ${stars(data.rating)}.`,
    blocks: [
      { kind: 'quote', text: data.body },
      {
        kind: 'p',
        text: 'You can publish one reply to each review from your listing page or from Reviews of my listings on your account.',
      },
      { kind: 'link', label: 'Read and reply', href: `${data.serverUrl}#reviews` },
      {
        kind: 'p',
        text: `You get this because you own ${data.serverName} on ${site.name}. Turn these mails off under Mail settings in your account: ${site.url}/account`,
      },
    ],
  });
}

/** To the reviewer: the listing's owner replied. */
export function reviewReplyMail(
  site: MailSite,
  data: { serverName: string; serverUrl: string; reply: string },
): RenderedMail {
  return renderMail(site, {
    subject: `${data.serverName} replied to your review`,
    heading: `The owner of ${data.serverName} replied to your review.`,
    blocks: [
      { kind: 'quote', text: data.reply },
      { kind: 'link', label: 'See it on the page', href: `${data.serverUrl}#reviews` },
    ],
  });
}

/**
 * To the reviewer: moderators hid their review, and the public reason. Editing and deleting are on
 * the listing's page (the account page lists reviews without either); the caller sets Reply-To to
 * the support address, so "reply to this mail" reaches a person.
 */
export function reviewHiddenMail(
  site: MailSite,
  data: { serverName: string; serverUrl: string; reason: string },
): RenderedMail {
  return renderMail(site, {
    subject: `Your review of ${data.serverName} was hidden`,
    heading: `Our moderators hid your review of ${data.serverName}.`,
    blocks: [
      { kind: 'p', text: `The page now says: hidden by moderators: ${data.reason}` },
      {
        kind: 'p',
        text: `You can edit or delete it on the listing's page, signed in with Discord (${data.serverUrl}#write-review). It stays hidden either way unless a moderator shows it again: a review you write after deleting this one is read by a moderator before it shows. If you think this is a mistake, reply to this mail or write to ${site.supportEmail}.`,
      },
      { kind: 'link', label: 'Your review on the listing', href: `${data.serverUrl}#write-review` },
    ],
  });
}
