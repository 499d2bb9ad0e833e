import type { RenderedMail } from '../../../db/queries/mail';
import { type MailSite, renderMail } from './layout';

/** To an owner whose Discord webhook Discord no longer knows (#32): it is switched off, and how to add it again. */
export function webhookDisabledMail(site: MailSite, data: { status: number }): RenderedMail {
  return renderMail(site, {
    subject: 'Your Discord webhook for GuildRank notices was switched off',
    heading: `Discord answered ${data.status} when we posted a notice to your webhook, so we switched it off.`,
    blocks: [
      {
        kind: 'p',
        text: 'This happens when the webhook was deleted or its URL changed. We send nothing more to it. To get notices again, create a webhook in Discord (Server Settings → Integrations → Webhooks) and add its URL in your account.',
      },
      { kind: 'link', label: 'Your account', href: `${site.url}/account` },
    ],
  });
}
