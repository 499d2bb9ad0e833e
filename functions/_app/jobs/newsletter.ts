import type { RenderedMail } from '../../../db/queries/mail';
import {
  countConfirmedAfter,
  countIssueRecipients,
  createIssue,
  enqueueIssueMails,
  getIssueByWeek,
  hasIssueRecipients,
  type IssueListing,
  listGrowingServers,
  listIssuePicks,
  listIssueRecipients,
  type NewsletterIssue,
  recomposeUnsentIssue,
} from '../../../db/queries/newsletter';
import type { AppDeps } from '../context';
import { type IssueContent, type IssuePick, issueSubject, newsletterIssueMail } from '../mail/newsletter-issue';
import { mailSite, newsletterLinks } from '../mail/site';
import { isoWeek } from '../mail/week';

/** What a pass needs: the database and the settings (site address, signing secret). */
export type NewsletterDeps = Pick<AppDeps, 'db' | 'env'>;

/** Subscribers rendered and written per batch. */
const PAGE = 200;

const DAY = 86_400_000;

const noteOf = (l: IssueListing) => (l.is_sponsored && !l.is_premium ? 'Sponsored' : 'Premium');

/** This week's issue as it would be composed at `now`: the premium and sponsored picks and the week's growth. */
export async function composeIssue(deps: NewsletterDeps, now: number): Promise<IssueContent> {
  const [picks, growing] = await Promise.all([
    listIssuePicks(deps.db),
    listGrowingServers(deps.db, new Date(now - 7 * DAY).toISOString()),
  ]);
  const pick = (l: IssueListing, note: string): IssuePick => ({
    name: l.name,
    slug: l.slug,
    description: l.description,
    note,
  });
  return {
    week: isoWeek(now),
    picks: picks.map((l) => pick(l, noteOf(l))),
    growing: growing.map((g) =>
      pick(
        g,
        `+${(g.members - g.membersBefore).toLocaleString('en-US')} members, now ${g.members.toLocaleString('en-US')}`,
      ),
    ),
  };
}

/**
 * Whether a week's issue is still to compose: not stored, or stored with no copy written (composed
 * when nobody was confirmed, or everyone it was for left before their copy). A run that may compose
 * composes such an issue (again) for those confirmed by then, so a week's issue composed for nobody
 * never keeps the week from the subscribers who confirm after it.
 */
export const toCompose = (issue: NewsletterIssue | null): boolean => issue === null || issue.recipient_count === 0;

/** What the console shows before a send: the week, the issue (stored or as it would be), one rendering and the count. */
export interface IssuePreview {
  week: string;
  /** True once this week's issue is composed and written for someone (sent, or being sent). */
  composed: boolean;
  subject: string;
  /** The issue as one subscriber gets it (their unsubscribe link in place of each one's own). */
  mail: RenderedMail;
  /** Confirmed, active subscribers it goes (or went) to. */
  recipients: number;
  /** Copies already in the outbox. */
  enqueued: number;
  /**
   * Subscribers confirmed after the composed issue's time: it is not for them, they get next
   * week's (0 while the issue is still to compose).
   */
  later: number;
  /**
   * Last week's issue while copies of it are left to write (a send late on Sunday finished after
   * midnight) and this week's is not composed: what a send writes first (`run`), and only that.
   */
  owed: OwedIssuePreview | null;
}

/** Last week's issue as the console previews it while a send owes copies of it. */
export interface OwedIssuePreview {
  week: string;
  subject: string;
  mail: RenderedMail;
  /** Its recipients (confirmed by the time it was composed, still active). */
  recipients: number;
  /** Copies of it already in the outbox. */
  enqueued: number;
  /** Recipients whose copy is still to write: what the next send writes. */
  left: number;
}

/** An issue rendered for the console, with a sample unsubscribe link in place of each subscriber's own. */
function sampleMail(deps: NewsletterDeps, content: IssueContent): RenderedMail {
  const site = mailSite(deps.env);
  const sample = `${site.url}/unsubscribe?token=(each-subscriber's-own)`;
  return newsletterIssueMail(site, { issue: content, unsubscribeUrl: sample });
}

/**
 * Last week's issue when a run at `now` would write copies of it before anything else: this
 * week's issue is not composed, and some of last week's recipients have no copy yet (after
 * `enqueued_through`). Null otherwise.
 */
export async function owedIssue(deps: NewsletterDeps, now: number): Promise<NewsletterIssue | null> {
  return (await getIssueByWeek(deps.db, isoWeek(now))) ? null : lastWeekOwed(deps, now);
}

