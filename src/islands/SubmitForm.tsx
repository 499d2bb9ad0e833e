import { type SubmitEvent, useEffect, useRef, useState } from 'react';
import { api, fieldErrors, redirectErrors } from '~/lib/api-client';
import { CATEGORY_NAMES, type CategoryName, subcategoryNames } from '~/lib/categories';
import { CLAIMS } from '~/lib/claims';
import { formatNumber, initials } from '~/lib/format';
import { parseDiscordInvite } from '~/lib/invite';
import { membersRefusal, requirementHref } from '~/lib/requirements';
import { invalidFieldsSummary, SUBMISSION_LABELS as L } from '~/lib/schemas/labels';
import { TURNSTILE_FIELD } from '~/lib/turnstile';
import { Check, Field, type FieldProps } from './Field';
import { FormAlert, oneOf, renderedForm, textOf, useSending } from './form-utils';
import { Honeypot } from './Honeypot';
import { LanguageOptions } from './LanguageOptions';
import { RegionOptions } from './RegionFields';
import { Turnstile } from './Turnstile';

type Values = {
  server_name: string;
  category: CategoryName;
  subcategory: string;
  /** ISO 639-1 and ISO 3166-1 codes (#19); '' for none. */
  language: string;
  region: string;
  server_description: string;
  invite_link: string;
  server_image: string;
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
  language: '',
  region: '',
  server_description: '',
  invite_link: '',
  server_image: '',
  features: '',
  submitter_name: '',
  contact_email: '',
  is_owner: true,
  terms: false,
};

/** The fields that keep what was typed (uncontrolled): every text field, the language and the region. */
type TypedField = Exclude<keyof Values, 'category' | 'subcategory' | 'is_owner' | 'terms'>;
/** What a row of the form says besides its name (FieldProps without what the name gives). */
type RowProps = DistributiveOmit<FieldProps, 'name' | 'idPrefix' | 'label' | 'error' | 'defaultValue'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The form's action: where it posts without JavaScript (the island sends the same fields with `api`). */
const ACTION = '/api/submissions';
const FAILED = 'Failed to submit server. Please try again.';

/** The category a select holds. */
const categoryOf = (value: string): CategoryName => oneOf(CATEGORY_NAMES, value, EMPTY.category);

