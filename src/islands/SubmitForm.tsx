import { type SubmitEvent, useEffect, useState } from 'react';
import { errorMessage, fieldErrors, postJson, redirectErrors } from '~/lib/api-client';
import { CATEGORY_NAMES, subcategoryNames } from '~/lib/categories';
import { CLAIMS } from '~/lib/claims';
import { invalidFieldsSummary, SUBMISSION_LABELS as L } from '~/lib/schemas/labels';
import { FormAlert, fieldHelpers, renderedForm, textOf } from './form-utils';
import { Honeypot } from './Honeypot';

type Values = {
  server_name: string;
  category: string;
  subcategory: string;
  server_description: string;
  invite_link: string;
  server_image: string;
  member_count: string;
  active_users: string;
  features: string;
  submitter_name: string;
  contact_email: string;
  is_owner: boolean;
  terms: boolean;
};

const EMPTY: Values = {
  server_name: '',
  category: 'Gaming',
  subcategory: '',
  server_description: '',
  invite_link: '',
  server_image: '',
  member_count: '',
  active_users: '',
  features: '',
  submitter_name: '',
  contact_email: '',
  is_owner: true,
  terms: false,
};

const ACTION = '/api/submissions';

/** The form's values from its fields (FormData lists checked boxes only). */
const valuesOf = (data: FormData): Values => ({
  server_name: textOf(data, 'server_name'),
  category: textOf(data, 'category') || EMPTY.category,
  subcategory: textOf(data, 'subcategory'),
  server_description: textOf(data, 'server_description'),
  invite_link: textOf(data, 'invite_link'),
  server_image: textOf(data, 'server_image'),
  member_count: textOf(data, 'member_count'),
  active_users: textOf(data, 'active_users'),
  features: textOf(data, 'features'),
  submitter_name: textOf(data, 'submitter_name'),
  contact_email: textOf(data, 'contact_email'),
  is_owner: data.has('is_owner'),
  terms: data.has('terms'),
});

/** Submit is enabled once the terms are accepted and a name and an email are given. */
const isReady = (v: Values) => v.terms && v.server_name.trim() !== '' && v.contact_email.trim() !== '';

/** What the page shows before the first render: typed-in values, or a refused post's values and messages. */
function fromPage(): { values: Values; errors: Record<string, string>; failure: string } {
  const page = renderedForm(ACTION);
  if (!page) return { values: EMPTY, errors: {}, failure: '' };
  const values = valuesOf(page.data);
  // A subcategory belongs to one category (the form without JavaScript lists them all).
  if (!subcategoryNames(values.category).includes(values.subcategory)) values.subcategory = '';
  return { values, errors: page.errors, failure: page.summary };
}

/** Every category's subcategories, for the form before the island runs (one optgroup each). */
const SUBCATEGORY_GROUPS = CATEGORY_NAMES.map((category) => ({ category, names: subcategoryNames(category) })).filter(
  (g) => g.names.length > 0,
);

/** Whole number, 0 when unparsable (SPEC section 5). */
const toCount = (v: string) => {
  const n = Number.parseInt(v.replace(/[,\s_]/g, ''), 10);
  return Number.isFinite(n) && n >= 0 ? n : 0;
};

/**
 * The submit form: a plain POST to /api/submissions that this island sends as JSON. Its fields are
 * uncontrolled (read with FormData when sent) and start from what the page shows, so nothing typed
 * before the script ran is lost, nor what a refused post without JavaScript sent back.
 */
