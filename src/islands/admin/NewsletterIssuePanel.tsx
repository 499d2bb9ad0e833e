import { useCallback, useEffect, useState } from 'react';
import { client, messageOf, parseResponse } from './api';
import { Notices } from './ui';

type Preview = Awaited<ReturnType<typeof loadPreview>>;
const loadPreview = () => parseResponse(client.api.admin.newsletter.issue.$get());

/**
 * What the panel says of this week's issue, and whether its button sends: the issue is composed
 * and written to the outbox once a week, a run that stopped half-way is finished by sending again,
 * and there is no send to nobody.
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
      status: `Written for ${p.enqueued} of ${p.recipients} subscribers so far (a run stopped half-way): send again to finish.`,
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
      setDone(`Issue ${r.week}: ${r.enqueued} cop${r.enqueued === 1 ? 'y' : 'ies'} written to the Outbox.`);
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
