import { useCallback, useEffect, useState } from 'react';
import { client, messageOf, parseResponse } from './api';
import { Notices } from './ui';

type Preview = Awaited<ReturnType<typeof loadPreview>>;
const loadPreview = () => parseResponse(client.api.admin.newsletter.issue.$get());

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

  // Copies still to write for a composed issue (a send that stopped half-way): the button finishes it.
  const unfinished = Boolean(preview?.composed && preview.enqueued < preview.recipients);
  return (
    <section className="card" aria-labelledby="issue-title">
      <h2 id="issue-title">This week's issue{preview ? ` (${preview.week})` : ''}</h2>
      <Notices error={error} done={done} />
      {!preview ? (
        <p className="muted">Loading…</p>
      ) : (
        <>
          <p>
            {!preview.composed
              ? `Goes to ${preview.recipients} confirmed subscriber${preview.recipients === 1 ? '' : 's'}.`
              : unfinished
                ? `Written for ${preview.enqueued} of ${preview.recipients} subscribers so far (a run stopped half-way): send again to finish.`
                : `Sent this week to ${preview.enqueued} subscriber${preview.enqueued === 1 ? '' : 's'}; a send now writes nothing new.`}
          </p>
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
            disabled={busy || (preview.composed && !unfinished)}
            onClick={() => void send()}
          >
            Send this week's issue to {preview.recipients} subscriber{preview.recipients === 1 ? '' : 's'}
          </button>
        </>
      )}
    </section>
  );
}
