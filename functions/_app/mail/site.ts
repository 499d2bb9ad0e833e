import { SITE_NAME } from '../../../src/lib/enums';
import type { Env } from '../env';
import { confirmToken, unsubscribeToken } from '../lib/unsubscribe';
import { type MailSite, newsletterHeaders } from './layout';

/** The sender of this deployment's mails: the site's name, its SITE_URL and SUPPORT_EMAIL. */
export function mailSite(env: Pick<Env, 'SITE_URL' | 'SUPPORT_EMAIL'>): MailSite {
  return { name: SITE_NAME, url: env.SITE_URL, supportEmail: env.SUPPORT_EMAIL };
}

/** A subscriber's links, each with its own signed token, and the List-Unsubscribe headers. */
export interface NewsletterLinks {
  /** `{site}/newsletter/confirm?token=…`: a page with one button that confirms. */
  confirmUrl: string;
  /** `{site}/unsubscribe?token=…`: a GET shows one button; a POST (RFC 8058 one-click) unsubscribes at once. */
  unsubscribeUrl: string;
  headers: Record<string, string>;
}

/** The confirmation (issued at `now`, good for 7 days) and unsubscribe links of `email`, signed with SESSION_SECRET. */
export async function newsletterLinks(
  env: Pick<Env, 'SITE_URL' | 'SESSION_SECRET'>,
  email: string,
  now = Date.now(),
): Promise<NewsletterLinks> {
  const base = env.SITE_URL;
  const unsubscribeUrl = `${base}/unsubscribe?token=${await unsubscribeToken(env.SESSION_SECRET, email)}`;
  const confirmUrl = `${base}/newsletter/confirm?token=${await confirmToken(env.SESSION_SECRET, email, now)}`;
  return { confirmUrl, unsubscribeUrl, headers: newsletterHeaders(unsubscribeUrl) };
}
