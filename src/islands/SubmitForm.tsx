import { type SubmitEvent, useEffect, useState } from 'react';
import { errorMessage, fieldErrors, postJson, redirectErrors } from '~/lib/api-client';
import { CATEGORY_NAMES, subcategoryNames } from '~/lib/categories';
import { CLAIMS } from '~/lib/claims';
import { fieldHelpers } from './form-utils';
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

const FIELD_LABELS: Record<string, string> = {
  server_name: 'Server name',
  category: 'Category',
  subcategory: 'Subcategory',
  server_description: 'Description',
  invite_link: 'Invite link',
  server_image: 'Icon URL',
  member_count: 'Total members',
  active_users: 'Estimated online members',
  submitter_name: 'Your name',
  contact_email: 'Contact email',
  terms: 'Terms',
  features: 'Features',
};

/** Every category's subcategories, for the form before the island runs (one optgroup each). */
const SUBCATEGORY_GROUPS = CATEGORY_NAMES.map((category) => ({ category, names: subcategoryNames(category) })).filter(
  (g) => g.names.length > 0,
);

/** Whole number, 0 when unparsable (SPEC section 5). */
const toCount = (v: string) => {
  const n = Number.parseInt(v.replace(/[,\s_]/g, ''), 10);
  return Number.isFinite(n) && n >= 0 ? n : 0;
};

