import { type SubmitEvent, useEffect, useState } from 'react';
import { errorMessage, fieldErrors, postJson, redirectErrors } from '~/lib/api-client';
import { CLAIMS } from '~/lib/claims';
import { CONTACT_PRIORITIES, CONTACT_SUBJECT_VALUES, CONTACT_SUBJECTS } from '~/lib/enums';
import { fieldHelpers } from './form-utils';
import { Honeypot } from './Honeypot';

const EMPTY = { name: '', email: '', subject: 'general', message: '', priority: 'normal' };

/** Contact form: really sent to POST /api/contact (plain POST without JavaScript). */
export default function ContactForm() {
  const [v, setV] = useState(EMPTY);
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState('');

  useEffect(() => {
    const carried = redirectErrors(location.search);
    const query = new URLSearchParams(location.search);
    // The premium call to action (/go/cta/premium) lands here with its subject picked.
    const subject = query.get('subject');
    if (subject && (CONTACT_SUBJECT_VALUES as readonly string[]).includes(subject)) setV((o) => ({ ...o, subject }));
    if (query.get('sent') === '1') setSent(true);
    else if (carried) {
      setErrors(carried.fields);
      setFailure('Your message was not sent. Please check the highlighted fields and try again.');
    }
  }, []);

  const set = (k: keyof typeof EMPTY, value: string) => setV((o) => ({ ...o, [k]: value }));

  async function onSubmit(e: SubmitEvent<HTMLFormElement>) {
    e.preventDefault();
    const website = String(new FormData(e.currentTarget).get('website') ?? '');
    setSending(true);
    setFailure('');
    setErrors({});
    try {
      const { status, data } = await postJson('/api/contact', { ...v, website });
      if (status === 201 || status === 200) setSent(true);
      else if (status === 400) {
        setErrors(fieldErrors(data));
        setFailure(errorMessage(data) ?? 'Please check the highlighted fields.');
      } else setFailure(errorMessage(data) ?? 'Failed to send your message. Please try again.');
    } catch {
      setFailure('Failed to send your message. Please try again.');
    } finally {
      setSending(false);
    }
  }

  if (sent) {
    return (
      <div className="panel success" role="status">
        <span className="success-icon" aria-hidden="true">
          ✓
        </span>
        <h2>Message Sent!</h2>
        <p>Thanks for reaching out. {CLAIMS.contactReply}</p>
        <button
          type="button"
          className="btn btn-outline"
          onClick={() => {
            setV(EMPTY);
            setSent(false);
          }}
        >
          Send Another Message
        </button>
      </div>
    );
  }
  const { field, error: err } = fieldHelpers(errors, 'c');
  return (
    <form className="panel form" method="post" action="/api/contact" onSubmit={(e) => void onSubmit(e)}>
      {failure ? (
        <div className="alert alert-error" role="alert">
          {failure}
        </div>
      ) : null}
      <div className="form-grid">
        <div className="field">
          <label htmlFor="c-name">
            Name <span className="req">*</span>
          </label>
          <input
            {...field('name')}
            type="text"
            required
            autoComplete="name"
            value={v.name}
            onChange={(e) => set('name', e.target.value)}
          />
          {err('name')}
        </div>
        <div className="field">
          <label htmlFor="c-email">
            Email <span className="req">*</span>
          </label>
          <input
            {...field('email')}
            type="email"
            required
            autoComplete="email"
            value={v.email}
            onChange={(e) => set('email', e.target.value)}
          />
          {err('email')}
        </div>
        <div className="field">
          <label htmlFor="c-subject">
            Subject <span className="req">*</span>
          </label>
          <select {...field('subject')} required value={v.subject} onChange={(e) => set('subject', e.target.value)}>
            {CONTACT_SUBJECTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
          {err('subject')}
        </div>
        <div className="field">
          <label htmlFor="c-priority">Priority</label>
          <select {...field('priority')} value={v.priority} onChange={(e) => set('priority', e.target.value)}>
            {CONTACT_PRIORITIES.map((p) => (
              <option key={p} value={p}>
                {p[0]?.toUpperCase() + p.slice(1)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="field">
        <label htmlFor="c-message">
          Message <span className="req">*</span>
        </label>
        <textarea
          {...field('message')}
          required
          minLength={10}
          maxLength={5000}
          value={v.message}
          onChange={(e) => set('message', e.target.value)}
        />
        {err('message')}
      </div>
      <Honeypot />
      <button type="submit" className="btn btn-primary" disabled={sending}>
        {sending ? 'Sending…' : 'Send Message'}
      </button>
    </form>
  );
}
