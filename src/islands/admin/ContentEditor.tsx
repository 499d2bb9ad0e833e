import { type SubmitEvent, useMemo, useState } from 'react';
import { contentSchema } from '~/lib/schemas/admin';
import { client, idParam, parseResponse } from './api';
import { DataTable, RowButton, RowCheckbox } from './DataTable';
import { FilterSelect, FormActions, Notices } from './ui';
import { useList } from './use-list';

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
  const list = useList({
    filters: {},
    load: async () => ({ rows: (await parseResponse(client.api.admin.content.$get())).items }),
  });
  type Item = NonNullable<typeof list.rows>[number];
  const [editing, setEditing] = useState<Item | 'new' | null>(null);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  // The page filter picks among the loaded rows: all of them come in one answer.
  const [pageFilter, setPageFilter] = useState('');
  const items = list.rows;

  const pages = useMemo(() => [...new Set((items ?? []).map((i) => i.page))], [items]);
  const grouped = useMemo(() => {
    const out = new Map<string, Item[]>();
    for (const i of items ?? []) {
      if (pageFilter && i.page !== pageFilter) continue;
      const key = `${i.page} / ${i.section}`;
      out.set(key, [...(out.get(key) ?? []), i]);
    }
    return [...out.entries()];
  }, [items, pageFilter]);

  const edit = (item: Item | 'new') => {
    setEditing(item);
    setDraft(item === 'new' ? { ...EMPTY, page: pageFilter } : { ...item, sort_order: String(item.sort_order) });
  };

  const save = async (e: SubmitEvent) => {
    e.preventDefault();
    const parsed = contentSchema.safeParse(draft);
    if (!parsed.success) {
      list.setError(parsed.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`).join('; '));
      return;
    }
    const ok = await list.run('Content saved; the site is rebuilding.', () =>
      editing && editing !== 'new'
        ? client.api.admin.content[':id'].$put({ param: idParam(editing), json: parsed.data })
        : client.api.admin.content.$post({ json: parsed.data }),
    );
    if (ok) setEditing(null);
  };

  const toggle = (r: Item) => {
    list.update((x) => x.id === r.id, { is_active: !r.is_active });
    void list.run(`${r.content_key} toggled.`, () =>
      client.api.admin.content[':id'].toggle.$post({ param: idParam(r) }),
    );
  };
  const remove = (r: Item) => {
    if (!window.confirm(`Delete ${r.page}/${r.section}/${r.content_key}?`)) return;
    void list.run(`${r.content_key} deleted.`, () => client.api.admin.content[':id'].$delete({ param: idParam(r) }));
  };

  return (
    <section aria-labelledby="content-title">
      <h1 id="content-title">Content</h1>
      <div className="toolbar">
        <FilterSelect label="Page" all="All pages" value={pageFilter} values={pages} onChange={setPageFilter} />
        <button type="button" className="btn btn-primary" onClick={() => edit('new')}>
          New content
        </button>
      </div>
      <Notices error={list.error} done={list.done} />

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
          <FormActions submit="Save content" onCancel={() => setEditing(null)} />
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
            <DataTable
              rows={rows}
              rowKey={(r) => r.id}
              rowClass={(r) => (r.is_active ? '' : 'row-hidden')}
              columns={[
                { header: 'Key', rowHeader: true, cell: (r) => r.content_key },
                { header: 'Value', className: 'prewrap clamp', cell: (r) => r.content_value },
                { header: 'Sort', cell: (r) => r.sort_order },
                {
                  header: 'Active',
                  cell: (r) => (
                    <RowCheckbox
                      label={`${r.page} ${r.section} ${r.content_key} active`}
                      checked={r.is_active}
                      onChange={() => toggle(r)}
                    />
                  ),
                },
              ]}
              actions={(r) => (
                <>
                  <RowButton label="Edit" target={r.content_key} onClick={() => edit(r)} />
                  <RowButton label="Delete" target={r.content_key} danger onClick={() => remove(r)} />
                </>
              )}
            />
          </div>
        ))
      )}
    </section>
  );
}
