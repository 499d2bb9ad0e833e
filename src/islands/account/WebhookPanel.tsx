import { type SubmitEvent, useEffect, useState } from 'react';
import { parseWebhookUrl, WEBHOOK_URL_MESSAGE } from '~/lib/owners/webhook-url';
import { client, messageOf, parseResponse } from './api';

/**
 * The owner's Discord webhook (#32): notices of approvals, rejections, hidden listings, invites that
 * stop working, new reviews and placements ending, posted to a channel of their own server. The URL
 * is checked here and again by the API, which posts a test message before saving it.
 */
export function WebhookPanel() {
  const [current, setCurrent] = useState<{ url: string; disabled_at: string | null } | null>(null);
  const [error, setError] = useState('');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    parseResponse(client.api.account.webhook.$get())
      .then((r) => setCurrent(r.webhook))
      .catch((err) => setError(messageOf(err)));
  }, []);

  const save = async (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    const url = String(new FormData(e.currentTarget).get('webhook_url') ?? '').trim();
    setNote('');
    if (!parseWebhookUrl(url)) {
      setError(WEBHOOK_URL_MESSAGE);
      return;
    }
    setBusy(true);
    setError('');
    try {
      const r = await parseResponse(client.api.account.webhook.$put({ json: { webhook_url: url } }));
      setCurrent(r.webhook);
      setNote('Saved: we posted a test message to it.');
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    setBusy(true);
    try {
      await parseResponse(client.api.account.webhook.$delete());
      setCurrent(null);
      setNote('Removed: we send nothing to Discord now.');
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="webhook-title" className="account-panel">
      <h2 id="webhook-title">Discord notices</h2>
      <p>
        Get a message in a channel of your server when a listing is approved, rejected or hidden, its invite stops
        working, it gets a new review or a paid placement is ending. In Discord: Server Settings → Integrations →
        Webhooks → New Webhook → Copy Webhook URL.
      </p>
      {current ? (
        <p>
          Now: <code className="break">{current.url}</code>
          {current.disabled_at ? ' (switched off: Discord no longer knows it; add a new one)' : ''}
        </p>
      ) : null}
      {error ? (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      ) : null}
      {note ? <p role="status">{note}</p> : null}
      <form onSubmit={save} className="form">
        <label htmlFor="webhook-url">Webhook URL</label>
        <input id="webhook-url" name="webhook_url" type="url" inputMode="url" autoComplete="off" required />
        <div className="cta-actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            Save and send a test
          </button>
          {current ? (
            <button type="button" className="btn" disabled={busy} onClick={() => void remove()}>
              Remove
            </button>
          ) : null}
        </div>
      </form>
    </section>
  );
}
