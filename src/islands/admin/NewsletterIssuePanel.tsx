import { useCallback, useEffect, useState } from 'react';
import { client, messageOf, parseResponse } from './api';
import { Notices } from './ui';

type Preview = Awaited<ReturnType<typeof loadPreview>>;
const loadPreview = () => parseResponse(client.api.admin.newsletter.issue.$get());

/**
 * Where a preview frame loads an issue's HTML: the admin route that answers this week's issue, or
 * last week's while copies of it are owed, with its own policy (inline styles, no script).
 */
export const issuePreviewSrc = (week: string) => `/api/admin/newsletter/issue/${encodeURIComponent(week)}/preview`;

/** What happens to the copies of an issue not written yet (jobs/schedule.ts: the newsletter's passes). */
const ISSUE_REST_FOLLOWS =
  'the rest are written by the newsletter’s next pass (every 15 minutes), or send again to write the next part now.';

/** What the console says after a send: which week's issue, how many copies it wrote, and whether the rest follows. */
export function issueSentNotice(r: {
  week: string;
  thisWeek: string;
  enqueued: number;
  recipients: number;
  subscribers: number;
  later: number;
  done: boolean;
}): string {
  const copies = `${r.enqueued} cop${r.enqueued === 1 ? 'y' : 'ies'}`;
  const later = r.later > 0 ? ` ${laterNote(r.later)}` : '';
  if (r.week !== r.thisWeek) {
    // A press after the week's end finished last week's issue, and wrote nothing of this week's.
    const which = `Last week's issue ${r.week}: ${copies} written to the Outbox`;
    if (r.done)
      return `${which}, and every copy of it is written now (${r.recipients} in all); the sender delivers them. This week's issue ${r.thisWeek} is not sent yet: send again to send it.`;
    return `${which} now, ${r.recipients} of ${r.subscribers} so far; ${ISSUE_REST_FOLLOWS} This week's issue ${r.thisWeek} follows once it is finished.`;
  }
  if (r.done)
    return `Issue ${r.week}: ${copies} written to the Outbox (${r.recipients} in all); the sender delivers them.${later}`;
  return `Issue ${r.week}: ${copies} written to the Outbox now, ${r.recipients} of ${r.subscribers} so far; ${ISSUE_REST_FOLLOWS}${later}`;
}

/** Subscribers confirmed after this week's issue was composed: it is not for them (docs/mail.md). */
export function laterNote(n: number): string {
  return `${n} subscriber${n === 1 ? '' : 's'} confirmed after this issue was composed ${n === 1 ? 'gets' : 'get'} next week's issue, not this one.`;
}

/**
 * What the panel says of this week's issue, whether its button sends, and what the button says:
 * the issue is composed and written to the outbox once a week; one written in part (on the Worker
 * a send writes a part, or a run stopped half-way) is finished by the next pass or by sending
 * again; last week's issue, when copies of it are owed (a send late on Sunday), is finished first;
 * there is no send to nobody.
 */
