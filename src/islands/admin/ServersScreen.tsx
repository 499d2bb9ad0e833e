import { type SubmitEvent, useEffect, useMemo, useRef, useState } from 'react';
import { CATEGORY_NAMES, isListedCategory } from '~/lib/categories';
import { hasPage, whyUnlisted } from '~/lib/listing';
import { type ServerInput, serverSchema } from '~/lib/schemas/server';
import { LanguageRegionFields } from '../RegionFields';
import { ApiCallError, client, idParam, messageOf, parseResponse } from './api';
import { Chart } from './Chart';
import { DataTable, RowButton, RowCheckbox } from './DataTable';
import { HideListingPanel, NO_CONTACT } from './HideListingPanel';
import type { ServerRow } from './types';
import { FormActions, Notice, Notices, SearchForm } from './ui';
import { useList } from './use-list';

/** What a refused save says beside the Save button: the first reason, and how many more fields. */
const notSaved = (messages: string[]): string => {
  const more = messages.length - 1;
  return `Not saved: ${messages[0] ?? 'the server refused the change.'}${more > 0 ? ` (and ${more} more field${more === 1 ? '' : 's'} marked above)` : ''}`;
};

/** Why a listing has no Join button and cannot be marked premium or sponsored. */
const NO_LINK = 'No join link: no Join button; premium and sponsored need one.';
/** The paid placements, a checkbox column each. */
const PAID = [
  { header: 'Premium', isOn: (s: ServerRow) => s.is_premium, change: (on: boolean) => ({ is_premium: on }) },
  { header: 'Sponsored', isOn: (s: ServerRow) => s.is_sponsored, change: (on: boolean) => ({ is_sponsored: on }) },
];

interface FormState {
  name: string;
  slug: string;
  description: string;
  category: string;
  subcategory: string;
  members: string;
  active_users: string;
  image_url: string;
  affiliate_link: string;
  pros: string;
  cons: string;
  tags: string;
  features: string;
  sort_order: string;
  is_premium: boolean;
  is_sponsored: boolean;
  is_active: boolean;
  /** #19: ISO codes ('' for none) and the paid period's days (YYYY-MM-DD, '' when not recorded). */
  language: string;
  region: string;
  placement_started_at: string;
  placement_ends_at: string;
  /** #17: one link a line, its label then its https address. */
  links: string;
}

const EMPTY: FormState = {
  name: '',
  slug: '',
  description: '',
  category: 'Gaming',
  subcategory: '',
  members: '0',
  active_users: '0',
  image_url: '',
  affiliate_link: '',
  pros: '',
  cons: '',
  tags: '',
  features: '',
  sort_order: '0',
  is_premium: false,
  is_sponsored: false,
  is_active: true,
  language: '',
  region: '',
  placement_started_at: '',
  placement_ends_at: '',
  links: '',
};

const lines = (s: string) =>
  s
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

const toForm = (s: ServerRow): FormState => ({
  name: s.name,
  slug: s.slug,
  description: s.description,
  category: s.category,
  subcategory: s.subcategory ?? '',
  members: String(s.members),
  active_users: String(s.active_users),
  image_url: s.image_url ?? '',
  affiliate_link: s.affiliate_link ?? '',
  pros: s.pros.join('\n'),
  cons: s.cons.join('\n'),
  tags: s.tags.join('\n'),
  features: s.features.join('\n'),
  sort_order: String(s.sort_order),
  is_premium: s.is_premium,
  is_sponsored: s.is_sponsored,
  is_active: s.is_active,
  language: s.language ?? '',
  region: s.region ?? '',
  placement_started_at: s.placement_started_at?.slice(0, 10) ?? '',
  placement_ends_at: s.placement_ends_at?.slice(0, 10) ?? '',
  links: s.links.map((l) => `${l.label} ${l.url}`).join('\n'),
});