/** The submit form: a plain POST to /api/submissions that this island sends as JSON. */
export default function SubmitForm() {
  const [v, setV] = useState<Values>(EMPTY);
  const [hydrated, setHydrated] = useState(false);
  const [sending, setSending] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState('');
  const [done, setDone] = useState<string | null>(null);

  // Errors of a no-JS post: /submit-server?error=<code>&fields=a,b
  useEffect(() => {
    setHydrated(true);
    const carried = redirectErrors(location.search);
    if (carried) {
      const { code } = carried;
      const fields = Object.keys(carried.fields);
      setErrors(carried.fields);
      setFailure(
        code === 'validation_failed'
          ? `Please check: ${fields.map((f) => FIELD_LABELS[f] ?? f).join(', ')}`
          : code === 'rate_limited'
            ? 'Too many submissions. Please try again later.'
            : 'Failed to submit server. Please try again.',
      );
    }
  }, []);

  const set = <K extends keyof Values>(key: K, value: Values[K]) => setV((old) => ({ ...old, [key]: value }));

  async function onSubmit(e: SubmitEvent<HTMLFormElement>) {
    e.preventDefault();
    const website = String(new FormData(e.currentTarget).get('website') ?? '');
    setSending(true);
    setFailure('');
    setErrors({});
    try {
      const { status, data } = await postJson('/api/submissions', {
        ...v,
        member_count: toCount(v.member_count),
        active_users: toCount(v.active_users),
        website,
      });
      if (status === 201 || status === 200) {
        setDone(v.contact_email.trim());
        window.scrollTo({ top: 0 });
      } else if (status === 400) {
        const fe = fieldErrors(data);
        setErrors(fe);
        setFailure(errorMessage(data) ?? 'Please check the highlighted fields.');
        const first = Object.keys(fe)[0];
        if (first) document.getElementById(`f-${first}`)?.focus();
      } else if (status === 429) {
        setFailure(errorMessage(data) ?? 'Too many submissions. Please try again later.');
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
              setV(EMPTY);
              setDone(null);
            }}
          >
            Submit Another Server
          </button>
        </div>
      </div>
    );
  }

  const canSubmit = v.terms && v.server_name.trim() !== '' && v.contact_email.trim() !== '' && !sending;
  const { field: aria, error: err } = fieldHelpers(errors, 'f');

  return (
    <form className="panel form" method="post" action="/api/submissions" onSubmit={(e) => void onSubmit(e)}>
      {failure ? (
        <div className="alert alert-error" role="alert">
          <strong>Submission Error</strong>
          <p className="flush">{failure}</p>
        </div>
      ) : null}
      <div className="form-grid">
        <div className="field">
          <label htmlFor="f-server_name">
            Server name <span className="req">*</span>
          </label>
          <input
            {...aria('server_name')}
            type="text"
            required
            maxLength={100}
            value={v.server_name}
            onChange={(e) => set('server_name', e.target.value)}
          />
          {err('server_name')}
        </div>
        <div className="field">
          <label htmlFor="f-category">
            Category <span className="req">*</span>
          </label>
          <select
            {...aria('category')}
            required
            value={v.category}
            onChange={(e) => {
              const category = e.target.value;
              // A subcategory belongs to one category: another category clears it.
              setV((old) => ({
                ...old,
                category,
                subcategory: subcategoryNames(category).includes(old.subcategory) ? old.subcategory : '',
              }));
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
        {!hydrated || subcategoryNames(v.category).length > 0 ? (
          <div className="field">
            <label htmlFor="f-subcategory">Subcategory (optional)</label>
            <select
              {...aria('subcategory', 'h-subcategory')}
              value={v.subcategory}
              onChange={(e) => set('subcategory', e.target.value)}
            >
              <option value="">None</option>
              {hydrated
                ? subcategoryNames(v.category).map((name) => (
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
          Description <span className="req">*</span>
        </label>
        <textarea
          {...aria('server_description', 'h-desc')}
          required
          minLength={20}
          maxLength={2000}
          value={v.server_description}
          onChange={(e) => set('server_description', e.target.value)}
        />
        <p id="h-desc" className="hint">
          At least 20 characters: what the community is about and who it is for.
        </p>
        {err('server_description')}
      </div>
      <div className="form-grid">
        <div className="field">
          <label htmlFor="f-invite_link">
            Invite link <span className="req">*</span>
          </label>
          <input
            {...aria('invite_link', 'h-invite')}
            type="url"
            required
            placeholder="https://discord.gg/abc123"
            value={v.invite_link}
            onChange={(e) => set('invite_link', e.target.value)}
          />
          <p id="h-invite" className="hint">
            A permanent Discord invite.
          </p>
          {err('invite_link')}
        </div>
        <div className="field">
          <label htmlFor="f-server_image">
            Icon URL <span className="req">*</span>
          </label>
          <input
            {...aria('server_image', 'h-icon')}
            type="url"
            required
            placeholder="https://…/icon.png"
            value={v.server_image}
            onChange={(e) => set('server_image', e.target.value)}
          />
          <p id="h-icon" className="hint">
            Square, at least 512×512, PNG or JPG under 2MB.
          </p>
          {err('server_image')}
        </div>
        <div className="field">
          <label htmlFor="f-member_count">
            Total members <span className="req">*</span>
          </label>
          <input
            {...aria('member_count')}
            type="number"
            min={0}
            step={1}
            required
            inputMode="numeric"
            value={v.member_count}
            onChange={(e) => set('member_count', e.target.value)}
          />
          {err('member_count')}
        </div>
        <div className="field">
          <label htmlFor="f-active_users">
            Estimated online members <span className="req">*</span>
          </label>
          <input
            {...aria('active_users')}
            type="number"
            min={0}
            step={1}
            required
            inputMode="numeric"
            value={v.active_users}
            onChange={(e) => set('active_users', e.target.value)}
          />
          {err('active_users')}
        </div>
      </div>
      <div className="field">
        <label htmlFor="f-features">Features (optional)</label>
        <textarea
          {...aria('features', 'h-features')}
          maxLength={2000}
          value={v.features}
          onChange={(e) => set('features', e.target.value)}
        />
        <p id="h-features" className="hint">
          One feature per line.
        </p>
        {err('features')}
      </div>
      <div className="form-grid">
        <div className="field">
          <label htmlFor="f-submitter_name">
            Your name <span className="req">*</span>
          </label>
          <input
            {...aria('submitter_name')}
            type="text"
            required
            autoComplete="name"
            maxLength={100}
            value={v.submitter_name}
            onChange={(e) => set('submitter_name', e.target.value)}
          />
          {err('submitter_name')}
        </div>
        <div className="field">
          <label htmlFor="f-contact_email">
            Contact email <span className="req">*</span>
          </label>
          <input
            {...aria('contact_email')}
            type="email"
            required
            autoComplete="email"
            value={v.contact_email}
            onChange={(e) => set('contact_email', e.target.value)}
          />
          {err('contact_email')}
        </div>
      </div>
      <label className="check">
        <input
          type="checkbox"
          name="is_owner"
          value="true"
          checked={v.is_owner}
          onChange={(e) => set('is_owner', e.target.checked)}
        />
        <span>I own or manage this server</span>
      </label>
      <div>
        <label className="check">
          <input
            type="checkbox"
            name="terms"
            value="true"
            required
            checked={v.terms}
            aria-invalid={errors.terms ? true : undefined}
            aria-describedby={errors.terms ? 'fe-terms' : undefined}
            onChange={(e) => set('terms', e.target.checked)}
          />
          <span>
            I accept the <a href="/help#terms">listing terms</a> <span className="req">*</span>
          </span>
        </label>
        {err('terms')}
      </div>
      <Honeypot />
      <button type="submit" className="btn btn-primary" disabled={hydrated && !canSubmit}>
        {sending ? 'Submitting to Database...' : 'Submit Server for Review'}
      </button>
    </form>
  );
}