/** Last week's issue if copies of it are left to write (two one-row reads), else null. */
export async function lastWeekOwed(deps: NewsletterDeps, now: number): Promise<NewsletterIssue | null> {
  const last = await getIssueByWeek(deps.db, isoWeek(now - 7 * DAY));
  if (!last) return null;
  const next = await listIssueRecipients(deps.db, last.created_at, { afterId: last.enqueued_through, limit: 1 });
  return next.length > 0 ? last : null;
}

/** The preview of what a send at `now` writes: last week's remainder first when one is owed, and this week's issue. */
export async function previewIssue(deps: NewsletterDeps, now: number): Promise<IssuePreview> {
  const week = isoWeek(now);
  const stored = await getIssueByWeek(deps.db, week);
  const owed = stored ? null : await lastWeekOwed(deps, now);
  // An issue still to compose is previewed as a send now would compose it.
  const sent = toCompose(stored) ? null : stored;
  const content = sent ? (sent.content as unknown as IssueContent) : await composeIssue(deps, now);
  const site = mailSite(deps.env);
  return {
    week,
    composed: sent !== null,
    subject: sent?.subject ?? issueSubject(site, week),
    mail: sampleMail(deps, content),
    recipients: await countIssueRecipients(deps.db, sent?.created_at ?? new Date(now).toISOString()),
    enqueued: sent?.recipient_count ?? 0,
    later: sent ? await countConfirmedAfter(deps.db, sent.created_at) : 0,
    owed: owed && {
      week: owed.week,
      subject: owed.subject,
      mail: sampleMail(deps, owed.content as unknown as IssueContent),
      recipients: await countIssueRecipients(deps.db, owed.created_at),
      enqueued: owed.recipient_count,
      left: await countIssueRecipients(deps.db, owed.created_at, { afterId: owed.enqueued_through }),
    },
  };
}

/**
 * The one rendering of `week`'s issue the console previews at `now` (the mail of previewIssue, read
 * alone): this week's issue (stored, or as a send now would compose it), or last week's while
 * copies of it are owed; null for any other week.
 */
export async function previewIssueMail(deps: NewsletterDeps, now: number, week: string): Promise<RenderedMail | null> {
  if (week === isoWeek(now)) {
    const stored = await getIssueByWeek(deps.db, week);
    const content = toCompose(stored) ? await composeIssue(deps, now) : (stored!.content as unknown as IssueContent);
    return sampleMail(deps, content);
  }
  const owed = await owedIssue(deps, now);
  return owed?.week === week ? sampleMail(deps, owed.content as unknown as IssueContent) : null;
}

/**
 * Whether the scheduled passes compose the week's issue at `now`: Mondays from 09:00 UTC (the
 * passes at other times only go on with an issue already composed). The console's button and
 * `npm run newsletter:send` compose it whenever they are used.
 */
export function composesAt(now: number): boolean {
  const at = new Date(now);
  return at.getUTCDay() === 1 && at.getUTCHours() >= 9;
}

/** What a weekly pass did. */
export interface NewsletterRunSummary {
  /** The week of the issue the pass wrote: this week's, or last week's while copies of it were left. */
  week: string;
  /** True when this pass composed the week's issue; false when it was composed before (or not at all). */
  composed: boolean;
  /** Copies this pass wrote to the outbox (0 for a second run in the week). */
  enqueued: number;
  /** Copies of the issue in the outbox in all, this pass's and earlier ones'. */
  recipients: number;
  /** False when the pass stopped at `maxPages` with recipients left for the next. */
  done: boolean;
  /**
   * The week's issue; null when it is not composed: the pass was not to compose it (`compose:
   * false`), or nobody was confirmed (an issue is never composed for nobody).
   */
  issue: NewsletterIssue | null;
}

/** What writing one issue's copies did: how many were new, and whether any recipient is left. */
interface CopiesWritten {
  enqueued: number;
  done: boolean;
}

/**
 * Writes up to `maxPages` pages of an issue's copies, from the last subscriber a run before wrote a
 * copy for (`enqueued_through`): each run goes on where one stopped.
 */
async function writeCopies(deps: NewsletterDeps, issue: NewsletterIssue, maxPages: number): Promise<CopiesWritten> {
  const site = mailSite(deps.env);
  const content = issue.content as unknown as IssueContent;
  let enqueued = 0;
  let done = false;
  let afterId = issue.enqueued_through;
  for (let pages = 0; pages < maxPages; pages++) {
    const page = await listIssueRecipients(deps.db, issue.created_at, { afterId, limit: PAGE });
    if (page.length < PAGE) done = true;
    if (page.length === 0) break;
    const mails = await Promise.all(
      page.map(async (s) => {
        const links = await newsletterLinks(deps.env, s.email);
        return {
          subscriberId: s.id,
          to: s.email,
          mail: newsletterIssueMail(site, { issue: content, unsubscribeUrl: links.unsubscribeUrl }),
          headers: links.headers,
        };
      }),
    );
    enqueued += await enqueueIssueMails(deps.db, issue.week, mails);
    afterId = page.at(-1)!.id;
    if (done) break;
  }
  // Stopped at maxPages after a full page: whether anyone is left says if the next pass has work
  // (so the console's answer is true), one row read.
  if (!done) done = (await listIssueRecipients(deps.db, issue.created_at, { afterId, limit: 1 })).length === 0;
  return { enqueued, done };
}