export function issueSendState(
  p: Pick<Preview, 'week' | 'composed' | 'recipients' | 'enqueued' | 'later'> & {
    owed: Pick<NonNullable<Preview['owed']>, 'week' | 'recipients' | 'enqueued' | 'left'> | null;
  },
): {
  canSend: boolean;
  status: string;
  button: string;
} {
  const s = (n: number) => (n === 1 ? '' : 's');
  const thisWeeks = `Send this week's issue to ${p.recipients} subscriber${s(p.recipients)}`;
  // Last week's copies still owed: a send writes those first, and only those.
  if (p.owed)
    return {
      canSend: true,
      status: `Last week's issue ${p.owed.week} is written for ${p.owed.enqueued} of its ${p.owed.recipients} subscribers: a send finishes it first (${p.owed.left} cop${p.owed.left === 1 ? 'y' : 'ies'} left), then this week's issue ${p.week} can be sent.`,
      button: `Finish last week's issue ${p.owed.week}: ${p.owed.left} cop${p.owed.left === 1 ? 'y' : 'ies'} left`,
    };
  // Copies still to write for a composed issue (a send that stopped half-way): the button finishes it.
  const unfinished = p.composed && p.enqueued < p.recipients;
  // A send to nobody is refused (the API says so too): it would compose the week's issue for no one.
  if (!p.composed && p.recipients === 0)
    return {
      canSend: false,
      status: 'No confirmed subscribers yet: the issue can be sent once someone has confirmed their address.',
      button: thisWeeks,
    };
  if (!p.composed)
    return {
      canSend: true,
      status: `Goes to ${p.recipients} confirmed subscriber${s(p.recipients)}.`,
      button: thisWeeks,
    };
  const later = p.later > 0 ? ` ${laterNote(p.later)}` : '';
  if (unfinished)
    return {
      canSend: true,
      status: `Written for ${p.enqueued} of ${p.recipients} subscribers so far: ${ISSUE_REST_FOLLOWS}${later}`,
      button: thisWeeks,
    };
  return {
    canSend: false,
    status: `Sent this week to ${p.enqueued} subscriber${s(p.enqueued)}; a send now writes nothing new.${later}`,
    button: thisWeeks,
  };
}

/**
 * This week's issue of the newsletter (#16): its preview as a subscriber gets it, the count of
 * confirmed subscribers it goes to, and the send button (once per ISO week; the copies go to the
 * Outbox and the sender delivers them). While last week's issue has copies owed, it shows that
 * issue first, labelled by its week, as the send finishes it before this week's.
 */
export function NewsletterIssuePanel() {
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState('');
  const [done, setDone] = useState('');
  const [busy, setBusy] = useState(false);
  const reload = useCallback(() => loadPreview().then(setPreview, (err) => setError(messageOf(err))), []);
  useEffect(() => {
    void reload();
  }, [reload]);

  const send = async () => {
    setError('');
    setDone('');
    setBusy(true);
    try {
      const r = await parseResponse(client.api.admin.newsletter.issue.send.$post());
      setDone(issueSentNotice(r));
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
      await reload();
    }
  };

  const state = preview ? issueSendState(preview) : null;
  return (
    <section className="card" aria-labelledby="issue-title">
      <h2 id="issue-title">This week's issue{preview ? ` (${preview.week})` : ''}</h2>
      <Notices error={error} done={done} />
      {!preview ? (
        <p className="muted">Loading…</p>
      ) : (
        <>
          <p id="issue-status">{state?.status}</p>
          {preview.owed && (
            <>
              <h3>Last week's issue ({preview.owed.week}): its copies left go first</h3>
              <p>
                <strong>Subject:</strong> {preview.owed.subject}
              </p>
              <details>
                <summary>Preview of last week's issue</summary>
                <pre className="mail-text">{preview.owed.mail.text}</pre>
                <iframe
                  title={`Preview of last week's issue (${preview.owed.week})`}
                  sandbox=""
                  src={issuePreviewSrc(preview.owed.week)}
                  className="mail-html"
                />
              </details>
              <h3>This week's issue ({preview.week}): after it</h3>
            </>
          )}
          <p>
            <strong>Subject:</strong> {preview.subject}
          </p>
          <details>
            <summary>Preview</summary>
            <pre className="mail-text">{preview.mail.text}</pre>
            {/* Keyed by whether the issue is composed: a send loads the issue as stored, not as it was previewed. */}
            <iframe
              key={String(preview.composed)}
              title="Preview of this week's issue"
              sandbox=""
              src={issuePreviewSrc(preview.week)}
              className="mail-html"
            />
          </details>
          <button
            type="button"
            className="btn btn-primary btn-wrap"
            disabled={busy || !state?.canSend}
            aria-describedby="issue-status"
            onClick={() => void send()}
          >
            {state?.button}
          </button>
        </>
      )}
    </section>
  );
}