/** The form's values from its fields (FormData lists checked boxes only). */
const valuesOf = (data: FormData): Values => ({
  server_name: textOf(data, 'server_name'),
  category: categoryOf(textOf(data, 'category')),
  subcategory: textOf(data, 'subcategory'),
  language: textOf(data, 'language'),
  region: textOf(data, 'region'),
  server_description: textOf(data, 'server_description'),
  invite_link: textOf(data, 'invite_link'),
  server_image: textOf(data, 'server_image'),
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

/** How long the invite field rests before its live check asks (typing, pasting). */
const CHECK_DELAY_MS = 400;

/** What the form says of the invite typed in: nothing yet, asking, Discord's guild, or why not. */
type InviteCheck =
  | { state: 'idle' }
  | { state: 'checking'; code: string }
  | {
      state: 'ok';
      code: string;
      invite: {
        name: string;
        icon_url: string | null;
        member_count: number;
        online_count: number;
        min_members: number;
      };
    }
  | { state: 'refused'; code: string }
  | { state: 'unavailable'; code: string };

/**
 * The invite field's live check: `check(value)` asks `GET /api/invites/:code` once the field rests
 * (a newer value cancels an older answer). A refusal goes on the field through `onRefused`; the
 * guild Discord names, or that Discord could not be asked, goes in the preview.
 */
function useInviteCheck(onRefused: (message: string | null) => void) {
  const [result, setResult] = useState<InviteCheck>({ state: 'idle' });
  const latest = useRef('');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function ask(code: string) {
    setResult({ state: 'checking', code });
    try {
      const res = await api.invites[':code'].$get({ param: { code } });
      if (latest.current !== code) return;
      if (res.status === 200) {
        const { invite } = await res.json();
        if (latest.current !== code) return;
        // The member requirement (#32), checked on the preview before anything is sent.
        onRefused(membersRefusal(invite.member_count, invite.min_members)?.message ?? null);
        setResult({ state: 'ok', code, invite });
        return;
      }
      const { error } = await res.json();
      if (latest.current !== code) return;
      if (res.status === 400 || res.status === 409) {
        onRefused(fieldErrors(error).invite_link ?? error.message);
        setResult({ state: 'refused', code });
      } else setResult({ state: 'unavailable', code });
    } catch {
      if (latest.current === code) setResult({ state: 'unavailable', code });
    }
  }

  function check(value: string) {
    // A link only, as the form accepts (a bare code is not one): half-typed text asks nothing.
    const code = parseDiscordInvite(value)?.code ?? '';
    if (code === latest.current) return;
    latest.current = code;
    clearTimeout(timer.current);
    // Not an invite (yet): nothing to ask; the check on submit names the problem.
    if (!code) {
      setResult({ state: 'idle' });
      return;
    }
    timer.current = setTimeout(() => void ask(code), CHECK_DELAY_MS);
  }

  function reset() {
    latest.current = '';
    clearTimeout(timer.current);
    setResult({ state: 'idle' });
  }
  return { result, check, reset };
}

/** The guild Discord names for the invite, read out when it changes (an aria-live region). */
function InvitePreview({ result }: { result: InviteCheck }) {
  return (
    <div className="invite-preview" aria-live="polite" data-invite-preview={result.state}>
      {result.state === 'checking' ? <p className="hint">Checking the invite with Discord…</p> : null}
      {result.state === 'unavailable' ? (
        <p className="hint">Discord could not be asked just now; the invite is checked again when you submit.</p>
      ) : null}
      {result.state === 'ok' ? (
        <div className="invite-guild">
          {result.invite.icon_url ? (
            <img src={result.invite.icon_url} alt="" width={48} height={48} />
          ) : (
            <span className="invite-initials" aria-hidden="true">
              {initials(result.invite.name)}
            </span>
          )}
          <p>
            <strong>{result.invite.name}</strong>
            <br />
            <span>
              {formatNumber(result.invite.member_count)} members, {formatNumber(result.invite.online_count)} online
              (from Discord)
            </span>
          </p>
        </div>
      ) : null}
      {result.state === 'ok' && result.invite.member_count < result.invite.min_members ? (
        <p className="hint" data-requirement="members">
          Below the member requirement: <a href={requirementHref('members')}>listing requirements</a>.
        </p>
      ) : null}
    </div>
  );
}

/**
 * The submit form: a plain POST to /api/submissions that this island sends as JSON. Its fields are
 * uncontrolled (read with FormData when sent) and start from what the page shows, so nothing typed
 * before the script ran is lost, nor what a refused post without JavaScript sent back.
 */
export default function SubmitForm({ turnstileSiteKey }: { turnstileSiteKey?: string | undefined }) {
  const [page] = useState(fromPage);
  const [initial, setInitial] = useState(page.values);
  const [category, setCategory] = useState(page.values.category);
  const [subcategory, setSubcategory] = useState(page.values.subcategory);
  const [ready, setReady] = useState(isReady(page.values));
  const [hydrated, setHydrated] = useState(false);
  const { sending, errors, failure, setErrors, setFailure, send } = useSending('f', FAILED, page);
  const [done, setDone] = useState<string | null>(null);
  const invite = useInviteCheck((message) =>
    setErrors((current) => {
      const { invite_link: _, ...rest } = current;
      return message ? { ...rest, invite_link: message } : rest;
    }),
  );

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
            : FAILED,
      );
    }
  }, [setErrors, setFailure]);

  function onSubmit(e: SubmitEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    // A preview under the member requirement is not sent (#32): the server would refuse it too.
    const preview = invite.result;
    const small =
      preview.state === 'ok' ? membersRefusal(preview.invite.member_count, preview.invite.min_members) : null;
    if (small) {
      setErrors((current) => ({ ...current, invite_link: small.message }));
      setFailure(invalidFieldsSummary(['invite_link'], L));
      return;
    }
    const data = new FormData(form);
    const v = valuesOf(data);
    const json = {
      ...v,
      category,
      subcategory,
      website: textOf(data, 'website'),
      [TURNSTILE_FIELD]: textOf(data, TURNSTILE_FIELD) || undefined,
    };
    void send(
      form,
      () => api.submissions.$post({ json }),
      () => {
        setDone(v.contact_email.trim());
        window.scrollTo({ top: 0 });
      },
    );
  }

  if (done !== null) {
    return (
      <div className="panel success" role="status">
        <span className="success-icon" aria-hidden="true">
          ✓
        </span>
        <h2>Submission Received!</h2>
        <p>
          Thanks! {CLAIMS.received} {CLAIMS.outcomeMail} {CLAIMS.moderatorWrites} <strong>{done}</strong>.
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
              invite.reset();
              setDone(null);
            }}
          >
            Submit Another Server
          </button>
        </div>
      </div>
    );
  }

  const at = (name: keyof Values) => ({ idPrefix: 'f', name, label: L[name], error: errors[name] });
  /**
   * One row of the form that keeps what was typed (uncontrolled, starting from the page's values):
   * its label, message and starting value come from the field's name; `props` say the rest.
   */
  const row = (name: TypedField, props: RowProps) => (
    <Field {...({ ...at(name), ...props, defaultValue: initial[name] } as FieldProps)} />
  );

  return (
    <form
      className="panel form"
      method="post"
      action={ACTION}
      onSubmit={onSubmit}
      onChange={(e) => setReady(isReady(valuesOf(new FormData(e.currentTarget))))}
    >
      <FormAlert title="Submission Error" text={failure} />
      <div className="form-grid">
        {row('server_name', { need: 'required', maxLength: 100 })}
        <Field
          {...at('category')}
          as="select"
          need="required"
          value={category}
          onChange={(e) => {
            const next = categoryOf(e.target.value);
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
        </Field>
        {/* Without JavaScript every category's subcategories show, grouped; the island shows the chosen one's. */}
        {!hydrated || subcategoryNames(category).length > 0 ? (
          <Field
            {...at('subcategory')}
            as="select"
            need="optional"
            hint="Also lists the server on that subcategory's page. Must belong to the category."
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
          </Field>
        ) : null}
        {row('language', {
          as: 'select',
          need: 'optional',
          hint: 'The language most members write in: shown on the card, and visitors filter by it.',
          children: <LanguageOptions empty="Not set" native />,
        })}
        {row('region', {
          as: 'select',
          need: 'optional',
          hint: 'Only if the community is about one country or region.',
          children: <RegionOptions empty="Not set" />,
        })}
      </div>
      {row('server_description', {
        as: 'textarea',
        need: 'required',
        hint: 'At least 20 characters: what the community is about and who it is for.',
        minLength: 20,
        maxLength: 2000,
      })}
      {/* The invite and what Discord says of it side by side (one column on a phone), then the icon. */}
      <div className="form-grid">
        {row('invite_link', {
          need: 'required',
          hint: "A permanent Discord invite. The server's name, members and online count are read from Discord.",
          type: 'url',
          placeholder: 'https://discord.gg/abc123',
          onChange: (e) => invite.check(e.currentTarget.value),
          onBlur: (e) => invite.check(e.currentTarget.value),
        })}
        <InvitePreview result={invite.result} />
        {row('server_image', {
          need: 'required',
          hint: 'Square, at least 512×512, PNG or JPG under 2MB.',
          type: 'url',
          placeholder: 'https://…/icon.png',
        })}
      </div>
      {row('features', { as: 'textarea', need: 'optional', hint: 'One feature per line.', maxLength: 2000 })}
      <div className="form-grid">
        {row('submitter_name', { need: 'required', autoComplete: 'name', maxLength: 100 })}
        {row('contact_email', { need: 'required', type: 'email', autoComplete: 'email' })}
      </div>
      <Check idPrefix="f" name="is_owner" defaultChecked={initial.is_owner}>
        {L.is_owner}
      </Check>
      <Check idPrefix="f" name="terms" need="required" error={errors.terms} defaultChecked={initial.terms}>
        I accept the <a href="/help#terms">listing terms</a>
      </Check>
      <Turnstile siteKey={turnstileSiteKey} />
      <Honeypot />
      <button type="submit" className="btn btn-primary" disabled={hydrated && (!ready || sending)}>
        {sending ? 'Submitting to Database...' : 'Submit Server for Review'}
      </button>
    </form>
  );
}
