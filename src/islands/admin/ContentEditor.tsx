import { type SubmitEvent, useCallback, useEffect, useMemo, useState } from 'react';
import { contentSchema } from '~/lib/schemas/admin';
import { api, messageOf } from './api';
import type { ContentRow } from './types';
import { Notice, useWrites } from './ui';

type Draft = {
  page: string;
  section: string;
  content_key: string;
  content_value: string;
  sort_order: string;
  is_active: boolean;
};
const EMPTY: Draft = { page: '', section: '', content_key: '', content_value: '', sort_order: '0', is_active: true };

/** site_content by page and section: create, edit, delete, toggle. */
export function ContentEditor() {
  const [items, setItems] = useState<ContentRow[] | null>(null);
  const [pageFilter, setPageFilter] = useState('');
  const [editing, setEditing] = useState<ContentRow | 'new' | null>(null);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const writes = useWrites();
  const { error, setError, done } = writes;

  const load = useCallback(async () => {
    try {
      setItems((await api<{ items: ContentRow[] }>('GET', '/content')).items);
    } catch (err) {
      setError(messageOf(err));
    }
  }, [setError]);
  useEffect(() => {
    void load();
  }, [load]);

  const pages = useMemo(() => [...new Set((items ?? []).map((i) => i.page))], [items]);
  const grouped = useMemo(() => {
    const out = new Map<string, ContentRow[]>();
    for (const i of items ?? []) {
      if (pageFilter && i.page !== pageFilter) continue;
      const key = `${i.page} / ${i.section}`;
      out.set(key, [...(out.get(key) ?? []), i]);
    }
    return [...out.entries()];
  }, [items, pageFilter]);

  const run = (label: string, fn: () => Promise<unknown>) => writes.run(label, fn, load);

  const edit = (item: ContentRow | 'new') => {
    setEditing(item);
    setDraft(item === 'new' ? { ...EMPTY, page: pageFilter } : { ...item, sort_order: String(item.sort_order) });
  };

  const save = async (e: SubmitEvent) => {
    e.preventDefault();
    const parsed = contentSchema.safeParse(draft);
    if (!parsed.success) {
      setError(parsed.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`).join('; '));
      return;
    }
    const ok = await run('Content saved; the site is rebuilding.', () =>
      editing === 'new'
        ? api('POST', '/content', parsed.data)
        : api('PUT', `/content/${(editing as ContentRow).id}`, parsed.data),
    );
    if (ok) setEditing(null);
  };

  return (
    <section aria-labelledby="content-title">
      <h1 id="content-title">Content</h1>
      <div className="toolbar">
        <label>
          Page
          <select value={pageFilter} onChange={(e) => setPageFilter(e.target.value)}>
            <option value="">All pages</option>
            {pages.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        <button type="button" className="btn btn-primary" onClick={() => edit('new')}>
          New content
        </button>
      </div>
      <Notice>{error}</Notice>
      <Notice kind="ok">{done}</Notice>

      {editing && (
        <form className="card" onSubmit={save} noValidate aria-labelledby="content-form-title">
          <h2 id="content-form-title">{editing === 'new' ? 'New content' : `Edit ${editing.content_key}`}</h2>
          <div className="form-grid">
            {(['page', 'section', 'content_key', 'sort_order'] as const).map((k) => (
              <label key={k}>
                {k === 'content_key' ? 'Key' : k === 'sort_order' ? 'Sort order' : k[0]!.toUpperCase() + k.slice(1)}
                <input value={draft[k]} onChange={(e) => setDraft({ ...draft, [k]: e.target.value })} required />
              </label>
            ))}
          </div>
          <label>
            Value
            <textarea
              rows={4}
              value={draft.content_value}
              onChange={(e) => setDraft({ ...draft, content_value: e.target.value })}
            />
          </label>
          <label className="check">
            <input
              type="checkbox"
              checked={draft.is_active}
              onChange={(e) => setDraft({ ...draft, is_active: e.target.checked })}
            />
            Active
          </label>
          <div className="actions">
            <button type="submit" className="btn btn-primary">
              Save content
            </button>
            <button type="button" className="btn btn-ghost" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </div>
        </form>
      )}

      {!items ? (
        <p className="muted">Loading…</p>
      ) : grouped.length === 0 ? (
        <p className="muted">No content rows yet; the site uses its built-in texts.</p>
      ) : (
        grouped.map(([title, rows]) => (
          <div className="card" key={title}>
            <h2>{title}</h2>
            <div className="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Key</th>
                    <th scope="col">Value</th>
                    <th scope="col">Sort</th>
                    <th scope="col">Active</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r) => (
                    <tr key={r.id} className={r.is_active ? '' : 'row-hidden'}>
                      <th scope="row">{r.content_key}</th>
                      <td className="prewrap clamp">{r.content_value}</td>
                      <td>{r.sort_order}</td>
                      <td>
                        <input
                          type="checkbox"
                          aria-label={`${r.page} ${r.section} ${r.content_key} active`}
                          checked={r.is_active}
                          onChange={() => {
                            setItems(
                              (all) => all?.map((x) => (x.id === r.id ? { ...x, is_active: !x.is_active } : x)) ?? null,
                            );
                            void run(`${r.content_key} toggled.`, () => api('POST', `/content/${r.id}/toggle`));
                          }}
                        />
                      </td>
                      <td>
                        <div className="row-actions">
                          <button type="button" className="btn btn-small" onClick={() => edit(r)}>
                            Edit<span className="visually-hidden"> {r.content_key}</span>
                          </button>
                          <button
                            type="button"
                            className="btn btn-small btn-danger"
                            onClick={() => {
                              if (window.confirm(`Delete ${r.page}/${r.section}/${r.content_key}?`)) {
                                void run(`${r.content_key} deleted.`, () => api('DELETE', `/content/${r.id}`));
                              }
                            }}
                          >
                            Delete<span className="visually-hidden"> {r.content_key}</span>
                          </button>
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        ))
      )}
    </section>
  );
}
