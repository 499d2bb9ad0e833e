import { describe, expect, it } from 'vitest';
import { contactAckMail } from './contact-ack';
import { contactMessageMail } from './contact-message';
import { inviteDeadMail } from './invite-dead';
import { type MailSite, newsletterHeaders } from './layout';
import { newsletterConfirmMail } from './newsletter-confirm';
import { newsletterIssueMail } from './newsletter-issue';
import { newsletterWelcomeMail } from './newsletter-welcome';
import { submissionApprovedMail } from './submission-approved';
import { submissionReceivedMail } from './submission-received';
import { submissionRejectedMail } from './submission-rejected';

const site: MailSite = {
  name: 'GuildRank',
  url: 'https://guildrank.example',
  supportEmail: 'support@guildrank.example',
};
const evil = '<script>alert("x")</script>&';
const unsub = 'https://guildrank.example/unsubscribe?token=abc.def';

/** Every template, fed a hostile value wherever a person's words go. */
const ALL = {
  received: submissionReceivedMail(site, { serverName: evil, submitterName: evil, queue: evil }),
  approved: submissionApprovedMail(site, { serverName: evil, serverUrl: 'https://guildrank.example/server/x' }),
  rejected: submissionRejectedMail(site, {
    serverName: evil,
    reasons: [evil],
    note: evil,
    appealUrl: 'https://guildrank.example/appeal?token=x',
  }),
  dead: inviteDeadMail(site, {
    serverName: evil,
    serverUrl: 'https://guildrank.example/server/x',
    failingSince: '2026-11-20T10:00:00.000Z',
  }),
  contact: contactMessageMail(site, {
    name: evil,
    email: 'v@example.com',
    subject: 'General',
    priority: 'normal',
    message: evil,
  }),
  ack: contactAckMail(site, { subject: 'General' }),
  confirm: newsletterConfirmMail(site, {
    confirmUrl: 'https://guildrank.example/newsletter/confirm?token=a.b',
    unsubscribeUrl: unsub,
  }),
  welcome: newsletterWelcomeMail(site, { unsubscribeUrl: unsub }),
  issue: newsletterIssueMail(site, {
    issue: {
      week: '2026-W48',
      picks: [{ name: evil, slug: 'evil', description: evil, note: 'Premium' }],
      growing: [{ name: 'Grower', slug: 'grower', description: 'Grows', note: '+10 members, now 110' }],
    },
    unsubscribeUrl: unsub,
  }),
};

describe('mail templates', () => {
  it.each(Object.entries(ALL))(
    '%s: a subject, a text and an HTML part with the site’s name, address and support address',
    (_, mail) => {
      expect(mail.subject.length).toBeGreaterThan(0);
      for (const part of [mail.text, mail.html]) {
        expect(part).toContain('GuildRank');
        expect(part).toContain('guildrank.example');
        expect(part).toContain(site.supportEmail);
      }
    },
  );

  it.each(Object.entries(ALL))('%s: the HTML escapes every value and carries no image or tracking pixel', (_, mail) => {
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toMatch(/<img|background-image|url\(/i);
    expect(mail.html).not.toMatch(/&(?!amp;|lt;|gt;|quot;|#39;)/);
  });

  it('the text part carries each person’s words as written', () => {
    expect(ALL.rejected.text).toContain(`> ${evil}`);
    expect(ALL.contact.text).toContain(evil);
    expect(ALL.rejected.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;');
  });

  it('the received mail states the queue it is given and promises the outcome by mail', () => {
    expect(ALL.received.text).toContain(evil);
    expect(ALL.received.text).toMatch(/email you the outcome/);
  });

  it('the approved mail links the live page; the dead-invite mail says how to fix it', () => {
    expect(ALL.approved.text).toContain('https://guildrank.example/server/x');
    expect(ALL.approved.html).toContain('href="https://guildrank.example/server/x"');
    expect(ALL.dead.text).toMatch(/never expire/);
    expect(ALL.dead.text).toContain('https://guildrank.example/contact');
  });

  it('newsletter mails carry the unsubscribe link in the body; others do not', () => {
    for (const mail of [ALL.confirm, ALL.welcome, ALL.issue]) {
      expect(mail.text).toContain(unsub);
      expect(mail.html).toContain(`href="${unsub}"`);
    }
    for (const mail of [ALL.received, ALL.approved, ALL.contact]) expect(mail.text).not.toContain('unsubscribe?token');
    expect(ALL.confirm.text).toContain('https://guildrank.example/newsletter/confirm?token=a.b');
    expect(ALL.issue.text).toContain('https://guildrank.example/server/grower');
  });

  it('newsletterHeaders are RFC 8058’s one-click pair', () => {
    expect(newsletterHeaders(unsub)).toEqual({
      'List-Unsubscribe': `<${unsub}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });
});