/** The form as the API takes it; an edit leaves visibility out (the Visible column hides with reasons, #32). */
const toInput = (f: FormState, isNew: boolean): ServerInput => ({
  name: f.name,
  slug: f.slug,
  description: f.description,
  category: f.category as ServerInput['category'],
  subcategory: f.subcategory.trim() || null,
  members: f.members,
  active_users: f.active_users,
  image_url: f.image_url.trim() || null,
  affiliate_link: f.affiliate_link.trim() || null,
  pros: lines(f.pros),
  cons: lines(f.cons),
  tags: lines(f.tags),
  features: lines(f.features),
  sort_order: f.sort_order,
  is_premium: f.is_premium,
  is_sponsored: f.is_sponsored,
  ...(isNew ? { is_active: f.is_active } : {}),
  language: f.language || null,
  region: f.region || null,
  placement_started_at: f.placement_started_at || null,
  placement_ends_at: f.placement_ends_at || null,
  // "Label https://…": the address is the line's last word, the label what comes before it.
  links: lines(f.links).map((l) => {
    const at = l.search(/\S+$/);
    return { label: l.slice(0, at).trim(), url: l.slice(at) };
  }),
});

/** Listings: search, create, edit, delete, visibility, premium/sponsored, sort order, analytics. */
export function ServersScreen({ isAdmin }: { isAdmin: boolean }) {
  const list = useList({
    filters: { search: '' },
    perPage: 20,
    load: async (filters, paging) => {
      const { servers, total } = await parseResponse(
        client.api.admin.servers.$get({ query: { ...filters, ...paging } }),
      );
      return { rows: servers, total };
    },
  });
  const [editing, setEditing] = useState<ServerRow | 'new' | null>(null);
  const [form, setForm] = useState<FormState>(EMPTY);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  // Why the last save was refused, said beside the Save button; `refusals` counts them so each
  // refusal moves focus to the first bad field, even when it is the same field as last time.
  const [formError, setFormError] = useState('');
  const [refusals, setRefusals] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (refusals === 0) return;
    const form = formRef.current;
    (
      form?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? form?.querySelector<HTMLElement>('[type="submit"]')
    )?.focus();
  }, [refusals]);
  const refuse = (errors: Record<string, string>, message: string) => {
    setFieldErrors(errors);
    setFormError(message);
    setRefusals((n) => n + 1);
  };
  const [analyticsFor, setAnalyticsFor] = useState<ServerRow | null>(null);
  // Hiding a live listing asks why first (#32): the owner is mailed the reasons with an appeal link.
  const [hiding, setHiding] = useState<ServerRow | null>(null);
  const { run } = list;

  const byId = client.api.admin.servers[':id'];
  /** A placement or visibility change: shown at once, then written (a failure reloads the truth). */
  const mark = (
    s: ServerRow,
    change: Partial<Pick<ServerRow, 'is_active' | 'is_premium' | 'is_sponsored'>>,
    label: string | (() => string),
    write: () => Promise<unknown>,
  ) => {
    list.update((x) => x.id === s.id, change);
    void run(label, write);
  };

  const startEdit = (s: ServerRow | 'new') => {
    setEditing(s);
    setForm(s === 'new' ? EMPTY : toForm(s));
    setFieldErrors({});
    setFormError('');
    setAnalyticsFor(null);
  };

  const save = async (e: SubmitEvent) => {
    e.preventDefault();
    const input = toInput(form, editing === 'new');
    const parsed = serverSchema.safeParse(input);
    if (!parsed.success) {
      const errs: Record<string, string> = {};
      for (const i of parsed.error.issues) errs[String(i.path[0])] ??= i.message;
      refuse(errs, notSaved(Object.values(errs)));
      return;
    }
    setFieldErrors({});
    setFormError('');
    const ok = await run(editing === 'new' ? `Created “${form.name}”.` : `Saved “${form.name}”.`, async () => {
      try {
        if (editing === 'new') await client.api.admin.servers.$post({ json: input });
        else if (editing) await byId.$put({ param: idParam(editing), json: input });
      } catch (err) {
        const errs =
          err instanceof ApiCallError
            ? Object.fromEntries(err.issues.map((i) => [i.path.split('.')[0] ?? '', i.message]))
            : {};
        refuse(errs, notSaved(Object.keys(errs).length ? Object.values(errs) : [messageOf(err)]));
        throw err;
      }
    });
    if (ok) setEditing(null);
  };

  const field = (key: keyof FormState, label: string, props: Record<string, unknown> = {}) => (
    <label>
      {label}
      <input
        value={form[key] as string}
        onChange={(e) => setForm({ ...form, [key]: e.target.value })}
        aria-invalid={fieldErrors[key] ? true : undefined}
        {...props}
      />
      {fieldErrors[key] && <span className="field-error">{fieldErrors[key]}</span>}
    </label>
  );
  const area = (key: keyof FormState, label: string) => (
    <label>
      {label}
      <textarea
        rows={3}
        value={form[key] as string}
        onChange={(e) => setForm({ ...form, [key]: e.target.value })}
        aria-invalid={fieldErrors[key] ? true : undefined}
      />
      {fieldErrors[key] && <span className="field-error">{fieldErrors[key]}</span>}
    </label>
  );

  return (
    <section aria-labelledby="servers-title">
      <h1 id="servers-title">Servers</h1>
      <SearchForm
        label="Search servers"
        placeholder="Name or description"
        onSearch={(search) => list.setFilters({ search })}
      >
        {isAdmin && (
          <button type="button" className="btn btn-primary" onClick={() => startEdit('new')}>
            New server
          </button>
        )}
      </SearchForm>
      <Notices error={list.error} done={list.done} />

      {editing && isAdmin && (
        <form ref={formRef} className="card server-form" onSubmit={save} noValidate aria-labelledby="server-form-title">
          <h2 id="server-form-title">{editing === 'new' ? 'New server' : `Edit ${editing.name}`}</h2>
          <div className="form-grid">
            {field('name', 'Name', { required: true })}
            {field('slug', 'Slug (blank: from the name)', { pattern: '[a-z0-9-]*' })}
            <label>
              Category
              <select
                value={form.category}
                onChange={(e) => setForm({ ...form, category: e.target.value })}
                aria-invalid={fieldErrors.category ? true : undefined}
              >
                {/* A stored category the site does not list is shown as it is, to be changed before saving. */}
                {isListedCategory(form.category) ? null : (
                  <option value={form.category} disabled>
                    {form.category} (not listed: choose a category)
                  </option>
                )}
                {CATEGORY_NAMES.map((c) => (
                  <option key={c}>{c}</option>
                ))}
              </select>
              {/* A refused move (a Sponsored slot held in this category, 409) says why beside the field. */}
              {fieldErrors.category && <span className="field-error">{fieldErrors.category}</span>}
            </label>
            {field('subcategory', 'Subcategory')}
            <LanguageRegionFields
              language={form.language}
              region={form.region}
              onLanguage={(language) => setForm({ ...form, language })}
              onRegion={(region) => setForm({ ...form, region })}
            />
            {field('members', 'Members', { inputMode: 'numeric' })}
            {field('active_users', 'Online members', { inputMode: 'numeric' })}
            {field('sort_order', 'Sort order', { inputMode: 'numeric' })}
            {field('image_url', 'Icon URL (https)')}
            {field('affiliate_link', 'Join link (https)', { 'aria-describedby': 'join-link-hint' })}
            <p id="join-link-hint" className="muted small">
              Without a join link the listing shows no Join button, and it cannot be premium or sponsored.
            </p>
          </div>
          {area('description', 'Description')}
          <div className="form-grid">
            {area('pros', 'Pros (one per line)')}
            {area('cons', 'Cons (one per line)')}
            {area('tags', 'Tags (one per line)')}
            {area('features', 'Features (one per line)')}
            {area('links', 'Links (one per line: label, then https address)')}
          </div>
          <fieldset className="checks">
            <legend>Placement</legend>
            {/* A new listing may start hidden; an existing one is hidden from the list, which asks why (#32). */}
            {(editing === 'new'
              ? (['is_active', 'is_premium', 'is_sponsored'] as const)
              : (['is_premium', 'is_sponsored'] as const)
            ).map((k) => (
              <label key={k} className="check">
                <input
                  type="checkbox"
                  checked={form[k]}
                  onChange={(e) => setForm({ ...form, [k]: e.target.checked })}
                />
                {k === 'is_active' ? 'Visible' : k === 'is_premium' ? 'Premium' : 'Sponsored'}
              </label>
            ))}
            {editing !== 'new' && (
              <p className="muted small">
                {form.is_active ? 'Visible' : 'Hidden'}: show or hide it with the Visible box in the list (hiding asks
                for the reasons its owner is mailed).
              </p>
            )}
            {/* Shown to visitors in "About this placement": blank says the period is not recorded. */}
            {field('placement_started_at', 'Paid from', { type: 'date' })}
            {field('placement_ends_at', 'Paid until', { type: 'date' })}
          </fieldset>
          <FormActions
            submit={editing === 'new' ? 'Create server' : 'Save changes'}
            onCancel={() => setEditing(null)}
            error={formError}
          />
        </form>
      )}

      {hiding && (
        <HideListingPanel
          key={hiding.id}
          id="hide-detail"
          level={2}
          name={hiding.name}
          busy={list.busy}
          onHide={(decision) => {
            const s = hiding;
            setHiding(null);
            // Only a listing with a contact address on record (its submission's) is mailed.
            let mailed = false;
            mark(
              s,
              { is_active: false },
              () => `${s.name} is now hidden; ${mailed ? 'its owner is mailed why' : NO_CONTACT}.`,
              async () => {
                const answer = await parseResponse(
                  await byId.visibility.$patch({ param: idParam(s), json: { is_active: false, ...decision } }),
                );
                mailed = 'owner_mailed' in answer && answer.owner_mailed === true;
              },
            );
          }}
          onClose={() => setHiding(null)}
        />
      )}
      {analyticsFor && (
        <ServerAnalytics key={analyticsFor.id} server={analyticsFor} onClose={() => setAnalyticsFor(null)} />
      )}

      <DataTable
        caption="Servers"
        rows={list.rows}
        rowKey={(s) => s.id}
        rowClass={(s) => (whyUnlisted(s) ? 'row-hidden' : '')}
        empty="No servers match."
        pager={list.pager}
        columns={[
          {
            header: 'Server',
            rowHeader: true,
            cell: (s) => (
              <>
                {hasPage(s) ? (
                  <a href={`/server/${s.slug}`} target="_blank" rel="noopener">
                    {s.name}
                  </a>
                ) : (
                  s.name
                )}
                {/* The id is what the Orders screen's comp grant and the audit log name a listing by. */}
                <div className="muted small">
                  #{s.id} · /{s.slug}
                </div>
                {!s.affiliate_link && <div className="muted small">{NO_LINK}</div>}
              </>
            ),
          },
          { header: 'Category', cell: (s) => s.category },
          { header: 'Members', cell: (s) => s.members.toLocaleString() },
          {
            header: 'Visible',
            cell: (s) => (
              <>
                <RowCheckbox
                  label={`${s.name} visible`}
                  checked={s.is_active}
                  onChange={(is_active) => {
                    if (!is_active) {
                      setHiding(s);
                      return;
                    }
                    mark(s, { is_active }, `${s.name} is now visible.`, () =>
                      byId.visibility.$patch({ param: idParam(s), json: { is_active } }),
                    );
                  }}
                />
                {/* Visible to the site is not listed by it: say why the site does not show this one. */}
                {s.is_active && whyUnlisted(s) ? <div className="muted small">{whyUnlisted(s)}</div> : null}
              </>
            ),
          },
          ...PAID.map(({ header, isOn, change }) => ({
            header,
            cell: (s: ServerRow) => (
              <RowCheckbox
                label={`${s.name} ${header.toLowerCase()}`}
                checked={isOn(s)}
                disabled={!isAdmin || (!s.affiliate_link && !isOn(s))}
                title={s.affiliate_link ? undefined : NO_LINK}
                onChange={(on) =>
                  mark(s, change(on), `${s.name}: ${header.toLowerCase()} ${on ? 'on' : 'off'}.`, () =>
                    byId.placement.$patch({ param: idParam(s), json: change(on) }),
                  )
                }
              />
            ),
          })),
          {
            header: 'Sort',
            cell: (s) => (
              <SortOrderInput
                server={s}
                disabled={!isAdmin}
                onSave={(sort_order) =>
                  run(`${s.name}: sort order ${sort_order}.`, () =>
                    byId.placement.$patch({ param: idParam(s), json: { sort_order } }),
                  )
                }
              />
            ),
          },
        ]}
        actions={(s) =>
          isAdmin && (
            <>
              <RowButton label="Edit" target={s.name} onClick={() => startEdit(s)} />
              <RowButton
                label="Analytics"
                target={`of ${s.name}`}
                onClick={() => {
                  setEditing(null);
                  setAnalyticsFor(s);
                }}
              />
              <RowButton
                label="Delete"
                target={s.name}
                danger
                onClick={() => {
                  if (window.confirm(`Delete ${s.name}? Its page disappears at the next build.`)) {
                    void run(`Deleted ${s.name}.`, () => byId.$delete({ param: idParam(s) }));
                  }
                }}
              />
            </>
          )
        }
      />
    </section>
  );
}

