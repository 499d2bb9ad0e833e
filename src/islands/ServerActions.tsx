import { type KeyboardEvent, type SubmitEvent, useEffect, useRef, useState } from 'react';
import { readSaved, sessionId, track, writeSaved } from '~/lib/analytics';
import { REPORT_REASONS } from '~/lib/enums';
import { errorMessage, postJson } from './form-utils';
import { Honeypot } from './Honeypot';

interface Props {
  id: number;
  name: string;
  slug: string;
  category: string;
  image_url: string | null;
}

type ReportState = 'idle' | 'sending' | 'reported' | 'error';

/** Save, Share and Report on the server page; also records the page view. */
export default function ServerActions({ id, name, slug, category, image_url }: Props) {
  const [saved, setSaved] = useState(false);
  const [copied, setCopied] = useState(false);
  const [reason, setReason] = useState('');
  const [details, setDetails] = useState('');
  const [report, setReport] = useState<ReportState>('idle');
  const [reportError, setReportError] = useState('');
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);

  useEffect(() => {
    setSaved(readSaved().some((s) => s.id === id));
    track({ interaction_type: 'view', target_type: 'server', target_id: String(id), server_id: id });
    const pending = timers.current;
    return () => {
      for (const t of pending) clearTimeout(t);
    };
  }, [id]);

  function later(fn: () => void, ms: number) {
    timers.current.push(setTimeout(fn, ms));
  }

  function toggleSave() {
    const list = readSaved().filter((s) => s.id !== id);
    const next = !saved;
    if (next) list.unshift({ id, name, category, image_url, slug, savedAt: Date.now() });
    writeSaved(list);
    setSaved(next);
    track({
      interaction_type: 'click',
      target_type: 'server',
      target_id: String(id),
      server_id: id,
      metadata: { action: next ? 'save' : 'unsave' },
    });
  }

  async function share() {
    const url = location.href.split(/[?#]/)[0] ?? location.href;
    track({
      interaction_type: 'click',
      target_type: 'server',
      target_id: String(id),
      server_id: id,
      metadata: { action: 'share' },
    });
    if (typeof navigator.share === 'function' && matchMedia('(pointer: coarse)').matches) {
      try {
        await navigator.share({ title: name, url });
        return;
      } catch (err) {
        if (err instanceof DOMException && err.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      // Clipboard refused (insecure context or no permission): show the link to copy by hand.
      window.prompt('Copy this link', url);
    }
    setCopied(true);
    later(() => setCopied(false), 2000);
  }

  // showModal makes the page inert; this keeps Tab cycling inside the dialog too.
  function trapFocus(e: KeyboardEvent<HTMLDialogElement>) {
    if (e.key !== 'Tab') return;
    const focusable = [
      ...e.currentTarget.querySelectorAll<HTMLElement>('button:not([disabled]), input:not([tabindex="-1"]), textarea'),
    ].filter((el) => {
      if (el.offsetParent === null) return false;
      // Only one radio of a group is a tab stop: the checked one, or the first when none is.
      if (el instanceof HTMLInputElement && el.type === 'radio')
        return reason ? el.checked : el.value === REPORT_REASONS[0].value;
      return true;
    });
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  }

  function openReport() {
    setReason('');
    setDetails('');
    setReport('idle');
    dialog.current?.showModal();
  }
  function closeReport() {
    dialog.current?.close();
  }

  async function submitReport(e: SubmitEvent) {
    e.preventDefault();
    if (!reason) return;
    setReport('sending');
    try {
      const website = String(new FormData(e.currentTarget as HTMLFormElement).get('website') ?? '');
      const body: Record<string, unknown> = { server_id: id, reason, session_id: sessionId() || undefined, website };
      if (details.trim()) body.details = details.trim();
      const { status, data } = await postJson('/api/reports', body);
      if (status !== 201 && status !== 200) {
        setReportError(errorMessage(data) ?? 'Failed to send the report. Please try again.');
        setReport('error');
        return;
      }
      track({
        interaction_type: 'click',
        target_type: 'server',
        target_id: String(id),
        server_id: id,
        metadata: { action: 'report', reason, details: details.trim().slice(0, 500) || null },
      });
      setReport('reported');
      later(() => {
        closeReport();
        setReport('idle');
      }, 3000);
    } catch {
      setReportError('Failed to send the report. Please try again.');
      setReport('error');
    }
  }

  return (
    <div className="actions-row">
      <button type="button" className="btn btn-ghost" aria-pressed={saved} onClick={toggleSave}>
        {saved ? 'Saved' : 'Save'}
      </button>
      <button type="button" className="btn btn-ghost" onClick={() => void share()}>
        {copied ? 'Link copied!' : 'Share'}
      </button>
      <span className="visually-hidden" role="status">
        {copied ? 'Link copied to the clipboard' : ''}
      </span>
      <button type="button" className="btn btn-ghost" ref={opener} onClick={openReport}>
        Report
      </button>
      <dialog
        ref={dialog}
        aria-labelledby="report-title"
        onKeyDown={trapFocus}
        onClose={() => {
          opener.current?.focus();
        }}
      >
        {report === 'reported' ? (
          <div className="success" role="status">
            <span className="success-icon" aria-hidden="true">
              ✓
            </span>
            <h2 id="report-title">Reported</h2>
            <p>Thanks, a moderator will review {name}.</p>
          </div>
        ) : (
          <form method="post" action="/api/reports" className="form" onSubmit={(e) => void submitReport(e)}>
            <h2 id="report-title">Report {name}</h2>
            <input type="hidden" name="server_id" value={id} />
            <fieldset className="field" style={{ border: 0, padding: 0, margin: 0 }}>
              <legend>
                Reason <span className="req">*</span>
              </legend>
              {REPORT_REASONS.map((r) => (
                <label key={r.value} className="check">
                  <input
                    type="radio"
                    name="reason"
                    value={r.value}
                    checked={reason === r.value}
                    onChange={() => setReason(r.value)}
                    required
                  />
                  <span>{r.label}</span>
                </label>
              ))}
            </fieldset>
            <div className="field">
              <label htmlFor="report-details">Details (optional)</label>
              <textarea
                id="report-details"
                name="details"
                maxLength={1000}
                value={details}
                onChange={(e) => setDetails(e.target.value)}
              />
            </div>
            <Honeypot />
            {report === 'error' ? (
              <p className="form-error" role="alert">
                {reportError}
              </p>
            ) : null}
            <div className="cta-actions">
              <button type="button" className="btn btn-outline" onClick={closeReport}>
                Cancel
              </button>
              <button type="submit" className="btn btn-danger" disabled={!reason || report === 'sending'}>
                {report === 'sending' ? 'Sending…' : 'Submit Report'}
              </button>
            </div>
          </form>
        )}
      </dialog>
    </div>
  );
}
