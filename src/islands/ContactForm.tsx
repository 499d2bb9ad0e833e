import { type SubmitEvent, useEffect, useRef, useState } from 'react';
import { api, redirectErrors } from '~/lib/api-client';
import { CLAIMS } from '~/lib/claims';
import { CONTACT_PRIORITIES, CONTACT_SUBJECT_VALUES, CONTACT_SUBJECTS } from '~/lib/enums';
import { invalidFieldsSummary, CONTACT_LABELS as L } from '~/lib/schemas/labels';
import { TURNSTILE_FIELD } from '~/lib/turnstile';
import { Field } from './Field';
import { FormAlert, oneOf, renderedForm, textOf, useSending } from './form-utils';
import { Honeypot } from './Honeypot';
import { Turnstile } from './Turnstile';

type Values = {
  name: string;
  email: string;
  subject: (typeof CONTACT_SUBJECT_VALUES)[number];
  message: string;
  priority: (typeof CONTACT_PRIORITIES)[number];
};
const EMPTY: Values = { name: '', email: '', subject: 'general', message: '', priority: 'normal' };

const ACTION = '/api/contact';
const FAILED = 'Failed to send your message. Please try again.';

/** The form's values from its fields. */
const valuesOf = (data: FormData): Values => ({
  name: textOf(data, 'name'),
  email: textOf(data, 'email'),
  subject: oneOf(CONTACT_SUBJECT_VALUES, textOf(data, 'subject'), EMPTY.subject),
  message: textOf(data, 'message'),
  priority: oneOf(CONTACT_PRIORITIES, textOf(data, 'priority'), EMPTY.priority),
});

/** What the page shows before the first render: typed-in values, or a refused post's values and messages. */
function fromPage(): { values: Values; errors: Record<string, string>; failure: string } {
  const page = renderedForm(ACTION);
  if (!page) return { values: EMPTY, errors: {}, failure: '' };
  return { values: valuesOf(page.data), errors: page.errors, failure: page.summary };
}

/**
 * Contact form: really sent to POST /api/contact (plain POST without JavaScript). Its fields are
 * uncontrolled and start from what the page shows (see SubmitForm).
 */
export default function ContactForm({ turnstileSiteKey }: { turnstileSiteKey?: string | undefined }) {
  const [page] = useState(fromPage);
  const [initial, setInitial] = useState(page.values);
  const { sending, errors, failure, setErrors, setFailure, send } = useSending('c', FAILED, page);
  const [sent, setSent] = useState(false);
  const subjectRef = useRef<HTMLSelectElement>(null);

  useEffect(() => {
    const carried = redirectErrors(location.search);
    const query = new URLSearchParams(location.search);
    // The premium call to action (/go/cta/premium) lands here with its subject picked, unless
    // the visitor has picked one already.
    const subject = query.get('subject');
    const select = subjectRef.current;
    if (subject && (CONTACT_SUBJECT_VALUES as readonly string[]).includes(subject) && select?.value === EMPTY.subject) {
      select.value = subject;
    }
    if (query.get('sent') === '1') setSent(true);
    else if (carried) {
      setErrors(carried.fields);
      setFailure(invalidFieldsSummary(Object.keys(carried.fields), L));
    }
  }, [setErrors, setFailure]);

  function onSubmit(e: SubmitEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const json = {
      ...valuesOf(data),
      website: textOf(data, 'website'),
      [TURNSTILE_FIELD]: textOf(data, TURNSTILE_FIELD) || undefined,
    };
    void send(
      form,
      () => api.contact.$post({ json }),
      () => setSent(true),
    );
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
            setInitial(EMPTY);
            setSent(false);
          }}
        >
          Send Another Message
        </button>
      </div>
    );
  }
  const at = (name: keyof Values) => ({ idPrefix: 'c', name, label: L[name], error: errors[name] });
  return (
    <form className="panel form" method="post" action={ACTION} onSubmit={onSubmit}>
      <FormAlert title="Your message was not sent." text={failure} />
      <div className="form-grid">
        <Field {...at('name')} need="required" autoComplete="name" defaultValue={initial.name} />
        <Field {...at('email')} need="required" type="email" autoComplete="email" defaultValue={initial.email} />
        <Field {...at('subject')} as="select" need="required" ref={subjectRef} defaultValue={initial.subject}>
          {CONTACT_SUBJECTS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </Field>
        <Field {...at('priority')} as="select" defaultValue={initial.priority}>
          {CONTACT_PRIORITIES.map((p) => (
            <option key={p} value={p}>
              {p[0]?.toUpperCase() + p.slice(1)}
            </option>
          ))}
        </Field>
      </div>
      <Field
        {...at('message')}
        as="textarea"
        need="required"
        minLength={10}
        maxLength={5000}
        defaultValue={initial.message}
      />
      <Turnstile siteKey={turnstileSiteKey} />
      <Honeypot />
      <button type="submit" className="btn btn-primary" disabled={sending}>
        {sending ? 'Sending…' : 'Send Message'}
      </button>
    </form>
  );
}
