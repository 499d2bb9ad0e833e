import type { RenderedMail } from '../../../db/queries/mail';
import { type MailSite, renderMail } from './layout';

/** One listing in an issue. */
export interface IssuePick {
  name: string;
  slug: string;
  description: string;
  /** 'Premium' or 'Sponsored' for the picks; the member growth for the growing ones. */
  note: string;
}

/** An issue as composed once for the week (stored in newsletter_issues.content). */
export interface IssueContent {
  /** ISO week, e.g. 2026-W48. */
  week: string;
  picks: IssuePick[];
  growing: IssuePick[];
}

/** The subject of a week's issue. */
export const issueSubject = (site: MailSite, week: string) => `${site.name} weekly picks, ${week}`;

const item = (site: MailSite, p: IssuePick) => ({
  text: `${p.name} (${p.note}): ${p.description.length > 140 ? `${p.description.slice(0, 139)}…` : p.description}`,
  href: `${site.url}/server/${p.slug}`,
});

/** The week's issue to one subscriber: the premium and sponsored picks, the fastest-growing listings, their unsubscribe link. */
export function newsletterIssueMail(
  site: MailSite,
  data: { issue: IssueContent; unsubscribeUrl: string },
): RenderedMail {
  const { issue } = data;
  return renderMail(site, {
    subject: issueSubject(site, issue.week),
    heading: `This week's picks on ${site.name} (${issue.week}).`,
    blocks: [
      ...(issue.picks.length > 0
        ? ([
            { kind: 'p', text: 'Premium and sponsored picks (paid placements, labelled as such on the site):' },
            { kind: 'list', items: issue.picks.map((p) => item(site, p)) },
          ] as const)
        : ([{ kind: 'p', text: 'No premium or sponsored picks this week.' }] as const)),
      ...(issue.growing.length > 0
        ? ([
            { kind: 'p', text: 'Fastest-growing this week (members gained, from our checks with Discord):' },
            { kind: 'list', items: issue.growing.map((p) => item(site, p)) },
          ] as const)
        : []),
      { kind: 'link', label: `Browse all servers`, href: site.url },
    ],
    unsubscribeUrl: data.unsubscribeUrl,
  });
}
