import { useState } from 'react';
import { EDIT_STATUSES, type EditStatus } from '~/lib/enums';
import { client, idParam, parseResponse } from './api';
import { DataTable, RowButton } from './DataTable';
import { ReviewPanel } from './ReviewPanel';
import { Badge, FilterSelect, formatDate, Notices } from './ui';
import { useList } from './use-list';

/** One entry of a listed value: a link as "label: url" (the address in full, for the reviewer to check). */
const entry = (item: unknown): string =>
  item && typeof item === 'object' && 'url' in item
    ? `${String((item as { label?: unknown }).label ?? '')}: ${String((item as { url: unknown }).url)}`
    : String(item);

/** A value of a diff as the reviewer reads it: lists one per line, nothing as "none". */
const shown = (value: unknown): string => {
  if (value === null || value === undefined || value === '') return '(none)';
  if (Array.isArray(value)) return value.length ? value.map(entry).join('\n') : '(none)';
  return String(value);
};

/**
 * Owners' edits of their listings (#17), beside the submissions: each as a diff (field, before,
 * after) to approve (applied to the listing and published) or reject, with optional notes.
 */
export function OwnerEdits() {
  const list = useList({
    filters: { status: 'pending' as EditStatus | '' },
    // Paged under a pager of its own name, beside the submissions' "Pages": past the first 50 the
    // rest are a click away, never silently left out.
    perPage: 50,
    load: async (filters, paging) => {
      const { edits, total } = await parseResponse(client.api.admin.edits.$get({ query: { ...filters, ...paging } }));
      return { rows: edits, total };
    },
  });
  type Edit = NonNullable<typeof list.rows>[number];
  const [selected, setSelected] = useState<Edit | null>(null);
  const [notes, setNotes] = useState('');
  const { busy } = list;

  const decide = (edit: Edit, decision: 'approve' | 'reject') =>
    list.run(
      decision === 'approve'
        ? `Approved the edit of “${edit.server_name}”. The site is rebuilding; every page shows the edit once it is live.`
        : `Rejected the edit of “${edit.server_name}”.`,
      async () => {
        const call = client.api.admin.edits[':id'][decision];
        await call.$post({ param: idParam(edit), json: { admin_notes: notes || undefined } });
        setSelected(null);
      },
      { publishes: decision === 'approve' },
    );

  return (
    <section aria-labelledby="edits-title" className="owner-edits">
      <h2 id="edits-title">Owner edits</h2>
      <p className="muted">Changes owners signed in with Discord asked for on their live listings.</p>
      <div className="toolbar">
        <FilterSelect
          label="Show"
          all="All edits"
          value={list.filters.status}
          values={EDIT_STATUSES}
          onChange={(status) => list.setFilters({ status })}
        />
      </div>
      <Notices error={list.error} done={list.done} />
      {selected && (
        <ReviewPanel
          id="edit-detail"
          level={3}
          title={`Edit of ${selected.server_name}`}
          status={selected.status}
          notes={
            selected.status === 'pending'
              ? { label: 'Notes (optional)', value: notes, rows: 2, onChange: setNotes }
              : undefined
          }
          decisions={
            selected.status === 'pending' && (
              <>
                <button
                  type="button"
                  className="btn btn-primary"
                  disabled={busy}
                  onClick={() => decide(selected, 'approve')}
                >
                  Approve edit
                </button>
                <button type="button" className="btn" disabled={busy} onClick={() => decide(selected, 'reject')}>
                  Reject edit
                </button>
              </>
            )
          }
          onClose={() => setSelected(null)}
        >
          <p>
            By {selected.owner_username ?? 'a deleted account'} (verified owner) · {formatDate(selected.created_at)} ·{' '}
            <a href={`/server/${selected.server_slug}`} target="_blank" rel="noopener">
              /server/{selected.server_slug}
            </a>
          </p>
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Changes asked for</caption>
              <thead>
                <tr>
                  <th scope="col">Field</th>
                  <th scope="col">Now</th>
                  <th scope="col">Asked for</th>
                </tr>
              </thead>
              <tbody>
                {Object.entries(selected.changes).map(([field, change]) => (
                  <tr key={field}>
                    <th scope="row">{field}</th>
                    <td className="prewrap">
                      <del>{shown(change.from)}</del>
                    </td>
                    <td className="prewrap">
                      <ins>{shown(change.to)}</ins>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </ReviewPanel>
      )}
      <DataTable
        caption="Owner edits"
        rows={list.rows}
        rowKey={(e) => e.id}
        rowSelected={(e) => selected?.id === e.id}
        empty={`No owner edits${list.filters.status ? ` ${list.filters.status}` : ''}.`}
        pager={list.pager && { ...list.pager, label: 'Owner edit pages' }}
        columns={[
          { header: 'Server', rowHeader: true, cell: (e) => e.server_name },
          { header: 'Fields', cell: (e) => Object.keys(e.changes).join(', ') },
          { header: 'Owner', cell: (e) => e.owner_username ?? '—' },
          { header: 'Sent', cell: (e) => formatDate(e.created_at) },
          { header: 'Status', cell: (e) => <Badge value={e.status} /> },
        ]}
        actions={(e) => (
          <RowButton
            label="Review edit"
            target={e.server_name}
            onClick={() => {
              setSelected(e);
              setNotes(e.admin_notes ?? '');
            }}
          />
        )}
      />
    </section>
  );
}