/**
 * The weekly send at `now` (`npm run newsletter:send`, the console's send button, the Worker's
 * Cron Trigger, npm start's cron): composes this ISO week's issue once (stored in
 * newsletter_issues) and writes one copy per confirmed, active subscriber (confirmed by the time
 * it was composed) to the outbox, each with its own unsubscribe link and headers. Every copy is
 * keyed by week and subscriber, so a second run in the same week writes nothing, and a run that
 * stopped half-way (at `maxPages`, or dead) is finished by the next. With `compose: false` (the
 * scheduled passes outside composesAt) it only goes on with an issue already composed. The sender
 * (jobs/mail-sender.ts) delivers the copies.
 *
 * An issue is never composed for nobody: with no subscriber confirmed, a run that may compose
 * composes nothing, and one stored with no copy written (composed for nobody) is composed again
 * by the first run that may compose once someone is confirmed (toCompose).
 *
 * Until this week's issue is composed, a run first goes on with last week's if copies of it are
 * left to write (the console sent it in parts late on Sunday, and the week ended before the passes
 * wrote the rest): such a run writes only that issue (its summary is that week's), and this
 * week's is composed by a later run, once last week's is written in full. So everyone who was to
 * get last week's issue gets it, once, and no one gets this week's before it.
 */
export async function run(
  deps: NewsletterDeps,
  now: number,
  {
    log = () => {},
    maxPages = Number.POSITIVE_INFINITY,
    compose = true,
  }: {
    log?: (line: string) => void;
    /** At most this many pages of PAGE recipients (the Worker's subrequests); the next pass goes on. */
    maxPages?: number;
    /** False: write the rest of this week's issue if it is composed, but do not compose it. */
    compose?: boolean;
  } = {},
): Promise<NewsletterRunSummary> {
  const week = isoWeek(now);
  const site = mailSite(deps.env);
  let issue = await getIssueByWeek(deps.db, week);
  let composed = false;
  const owed = issue ? null : await lastWeekOwed(deps, now);
  if (owed) return summarize(deps, owed, false, await writeCopies(deps, owed, maxPages), log);
  if (!issue && !compose) return { week, composed, enqueued: 0, recipients: 0, done: true, issue: null };
  if (compose && toCompose(issue)) {
    const createdAt = new Date(now).toISOString();
    // Nobody confirmed: nothing is composed (or composed again), so whoever confirms later gets
    // the week's issue from the next run that may compose it (Monday's passes, a press, the script).
    if (!(await hasIssueRecipients(deps.db, createdAt))) {
      log(`Newsletter ${week}: no confirmed subscribers; the issue is not composed`);
      return { week, composed, enqueued: 0, recipients: 0, done: true, issue: null };
    }
    const content = await composeIssue(deps, now);
    const fresh = {
      week,
      subject: issueSubject(site, week),
      content: content as unknown as Record<string, unknown>,
      createdAt,
    };
    if (!issue) {
      const made = await createIssue(deps.db, fresh);
      issue = made.issue;
      composed = made.created;
    } else {
      // Stored with no copy written (composed for nobody): composed again for those confirmed now.
      const again = await recomposeUnsentIssue(deps.db, fresh);
      composed = again !== null;
      issue = again ?? (await getIssueByWeek(deps.db, week))!;
    }
  }
  return summarize(deps, issue!, composed, await writeCopies(deps, issue!, maxPages), log);
}

/** A run's summary of the issue it wrote copies of, read back with its count, and its log line. */
async function summarize(
  deps: NewsletterDeps,
  issue: NewsletterIssue,
  composed: boolean,
  { enqueued, done }: CopiesWritten,
  log: (line: string) => void,
): Promise<NewsletterRunSummary> {
  const stored = (await getIssueByWeek(deps.db, issue.week))!;
  log(
    composed || enqueued > 0
      ? `Newsletter ${issue.week}: ${enqueued} cop${enqueued === 1 ? 'y' : 'ies'} written to the outbox (${stored.recipient_count} in all)`
      : `Newsletter ${issue.week}: already sent to ${stored.recipient_count} subscriber(s); nothing to do`,
  );
  return { week: issue.week, composed, enqueued, recipients: stored.recipient_count, issue: stored, done };
}
