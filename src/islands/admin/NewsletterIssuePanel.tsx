import { useCallback, useEffect, useState } from 'react';
import { client, messageOf, parseResponse } from './api';
import { Notices } from './ui';

type Preview = Awaited<ReturnType<typeof loadPreview>>;
const loadPreview = () => parseResponse(client.api.admin.newsletter.issue.$get());

/** What happens to the copies of an issue not written yet (jobs/schedule.ts: the newsletter's passes). */
const ISSUE_REST_FOLLOWS =
  'the rest are written by the newsletter’s next pass (every 15 minutes), or send again to write the next part now.';

/** What the console says after a send: how many copies it wrote, and whether the rest follows. */
export function issueSentNotice(r: {
  week: string;
  enqueued: number;
  recipients: number;
  subscribers: number;
  done: boolean;
}): string {
  const copies = `${r.enqueued} cop${r.enqueued === 1 ? 'y' : 'ies'}`;
  if (r.done)
    return `Issue ${r.week}: ${copies} written to the Outbox (${r.recipients} in all); the sender delivers them.`;
  return `Issue ${r.week}: ${copies} written to the Outbox now, ${r.recipients} of ${r.subscribers} so far; ${ISSUE_REST_FOLLOWS}`;
}

/**
 * What the panel says of this week's issue, and whether its button sends: the issue is composed
 * and written to the outbox once a week; one written in part (on the Worker a send writes a part,
 * or a run stopped half-way) is finished by the next pass or by sending again; there is no send
 * to nobody.
 */
export function issueSendState(p: Pick<Preview, 'composed' | 'recipients' | 'enqueued'>): {
  canSend: boolean;
  status: string;
} {
  const s = (n: number) => (n === 1 ? '' : 's');
  // Copies still to write for a composed issue (a send that stopped half-way): the button finishes it.
  const unfinished = p.composed && p.enqueued < p.recipients;
  // A send to nobody is refused (the API says so too): it would compose the week's issue for no one.
  if (!p.composed && p.recipients === 0)
    return {
      canSend: false,
      status: 'No confirmed subscribers yet: the issue can be sent once someone has confirmed their address.',
    };
  if (!p.composed) return { canSend: true, status: `Goes to ${p.recipients} confirmed subscriber${s(p.recipients)}.` };
  if (unfinished)
    return {
      canSend: true,
      status: `Written for ${p.enqueued} of ${p.recipients} subscribers so far: ${ISSUE_REST_FOLLOWS}`,
    };
  return {
    canSend: false,
    status: `Sent this week to ${p.enqueued} subscriber${s(p.enqueued)}; a send now writes nothing new.`,
  };
}

/**
 * This week's issue of the newsletter (#16): its preview as a subscriber gets it, the count of
 * confirmed subscribers it goes to, and the send button (once per ISO week; the copies go to the
 * Outbox and the sender delivers them).
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
          <p>
            <strong>Subject:</strong> {preview.subject}
          </p>
          <details>
            <summary>Preview</summary>
            <pre className="mail-text">{preview.mail.text}</pre>
            <iframe title="Preview of this week's issue" sandbox="" srcDoc={preview.mail.html} className="mail-html" />
          </details>
          <button
            type="button"
            className="btn btn-primary btn-wrap"
            disabled={busy || !state?.canSend}
            aria-describedby="issue-status"
            onClick={() => void send()}
          >
            Send this week's issue to {preview.recipients} subscriber{preview.recipients === 1 ? '' : 's'}
          </button>
        </>
      )}
    </section>
  );
}