export default function SubmitForm() {
  const [page] = useState(fromPage);
  const [initial, setInitial] = useState(page.values);
  const [category, setCategory] = useState(page.values.category);
  const [subcategory, setSubcategory] = useState(page.values.subcategory);
  const [ready, setReady] = useState(isReady(page.values));
  const [hydrated, setHydrated] = useState(false);
  const [sending, setSending] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>(page.errors);
  const [failure, setFailure] = useState(page.failure);
  const [done, setDone] = useState<string | null>(null);

  // Errors of a no-JS post answered with a redirect (no built page to fill in): ?error=<code>&fields=a,b
  useEffect(() => {
    setHydrated(true);
    const carried = redirectErrors(location.search);
    if (carried) {
      const { code } = carried;
      setErrors(carried.fields);
      setFailure(
        code === 'validation_failed'
          ? invalidFieldsSummary(Object.keys(carried.fields), L)
          : code === 'rate_limited'
            ? 'Too many submissions. Please try again later.'
            : 'Failed to submit server. Please try again.',
      );
    }
  }, []);

  async function onSubmit(e: SubmitEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const v = valuesOf(data);
    setSending(true);
    setFailure('');
    setErrors({});
    try {
      const { status, data: answer } = await postJson(ACTION, {
        ...v,
        category,
        subcategory,
        member_count: toCount(v.member_count),
        active_users: toCount(v.active_users),
        website: textOf(data, 'website'),
      });
      if (status === 201 || status === 200) {
        setDone(v.contact_email.trim());
        window.scrollTo({ top: 0 });
      } else if (status === 400) {
        const fe = fieldErrors(answer);
        setErrors(fe);
        setFailure(errorMessage(answer) ?? invalidFieldsSummary(Object.keys(fe), L));
        const first = Object.keys(fe)[0];
        if (first) document.getElementById(`f-${first}`)?.focus();
      } else if (status === 429) {
        setFailure(errorMessage(answer) ?? 'Too many submissions. Please try again later.');
      } else {
        setFailure('Failed to submit server. Please try again.');
      }
    } catch {
      setFailure('Failed to submit server. Please try again.');
    } finally {
      setSending(false);
    }
  }

  if (done !== null) {
    return (
      <div className="panel success" role="status">
        <span className="success-icon" aria-hidden="true">
          ✓
        </span>
        <h2>Submission Received!</h2>
        <p>
          Thanks! {CLAIMS.received} {CLAIMS.noMail} {CLAIMS.moderatorWrites} <strong>{done}</strong>.
        </p>
        <div className="cta-actions">
          <a className="btn btn-outline" href="/">
            Back to Home
          </a>
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => {
              setInitial(EMPTY);
              setCategory(EMPTY.category);
              setSubcategory('');
              setReady(false);
              setDone(null);
            }}
          >
            Submit Another Server
          </button>
        </div>
      </div>
    );
  }

  const { field: aria, error: err } = fieldHelpers(errors, 'f');

  return (
    <form
      className="panel form"
      method="post"
      action={ACTION}
      onSubmit={(e) => void onSubmit(e)}
      onChange={(e) => setReady(isReady(valuesOf(new FormData(e.currentTarget))))}
    >
      <FormAlert title="Submission Error" text={failure} />
      <div className="form-grid">
        <div className="field">
          <label htmlFor="f-server_name">
            {L.server_name} <span className="req">*</span>
          </label>
          <input {...aria('server_name')} type="text" required maxLength={100} defaultValue={initial.server_name} />
          {err('server_name')}
        </div>
        <div className="field">
          <label htmlFor="f-category">
            {L.category} <span className="req">*</span>
          </label>
          {/* Not `required`: a category is always chosen (a required select must start with an empty option). */}
          <select
            {...aria('category')}
            value={category}
            onChange={(e) => {
              const next = e.target.value;
              setCategory(next);
              // A subcategory belongs to one category: another category clears it.
              if (!subcategoryNames(next).includes(subcategory)) setSubcategory('');
            }}
          >
            {CATEGORY_NAMES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
          {err('category')}
        </div>
        {/* Without JavaScript every category's subcategories show, grouped; the island shows the chosen one's. */}
        {!hydrated || subcategoryNames(category).length > 0 ? (
          <div className="field">
            <label htmlFor="f-subcategory">{L.subcategory} (optional)</label>
            <select
              {...aria('subcategory', 'h-subcategory')}
              value={subcategory}
              onChange={(e) => setSubcategory(e.target.value)}
            >
              <option value="">None</option>
              {hydrated
                ? subcategoryNames(category).map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))
                : SUBCATEGORY_GROUPS.map((g) => (
                    <optgroup key={g.category} label={g.category}>
                      {g.names.map((name) => (
                        <option key={name} value={name}>
                          {name}
                        </option>
                      ))}
                    </optgroup>
                  ))}
            </select>
            <p id="h-subcategory" className="hint">
              Also lists the server on that subcategory's page. Must belong to the category.
            </p>
            {err('subcategory')}
          </div>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor="f-server_description">
          {L.server_description} <span className="req">*</span>
        </label>
        <textarea
          {...aria('server_description', 'h-desc')}
          required
          minLength={20}
          maxLength={2000}
          defaultValue={initial.server_description}
        />
        <p id="h-desc" className="hint">
          At least 20 characters: what the community is about and who it is for.
        </p>
        {err('server_description')}
      </div>
      <div className="form-grid">
        <div className="field">
          <label htmlFor="f-invite_link">
            {L.invite_link} <span className="req">*</span>
          </label>
          <input
            {...aria('invite_link', 'h-invite')}
            type="url"
            required
            placeholder="https://discord.gg/abc123"
            defaultValue={initial.invite_link}
          />
          <p id="h-invite" className="hint">
            A permanent Discord invite.
          </p>
          {err('invite_link')}
        </div>
        <div className="field">
          <label htmlFor="f-server_image">
            {L.server_image} <span className="req">*</span>
          </label>
          <input
            {...aria('server_image', 'h-icon')}
            type="url"
            required
            placeholder="https://…/icon.png"
            defaultValue={initial.server_image}
          />
          <p id="h-icon" className="hint">
            Square, at least 512×512, PNG or JPG under 2MB.
          </p>
          {err('server_image')}
        </div>
        <div className="field">
          <label htmlFor="f-member_count">
            {L.member_count} <span className="req">*</span>
          </label>
          <input
            {...aria('member_count')}
            type="number"
            min={0}
            step={1}
            required
            inputMode="numeric"
            defaultValue={initial.member_count}
          />
          {err('member_count')}
        </div>
        <div className="field">
          <label htmlFor="f-active_users">
            {L.active_users} <span className="req">*</span>
          </label>
          <input
            {...aria('active_users')}
            type="number"
            min={0}
            step={1}
            required
            inputMode="numeric"
            defaultValue={initial.active_users}
          />
          {err('active_users')}
        </div>
      </div>
      <div className="field">
        <label htmlFor="f-features">{L.features} (optional)</label>
        <textarea {...aria('features', 'h-features')} maxLength={2000} defaultValue={initial.features} />
        <p id="h-features" className="hint">
          One feature per line.
        </p>
        {err('features')}
      </div>
      <div className="form-grid">
        <div className="field">
          <label htmlFor="f-submitter_name">
            {L.submitter_name} <span className="req">*</span>
          </label>
          <input
            {...aria('submitter_name')}
            type="text"
            required
            autoComplete="name"
            maxLength={100}
            defaultValue={initial.submitter_name}
          />
          {err('submitter_name')}
        </div>
        <div className="field">
          <label htmlFor="f-contact_email">
            {L.contact_email} <span className="req">*</span>
          </label>
          <input
            {...aria('contact_email')}
            type="email"
            required
            autoComplete="email"
            defaultValue={initial.contact_email}
          />
          {err('contact_email')}
        </div>
      </div>
      <label className="check">
        <input type="checkbox" name="is_owner" value="true" defaultChecked={initial.is_owner} />
        <span>{L.is_owner}</span>
      </label>
      <div>
        <label className="check">
          <input
            type="checkbox"
            name="terms"
            value="true"
            required
            defaultChecked={initial.terms}
            aria-invalid={errors.terms ? true : undefined}
            aria-describedby={errors.terms ? 'fe-terms' : undefined}
          />
          <span>
            I accept the <a href="/help#terms">listing terms</a> <span className="req">*</span>
          </span>
        </label>
        {err('terms')}
      </div>
      <Honeypot />
      <button type="submit" className="btn btn-primary" disabled={hydrated && (!ready || sending)}>
        {sending ? 'Submitting to Database...' : 'Submit Server for Review'}
      </button>
    </form>
  );
}