/** Sort order edited inline, saved on blur or Enter when it changed; a refused one goes back to the stored one. */
function SortOrderInput({
  server,
  disabled,
  onSave,
}: {
  server: ServerRow;
  disabled: boolean;
  /** Whether the value was saved. */
  onSave: (value: number) => Promise<boolean>;
}) {
  const [value, setValue] = useState(String(server.sort_order));
  useEffect(() => setValue(String(server.sort_order)), [server.sort_order]);
  const commit = async () => {
    const stored = String(server.sort_order);
    const n = Number.parseInt(value, 10);
    if (!Number.isFinite(n) || n === server.sort_order) setValue(stored);
    // Refused (the screen's notice says why): the box shows the stored order again, not the rejected one,
    // which the reload alone would not put back (the stored value did not change).
    else if (!(await onSave(n))) setValue(stored);
  };
  return (
    <input
      className="narrow"
      inputMode="numeric"
      aria-label={`${server.name} sort order`}
      value={value}
      disabled={disabled}
      onChange={(e) => setValue(e.target.value)}
      onBlur={() => void commit()}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          void commit();
        }
      }}
    />
  );
}

/** Per-server analytics for the last N days (30 by default), chart and table. */
function ServerAnalytics({ server, onClose }: { server: ServerRow; onClose: () => void }) {
  const list = useList({
    filters: { days: 30 },
    load: async ({ days }) => {
      const { rows } = await parseResponse(
        client.api.admin.servers[':id'].analytics.$get({
          param: idParam(server),
          query: { days: String(days) },
        }),
      );
      return { rows };
    },
  });
  const { days } = list.filters;
  // The API answers newest first; the chart reads oldest first.
  const ordered = useMemo(() => [...(list.rows ?? [])].reverse(), [list.rows]);
  const labels = useMemo(() => ordered.map((r) => r.date), [ordered]);
  const series = useMemo(
    () => [
      { label: 'Views', values: ordered.map((r) => r.views), color: '#6366f1' },
      { label: 'Clicks', values: ordered.map((r) => r.clicks), color: '#0891b2' },
      { label: 'Conversions', values: ordered.map((r) => r.conversions), color: '#d97706' },
      { label: 'Worth', values: ordered.map((r) => r.worth), color: '#16a34a' },
    ],
    [ordered],
  );
  return (
    <article className="card" aria-labelledby="analytics-title">
      <h2 id="analytics-title">Analytics: {server.name}</h2>
      <div className="toolbar">
        <label>
          Period
          <select value={days} onChange={(e) => list.setFilters({ days: Number(e.target.value) })}>
            {[7, 30, 90, 365].map((d) => (
              <option key={d} value={d}>
                Last {d} days
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          Close
        </button>
      </div>
      <Notice>{list.error}</Notice>
      {list.rows ? (
        <Chart title={`${server.name}, last ${days} days`} labels={labels} series={series} />
      ) : (
        <p className="muted">Loading…</p>
      )}
    </article>
  );
}
